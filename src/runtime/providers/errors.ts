// What can go wrong talking to a model, as one error class with a kind the session can act on
// (retry, give up, compact the context, tell the user to fix a key). Messages name the provider,
// the model, the base URL and the env var holding the key, never the key itself.

import { redactText } from '../../core/redact.js';

export type ProviderErrorKind =
  /** 401/403: the key was refused (or is missing). */
  | 'auth'
  /** 404 / model_not_found: no such model at that base URL (or the base URL is wrong). */
  | 'unknown_model'
  /** 429: too many requests, or the quota is spent (then not retryable). */
  | 'rate_limited'
  /** 5xx, Anthropic's overloaded_error, an in-stream api_error. */
  | 'server'
  /** The per-request timeout ran out. */
  | 'timeout'
  /** The server could not be reached, or the connection closed before the response ended. */
  | 'network'
  /** The response could not be read (not JSON, no choices, an unexpected shape). */
  | 'bad_response'
  /** Any other 4xx: the request itself was refused (bad shape, bad parameter). */
  | 'bad_request'
  /** The caller's AbortSignal fired. */
  | 'aborted'
  /** The provider said the prompt is too long: the session turns this into context exhaustion. */
  | 'context_length';

/** What an error message may name: who was asked, for what, where, and where the key came from. */
export interface ProviderErrorContext {
  providerId: string;
  displayName?: string;
  model?: string;
  baseUrl?: string;
  /** The env var the key came from (or should come from), for "the key was refused" messages. */
  apiKeyEnv?: string;
  /** The key in use: only so that it can be scrubbed from provider messages that echo it. */
  apiKey?: string;
}

export interface ProviderErrorInit {
  kind: ProviderErrorKind;
  message: string;
  providerId: string;
  status?: number | null;
  retryable?: boolean;
  /** From a Retry-After header, in milliseconds. */
  retryAfterMs?: number | null;
  /** The provider's own error type / code (invalid_request_error, model_not_found, 429…). */
  providerType?: string | null;
  providerCode?: string | null;
  requestId?: string | null;
  cause?: unknown;
}

const RETRYABLE_BY_DEFAULT: ReadonlySet<ProviderErrorKind> = new Set(['rate_limited', 'server', 'network']);

export class ProviderError extends Error {
  readonly kind: ProviderErrorKind;
  readonly status: number | null;
  readonly providerId: string;
  readonly retryable: boolean;
  readonly retryAfterMs: number | null;
  readonly providerType: string | null;
  readonly providerCode: string | null;
  readonly requestId: string | null;

  constructor(init: ProviderErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ProviderError';
    this.kind = init.kind;
    this.status = init.status ?? null;
    this.providerId = init.providerId;
    this.retryable = init.retryable ?? RETRYABLE_BY_DEFAULT.has(init.kind);
    this.retryAfterMs = init.retryAfterMs ?? null;
    this.providerType = init.providerType ?? null;
    this.providerCode = init.providerCode ?? null;
    this.requestId = init.requestId ?? null;
  }
}

/** A provider configuration that cannot work (no key for a hosted provider, no model, unknown id). */
export class ProviderConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderConfigError';
  }
}

export function isProviderError(err: unknown): err is ProviderError {
  return err instanceof ProviderError;
}

/** The fields every provider's error body carries in one of its spellings. */
export interface ErrorBodyFacts {
  message: string | null;
  type: string | null;
  code: string | null;
  requestId: string | null;
}

/**
 * Read an error body: OpenAI `{error:{message,type,code}}`, OpenRouter's numeric `code` with
 * `metadata.raw`, Anthropic `{type:'error', error:{type,message}, request_id}`, a bare
 * `{error:"text"}`, or text that is not JSON at all.
 */
export function readErrorBody(body: unknown): ErrorBodyFacts {
  const facts: ErrorBodyFacts = { message: null, type: null, code: null, requestId: null };
  if (typeof body === 'string') {
    const text = body.trim();
    if (!text) return facts;
    try {
      return readErrorBody(JSON.parse(text) as unknown);
    } catch {
      facts.message = text.slice(0, 500);
      return facts;
    }
  }
  if (!body || typeof body !== 'object') return facts;
  const record = body as Record<string, unknown>;
  if (typeof record.request_id === 'string') facts.requestId = record.request_id;
  const inner = record.error;
  if (typeof inner === 'string') {
    facts.message = inner;
    return facts;
  }
  const source = inner && typeof inner === 'object' ? (inner as Record<string, unknown>) : record;
  if (typeof source.message === 'string') facts.message = source.message;
  if (typeof source.type === 'string' && source.type !== 'error') facts.type = source.type;
  if (typeof source.code === 'string' || typeof source.code === 'number') facts.code = String(source.code);
  const metadata = source.metadata;
  if (metadata && typeof metadata === 'object' && typeof (metadata as Record<string, unknown>).raw === 'string') {
    facts.message = `${facts.message ?? 'error'}: ${(metadata as Record<string, string>).raw}`;
  }
  return facts;
}

const CONTEXT_LENGTH =
  /context[_ ]length|maximum context|context (?:size|window)|prompt is too long|too many (?:input )?tokens|exceed_context_size|reduce the length of the (?:messages|prompt)/i;

/** Retry-After as seconds or an HTTP date, in milliseconds; null when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | null {
  if (!value) return null;
  const seconds = Number(value.trim());
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** The provider's own words, safe to show: the key scrubbed, other secrets redacted, length capped. */
export function safeProviderText(text: string, ctx: ProviderErrorContext): string {
  let out = text;
  if (ctx.apiKey && ctx.apiKey.length >= 4) out = out.split(ctx.apiKey).join('[REDACTED]');
  out = redactText(out);
  return out.length > 400 ? `${out.slice(0, 400)}…` : out;
}

