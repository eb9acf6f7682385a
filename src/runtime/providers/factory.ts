// From provider settings to a working client (seed §4): resolve the provider id (explicit →
// a base URL alone means `custom` → the default), look up its preset, resolve the key (apiKey →
// apiKeyEnv → the preset's env var), merge headers (preset defaults, then custom), route to the
// protocol's client. Also what the session and terminals show: metadata and a config without the key.

import { findPrice, type ModelPrice } from '../../usage/pricing.js';
import type { ModelClient } from '../model/chat.js';
import { createAnthropicMessagesClient } from './anthropic-messages.js';
import { ProviderConfigError } from './errors.js';
import { createOpenAICompatibleClient } from './openai-compatible.js';
import { CUSTOM_PROVIDER_ID, DEFAULT_PROVIDER_ID, findPreset, presetIds, type ProviderPreset, type ProviderProtocol } from './presets.js';
import { DEFAULT_RETRY_POLICY, type RetryNotice, type RetryPolicy } from './retry.js';
import { isKnownParser, knownParserIds } from './text-tool-calls.js';

/** The provider part of the runtime config (src/runtime/config gives these after flags and file). */
export interface ProviderSettings {
  provider?: string;
  model?: string;
  baseUrl?: string;
  apiKey?: string;
  apiKeyEnv?: string;
  headers?: Record<string, string>;
  parser?: string;
  local?: boolean;
  stream?: boolean;
  timeoutMs?: number;
  maxRetries?: number;
}

/** Local servers cost $0 only when the config says `local: true`; a model not in the table is unpriced, never $0. */
export type ProviderPricing = { kind: 'table'; price: ModelPrice } | { kind: 'local' } | { kind: 'unpriced' };

export interface ProviderMetadata {
  providerId: string;
  displayName: string;
  model: string;
  protocol: ProviderProtocol;
  baseUrl: string;
  local: boolean;
  pricing: ProviderPricing;
  capabilities: {
    /** The server returns tool calls itself (false when a --parser reads them from text). */
    nativeTools: boolean;
    streaming: boolean;
    /** json_schema response_format (OpenAI-compatible) or the output_json tool (Anthropic). */
    structuredOutput: boolean;
  };
}

export type ApiKeySource = `env:${string}` | 'config' | 'none';

/** The resolved settings, safe to show or record: the key is never in it, header values neither. */
export interface NormalizedProviderConfig {
  providerId: string;
  displayName: string;
  protocol: ProviderProtocol;
  baseUrl: string;
  model: string;
  apiKeySource: ApiKeySource;
  /** Header names only: custom headers may carry credentials. */
  headerNames: string[];
  parser: string | null;
  local: boolean;
  stream: boolean;
  timeoutMs: number;
  maxRetries: number;
}

export interface ProviderFactoryResult {
  client: ModelClient;
  metadata: ProviderMetadata;
  normalizedConfig: NormalizedProviderConfig;
}

export interface CreateModelClientOptions {
  /** Where keys are read (default process.env). */
  env?: Record<string, string | undefined>;
  onRetry?: (notice: RetryNotice) => void;
  /** Backoff tuning beyond timeoutMs / maxRetries (tests shorten the waits). */
  retry?: Partial<RetryPolicy>;
}

function resolvePreset(settings: ProviderSettings): ProviderPreset {
  const id = settings.provider?.trim() || (settings.baseUrl ? CUSTOM_PROVIDER_ID : DEFAULT_PROVIDER_ID);
  const preset = findPreset(id);
  if (preset) return preset;
  // A provider of the user's own naming (config `providers.<id>`) is an OpenAI-compatible server at its base URL.
  if (settings.baseUrl) return { ...findPreset(CUSTOM_PROVIDER_ID)!, id, displayName: id };
  throw new ProviderConfigError(`Unknown provider "${id}": use one of ${presetIds().join(', ')}, or give a baseUrl for an OpenAI-compatible server.`);
}

