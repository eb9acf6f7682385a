// Model providers: the factory the session calls, the two protocol clients, errors, retries, presets.

export { createAnthropicMessagesClient, type AnthropicMessagesOptions } from './anthropic-messages.js';
export { OUTPUT_JSON_TOOL } from './anthropic-wire.js';
export {
  ProviderConfigError,
  ProviderError,
  isProviderError,
  type ProviderErrorContext,
  type ProviderErrorKind,
} from './errors.js';
export {
  createModelClient,
  type ApiKeySource,
  type CreateModelClientOptions,
  type NormalizedProviderConfig,
  type ProviderFactoryResult,
  type ProviderMetadata,
  type ProviderPricing,
  type ProviderSettings,
} from './factory.js';
export { createOpenAICompatibleClient, type OpenAICompatibleOptions } from './openai-compatible.js';
export { CUSTOM_PROVIDER_ID, DEFAULT_PROVIDER_ID, PROVIDER_PRESETS, findPreset, presetIds, type ProviderPreset, type ProviderProtocol } from './presets.js';
export { DEFAULT_RETRY_POLICY, type RetryNotice, type RetryPolicy } from './retry.js';