function who(ctx: ProviderErrorContext): string {
  return ctx.displayName ?? ctx.providerId;
}

function keyHint(ctx: ProviderErrorContext): string {
  return ctx.apiKeyEnv ? `check ${ctx.apiKeyEnv}` : 'check the apiKey / apiKeyEnv setting';
}

/**
 * The ProviderError for an HTTP error status and its body (or an in-stream error event, with
 * `status` null). One mapping for every protocol: the kind comes from the status first, then from
 * the provider's type/code, then from the message (context length has no status of its own).
 */
export function errorFromHttp(
  status: number | null,
  body: unknown,
  ctx: ProviderErrorContext,
  headers?: { get(name: string): string | null } | null,
): ProviderError {
  const facts = readErrorBody(body);
  // In-stream errors (OpenRouter) carry the HTTP status they stand for as a numeric code.
  if (status === null && facts.code && /^[45]\d\d$/.test(facts.code)) status = Number(facts.code);
  const providerText = facts.message ? safeProviderText(facts.message, ctx) : null;
  const base = {
    providerId: ctx.providerId,
    status,
    providerType: facts.type,
    providerCode: facts.code,
    requestId: facts.requestId ?? headers?.get('x-request-id') ?? headers?.get('request-id') ?? null,
    retryAfterMs: parseRetryAfter(headers?.get('retry-after')),
  };
  const says = providerText ? ` The provider said: ${providerText}` : '';
  const where = ctx.baseUrl ? ` at ${ctx.baseUrl}` : '';
  const model = ctx.model ? `"${ctx.model}"` : 'the configured model';
  const typeOrCode = `${facts.type ?? ''} ${facts.code ?? ''}`;

  if (status === 401 || status === 403 || /authentication_error|permission_error|invalid_api_key/.test(typeOrCode)) {
    return new ProviderError({
      ...base,
      kind: 'auth',
      // The provider's text is left out on purpose: OpenAI echoes part of the refused key.
      message: `${who(ctx)}${where} refused the API key${status ? ` (HTTP ${status})` : ''}: ${keyHint(ctx)}.`,
    });
  }
  if (CONTEXT_LENGTH.test(`${typeOrCode} ${facts.message ?? ''}`)) {
    return new ProviderError({
      ...base,
      kind: 'context_length',
      message: `${who(ctx)} refused the request for model ${model}: the prompt is longer than the model's context.${says}`,
    });
  }
  if (status === 404 || /model_not_found|not_found_error/.test(typeOrCode)) {
    return new ProviderError({
      ...base,
      kind: 'unknown_model',
      message: `${who(ctx)}${where} has no model ${model} (HTTP ${status ?? 404}): check the model name (listModels / doctor) and the base URL.${says}`,
    });
  }
  if (status === 429 || /rate_limit|insufficient_quota|^429$/.test(typeOrCode.trim()) || facts.code === '429') {
    const quota = /insufficient_quota|billing|quota/i.test(`${typeOrCode} ${facts.message ?? ''}`);
    return new ProviderError({
      ...base,
      kind: 'rate_limited',
      retryable: !quota,
      message: quota
        ? `${who(ctx)} refused the request: the account's quota is spent (no retry will help).${says}`
        : `${who(ctx)} is rate-limiting requests for model ${model} (HTTP 429).${says}`,
    });
  }
  if ((status !== null && status >= 500) || /overloaded_error|api_error|server_error/.test(typeOrCode)) {
    return new ProviderError({
      ...base,
      kind: 'server',
      message: `${who(ctx)}${where} failed${status ? ` with HTTP ${status}` : ' mid-stream'} for model ${model}.${says}`,
    });
  }
  if (status !== null && status >= 400) {
    return new ProviderError({
      ...base,
      kind: 'bad_request',
      message: `${who(ctx)} refused the request for model ${model} (HTTP ${status}).${says}`,
    });
  }
  return new ProviderError({
    ...base,
    kind: 'bad_response',
    message: `${who(ctx)} sent an error${status ? ` (HTTP ${status})` : ''} for model ${model}.${says}`,
  });
}

/** The error for a response that ended before it was complete: retryable, like a lost connection. */
export function droppedStreamError(ctx: ProviderErrorContext, detail: string, cause?: unknown): ProviderError {
  return new ProviderError({
    kind: 'network',
    providerId: ctx.providerId,
    retryable: true,
    cause,
    message: `${who(ctx)}${ctx.baseUrl ? ` at ${ctx.baseUrl}` : ''} closed the response stream before it ended (${detail}).`,
  });
}

/** The error for a request that never got an answer (refused connection, DNS, reset). */
export function networkError(ctx: ProviderErrorContext, cause: unknown): ProviderError {
  const reason = describeCause(cause);
  return new ProviderError({
    kind: 'network',
    providerId: ctx.providerId,
    cause,
    message: `Could not reach ${who(ctx)}${ctx.baseUrl ? ` at ${ctx.baseUrl}` : ''}${reason ? ` (${reason})` : ''}: is the server running and the base URL right?`,
  });
}

export function badResponseError(ctx: ProviderErrorContext, detail: string): ProviderError {
  return new ProviderError({
    kind: 'bad_response',
    providerId: ctx.providerId,
    message: `${who(ctx)} sent a response that could not be read: ${detail}.`,
  });
}

function describeCause(cause: unknown): string {
  if (!(cause instanceof Error)) return '';
  const inner = (cause as Error & { cause?: unknown }).cause;
  const code = inner && typeof inner === 'object' && 'code' in inner ? String((inner as { code: unknown }).code) : '';
  return code || cause.message;
}
