// The runtime's settings: the config file, the flags, the environment, and how they combine.

export { configPath, loadConfigFile, type LoadedConfigFile } from './load.js';
export {
  DEFAULT_MAX_RETRIES,
  DEFAULT_MAX_STEPS,
  DEFAULT_TIMEOUT_MS,
  LOG_LEVEL_ENV,
  loadRuntimeConfig,
  providerSettingsOf,
  resolveRuntimeConfig,
  RUNTIME_FLAGS,
  type RuntimeConfig,
  type RuntimeFlagName,
  type RuntimeFlagSpec,
  type RuntimeFlagValues,
} from './resolve.js';
export { ConfigError, ConfigFileSchema, LOG_LEVELS, type ConfigFile, type LogLevel, type ProviderOverrides } from './schema.js';
