// The providers Hindsight knows by name: protocol, base URL, where the key lives, a default model
// where one makes sense, default headers. A preset is data; the factory does the rest.

export type ProviderProtocol = 'openai-compatible' | 'anthropic-messages';

export interface ProviderPreset {
  id: string;
  displayName: string;
  protocol: ProviderProtocol;
  /** Null: the config must give one (the `custom` preset). */
  baseUrl: string | null;
  /** Where the key is read from when the config names none; absent for servers that need none. */
  apiKeyEnv?: string;
  /** A server on this machine: no key needed. Free only when the config says `local: true`. */
  local: boolean;
  defaultModel?: string;
  defaultHeaders?: Record<string, string>;
  /** OpenAI's own API wants max_completion_tokens. */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
}

export const PROVIDER_PRESETS: readonly ProviderPreset[] = [
  {
    id: 'openai',
    displayName: 'OpenAI',
    protocol: 'openai-compatible',
    baseUrl: 'https://api.openai.com/v1',
    apiKeyEnv: 'OPENAI_API_KEY',
    local: false,
    defaultModel: 'gpt-5-mini',
    maxTokensField: 'max_completion_tokens',
  },
  {
    id: 'anthropic',
    displayName: 'Anthropic',
    protocol: 'anthropic-messages',
    baseUrl: 'https://api.anthropic.com',
    apiKeyEnv: 'ANTHROPIC_API_KEY',
    local: false,
    defaultModel: 'claude-sonnet-4-5',
  },
  {
    id: 'openrouter',
    displayName: 'OpenRouter',
    protocol: 'openai-compatible',
    baseUrl: 'https://openrouter.ai/api/v1',
    apiKeyEnv: 'OPENROUTER_API_KEY',
    local: false,
    // OpenRouter's app attribution headers.
    defaultHeaders: { 'HTTP-Referer': 'https://github.com/hindsight-sessions/hindsight', 'X-Title': 'Hindsight' },
  },
  {
    id: 'deepseek',
    displayName: 'DeepSeek',
    protocol: 'openai-compatible',
    baseUrl: 'https://api.deepseek.com/v1',
    apiKeyEnv: 'DEEPSEEK_API_KEY',
    local: false,
    defaultModel: 'deepseek-chat',
  },
  {
    id: 'groq',
    displayName: 'Groq',
    protocol: 'openai-compatible',
    baseUrl: 'https://api.groq.com/openai/v1',
    apiKeyEnv: 'GROQ_API_KEY',
    local: false,
    defaultModel: 'llama-3.3-70b-versatile',
  },
  { id: 'vllm', displayName: 'vLLM', protocol: 'openai-compatible', baseUrl: 'http://127.0.0.1:8000/v1', local: true },
  { id: 'llamacpp', displayName: 'llama.cpp server', protocol: 'openai-compatible', baseUrl: 'http://127.0.0.1:8080/v1', local: true },
  { id: 'ollama', displayName: 'Ollama', protocol: 'openai-compatible', baseUrl: 'http://127.0.0.1:11434/v1', local: true },
  { id: 'custom', displayName: 'OpenAI-compatible server', protocol: 'openai-compatible', baseUrl: null, local: false },
];

/**
 * The provider used when the config names none and gives no base URL: a local server, so that
 * nothing leaves the machine unless the user chose a hosted provider.
 */
export const DEFAULT_PROVIDER_ID = 'ollama';

/** The provider used when the config gives a base URL but no provider. */
export const CUSTOM_PROVIDER_ID = 'custom';

export function findPreset(id: string): ProviderPreset | null {
  return PROVIDER_PRESETS.find((p) => p.id === id) ?? null;
}

export function presetIds(): string[] {
  return PROVIDER_PRESETS.map((p) => p.id);
}
