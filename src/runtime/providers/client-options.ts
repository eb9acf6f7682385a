// What every protocol client is given, whatever its wire: who it is, where, which model, the key,
// extra headers, streaming, and the retry policy. Each client adds its own fields.

import type { RetryNotice, RetryPolicy } from './retry.js';

export interface ProviderClientOptions {
  providerId: string;
  displayName?: string;
  /** The API's base URL, as the client's protocol expects it (its own docs say which). */
  baseUrl: string;
  model: string;
  apiKey?: string | null;
  /** Only for error messages: where the key came from. */
  apiKeyEnv?: string;
  headers?: Record<string, string>;
  /** Stream (SSE) or ask for one JSON body. Default true. */
  stream?: boolean;
  retry?: Partial<RetryPolicy>;
  /** Told before each retry (a streamed response restreams from its start). */
  onRetry?: (notice: RetryNotice) => void;
}
