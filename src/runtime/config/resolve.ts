// The runtime settings in force: command-line flags over the config file over the environment
// over defaults. The flags are declared here once, so the CLI commands take them from this list.

import { z } from 'zod';
import type { ProviderSettings } from '../providers/factory.js';
import { CUSTOM_PROVIDER_ID, DEFAULT_PROVIDER_ID } from '../providers/presets.js';
import { DEFAULT_MAX_STEPS, LOG_LEVEL_ENV, RUNTIME_FLAGS, type RuntimeFlagName, type RuntimeFlagSpec, type RuntimeFlagValues } from './flags.js';
import { configPath, loadConfigFile } from './load.js';
import { ConfigError, describeIssue, LOG_LEVELS, PROVIDER_FIELDS, type ConfigFile, type LogLevel, type ProviderOverrides } from './schema.js';

export const DEFAULT_TIMEOUT_MS = 120_000;
export const DEFAULT_MAX_RETRIES = 3;
export { DEFAULT_MAX_STEPS, LOG_LEVEL_ENV, RUNTIME_FLAGS, type RuntimeFlagName, type RuntimeFlagSpec, type RuntimeFlagValues };

export interface RuntimeConfig {
  provider: string;
  model?: string;
  baseUrl?: string;
  apiKey?: string;
  apiKeyEnv?: string;
  headers: Record<string, string>;
  parser?: string;
  local: boolean;
  stream: boolean;
  timeoutMs: number;
  maxRetries: number;
  budgetUsd: number | null;
  maxSteps: number;
  logLevel: LogLevel;
  /** Absent: nothing dispatched (the executor rules' reading). */
  toolsAllowed: string[] | null;
}

const FLAG_SCHEMAS: Record<RuntimeFlagName, z.ZodTypeAny> = {
  provider: z.string().min(1),
  model: PROVIDER_FIELDS.model,
  'base-url': PROVIDER_FIELDS.baseUrl,
  parser: PROVIDER_FIELDS.parser,
  budget: z.coerce.number().positive(),
  'max-steps': z.coerce.number().int().positive(),
  'log-level': z.enum(LOG_LEVELS),
};

/** Flags given, checked and typed, keyed by config field. */
function readFlags(flags: RuntimeFlagValues): Partial<ConfigFile> {
  const out: Record<string, unknown> = {};
  for (const spec of RUNTIME_FLAGS) {
    const raw = flags[spec.name];
    if (raw === undefined || raw === '') continue;
    const parsed = FLAG_SCHEMAS[spec.name].safeParse(typeof raw === 'string' ? raw.trim() : raw);
    if (!parsed.success) throw new ConfigError(describeIssue(`--${spec.name}`, parsed.error).replace(/: "[^"]*" /, ': '));
    out[spec.field] = parsed.data;
  }
  return out as Partial<ConfigFile>;
}

const PROVIDER_KEYS = Object.keys(PROVIDER_FIELDS) as (keyof ProviderOverrides)[];
/** Settings that belong to one server; stream, timeoutMs and maxRetries hold for any. */
const SERVER_KEYS: ReadonlySet<keyof ProviderOverrides> = new Set(['model', 'baseUrl', 'apiKey', 'apiKeyEnv', 'headers', 'parser', 'local']);

function providerPart(source: Partial<ConfigFile> | ProviderOverrides | undefined, keep: (key: keyof ProviderOverrides) => boolean = () => true): ProviderOverrides {
  const out: Record<string, unknown> = {};
  for (const key of PROVIDER_KEYS) if (source?.[key] !== undefined && keep(key)) out[key] = source[key];
  return out as ProviderOverrides;
}

/**
 * Merge flags, file and environment. The file's top-level server settings (model, baseUrl, key,
 * headers, parser, local) apply to the provider it names; when a flag picks another provider,
 * only `providers.<id>` of the file applies to it (a base URL meant for one server must not
 * follow a switch to another). `providers.<id>` wins over the top level; flags win over both.
 */
export function resolveRuntimeConfig(file: ConfigFile, flags: RuntimeFlagValues = {}, env: Record<string, string | undefined> = process.env): RuntimeConfig {
  const fromFlags = readFlags(flags);
  const switched = fromFlags.provider !== undefined && file.provider !== undefined && fromFlags.provider !== file.provider;
  const topLevel = providerPart(file, (key) => !switched || !SERVER_KEYS.has(key));
  const baseUrlSoFar = fromFlags.baseUrl ?? topLevel.baseUrl;
  const provider = fromFlags.provider ?? file.provider ?? (baseUrlSoFar ? CUSTOM_PROVIDER_ID : DEFAULT_PROVIDER_ID);
  const merged: ProviderOverrides = { ...topLevel, ...providerPart(file.providers?.[provider]), ...providerPart(fromFlags) };

  let logLevel: LogLevel = fromFlags.logLevel ?? file.logLevel ?? 'info';
  if (fromFlags.logLevel === undefined && file.logLevel === undefined && env[LOG_LEVEL_ENV]?.trim()) {
    const parsed = z.enum(LOG_LEVELS).safeParse(env[LOG_LEVEL_ENV]!.trim().toLowerCase());
    if (!parsed.success) throw new ConfigError(`${LOG_LEVEL_ENV}: "${env[LOG_LEVEL_ENV]}" is not a log level; use one of ${LOG_LEVELS.join(', ')}.`);
    logLevel = parsed.data;
  }

  return {
    provider,
    ...(merged.model !== undefined ? { model: merged.model } : {}),
    ...(merged.baseUrl !== undefined ? { baseUrl: merged.baseUrl } : {}),
    ...(merged.apiKey !== undefined ? { apiKey: merged.apiKey } : {}),
    ...(merged.apiKeyEnv !== undefined ? { apiKeyEnv: merged.apiKeyEnv } : {}),
    ...(merged.parser !== undefined ? { parser: merged.parser } : {}),
    headers: merged.headers ?? {},
    local: merged.local ?? false,
    stream: merged.stream ?? true,
    timeoutMs: merged.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxRetries: merged.maxRetries ?? DEFAULT_MAX_RETRIES,
    budgetUsd: fromFlags.budgetUsd ?? file.budgetUsd ?? null,
    maxSteps: fromFlags.maxSteps ?? file.maxSteps ?? DEFAULT_MAX_STEPS,
    logLevel,
    toolsAllowed: file.toolsAllowed ?? null,
  };
}

/** The config file at its usual place (or `path`), then flags and environment over it. */
export function loadRuntimeConfig(flags: RuntimeFlagValues = {}, env: Record<string, string | undefined> = process.env, path: string = configPath(env)): RuntimeConfig {
  return resolveRuntimeConfig(loadConfigFile(path).config, flags, env);
}

/** The provider part of the settings in force, as the provider factory takes it (createModelClient). */
export function providerSettingsOf(config: RuntimeConfig): ProviderSettings {
  return {
    provider: config.provider,
    ...(config.model ? { model: config.model } : {}),
    ...(config.baseUrl ? { baseUrl: config.baseUrl } : {}),
    ...(config.apiKey ? { apiKey: config.apiKey } : {}),
    ...(config.apiKeyEnv ? { apiKeyEnv: config.apiKeyEnv } : {}),
    ...(config.parser ? { parser: config.parser } : {}),
    headers: config.headers,
    local: config.local,
    stream: config.stream,
    timeoutMs: config.timeoutMs,
    maxRetries: config.maxRetries,
  };
}
