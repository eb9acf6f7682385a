// The runtime's flags, declared once: the agent commands' specs (src/surfaces/cli/agent-specs.ts)
// and the config resolution read this list. No runtime imports here: the CLI's command table loads
// it on every start-up.

import { LOG_LEVEL_ENV, LOG_LEVELS } from '../logging/levels.js';
import type { ConfigFile } from './schema.js';

export { LOG_LEVEL_ENV };

export const DEFAULT_MAX_STEPS = 50;

export interface RuntimeFlagSpec {
  /** The long name, without dashes. */
  name: string;
  type: 'string' | 'number' | 'integer';
  /** The value's placeholder in help. */
  value: string;
  help: string;
  /** The config field the flag sets. */
  field: keyof ConfigFile;
}

export const RUNTIME_FLAGS = [
  { name: 'provider', type: 'string', value: 'ID', field: 'provider', help: 'Provider preset: openai, anthropic, openrouter, deepseek, groq, vllm, llamacpp, ollama, custom' },
  { name: 'model', type: 'string', value: 'NAME', field: 'model', help: 'Model name as the provider knows it' },
  { name: 'base-url', type: 'string', value: 'URL', field: 'baseUrl', help: 'Base URL of the provider API (e.g. http://127.0.0.1:8000/v1)' },
  { name: 'parser', type: 'string', value: 'ID', field: 'parser', help: 'Read tool calls out of the text with this parser (hermes, qwen3_xml, …)' },
  { name: 'budget', type: 'number', value: 'USD', field: 'budgetUsd', help: 'Stop when the estimated cost passes this many US dollars' },
  { name: 'max-steps', type: 'integer', value: 'N', field: 'maxSteps', help: `Model calls per turn at most (default ${DEFAULT_MAX_STEPS})` },
  { name: 'log-level', type: 'string', value: 'LEVEL', field: 'logLevel', help: `One of ${LOG_LEVELS.join(', ')} (default info; also ${LOG_LEVEL_ENV})` },
] as const satisfies readonly RuntimeFlagSpec[];

export type RuntimeFlagName = (typeof RUNTIME_FLAGS)[number]['name'];

/** Flag values as parseArgs gives them (strings), or already typed. */
export type RuntimeFlagValues = Partial<Record<RuntimeFlagName, string | number | undefined>>;