function resolveKey(settings: ProviderSettings, preset: ProviderPreset, env: Record<string, string | undefined>): { key: string | null; source: ApiKeySource; envName?: string } {
  if (settings.apiKey) return { key: settings.apiKey, source: 'config', envName: settings.apiKeyEnv ?? preset.apiKeyEnv };
  for (const name of [settings.apiKeyEnv, preset.apiKeyEnv]) {
    const value = name ? env[name]?.trim() : undefined;
    if (name && value) return { key: value, source: `env:${name}`, envName: name };
  }
  const wanted = [settings.apiKeyEnv, preset.apiKeyEnv].filter((n): n is string => !!n);
  if (!preset.local && preset.apiKeyEnv) {
    throw new ProviderConfigError(
      `${preset.displayName} needs an API key: set ${[...new Set(wanted)].join(' or ')} in the environment (or apiKeyEnv / apiKey in the config file).`,
    );
  }
  if (settings.apiKeyEnv) {
    throw new ProviderConfigError(`apiKeyEnv names ${settings.apiKeyEnv}, but that variable is not set.`);
  }
  return { key: null, source: 'none' };
}

function pricingOf(model: string, settings: ProviderSettings): ProviderPricing {
  if (settings.local === true) return { kind: 'local' };
  const price = findPrice(model);
  return price ? { kind: 'table', price } : { kind: 'unpriced' };
}

/**
 * @example
 * const { client, metadata } = createModelClient({ provider: 'anthropic', model: 'claude-sonnet-4-5' });
 * // reads ANTHROPIC_API_KEY; metadata.pricing is the table row for claude-sonnet-4-5
 */
export function createModelClient(settings: ProviderSettings, options: CreateModelClientOptions = {}): ProviderFactoryResult {
  const env = options.env ?? process.env;
  const preset = resolvePreset(settings);
  const model = settings.model?.trim() || preset.defaultModel;
  if (!model) throw new ProviderConfigError(`${preset.displayName} has no default model: name one with --model or "model" in the config file.`);
  const baseUrl = (settings.baseUrl?.trim() || preset.baseUrl)?.replace(/\/+$/, '');
  if (!baseUrl) throw new ProviderConfigError(`${preset.displayName} needs a base URL: give --base-url or "baseUrl" in the config file (e.g. http://127.0.0.1:8000/v1).`);
  const parser = settings.parser?.trim() || null;
  if (parser && !isKnownParser(parser)) throw new ProviderConfigError(`Unknown parser "${parser}": use one of ${knownParserIds().join(', ')}.`);
  if (parser && preset.protocol !== 'openai-compatible') throw new ProviderConfigError(`--parser works with OpenAI-compatible servers; ${preset.displayName} returns tool calls itself.`);
  const key = resolveKey(settings, preset, env);
  const headers = { ...(preset.defaultHeaders ?? {}), ...(settings.headers ?? {}) };
  const stream = settings.stream ?? true;
  const retry: Partial<RetryPolicy> = {
    ...options.retry,
    timeoutMs: settings.timeoutMs ?? options.retry?.timeoutMs ?? DEFAULT_RETRY_POLICY.timeoutMs,
    maxRetries: settings.maxRetries ?? options.retry?.maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries,
  };
  const common = {
    providerId: preset.id,
    displayName: preset.displayName,
    baseUrl,
    model,
    apiKey: key.key,
    apiKeyEnv: key.envName,
    headers,
    stream,
    retry,
    onRetry: options.onRetry,
  };
  const client =
    preset.protocol === 'anthropic-messages'
      ? createAnthropicMessagesClient(common)
      : createOpenAICompatibleClient({ ...common, parser, maxTokensField: preset.maxTokensField });
  const local = preset.local || settings.local === true;
  return {
    client,
    metadata: {
      providerId: preset.id,
      displayName: preset.displayName,
      model,
      protocol: preset.protocol,
      baseUrl,
      local,
      pricing: pricingOf(model, settings),
      capabilities: { nativeTools: parser === null, streaming: stream, structuredOutput: true },
    },
    normalizedConfig: {
      providerId: preset.id,
      displayName: preset.displayName,
      protocol: preset.protocol,
      baseUrl,
      model,
      apiKeySource: key.source,
      headerNames: Object.keys(headers).sort(),
      parser,
      local,
      stream,
      timeoutMs: retry.timeoutMs!,
      maxRetries: retry.maxRetries!,
    },
  };
}
