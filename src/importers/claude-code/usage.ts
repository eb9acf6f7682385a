// Token usage of one assistant line, keyed so the summariser can count each API response once.
//
// Claude Code writes one response as several lines (one per content block) that share
// `message.id` and `requestId` and repeat the usage, with `output_tokens` growing as it streams.
// ccusage keys a response by `${message.id}:${requestId}` and keeps the line with the largest
// totals; a line missing either id cannot be deduplicated and counts on its own (ccusage does
// the same). `<synthetic>` lines are written by the client, not billed: they carry no usage.

import type { EventUsage, TokenCounts } from '../../core/model.js';
import { asNum, asObj, type Json } from './json-access.js';

export const SYNTHETIC_MODEL = '<synthetic>';

export interface LineUsage {
  usage: EventUsage;
  /** Cache writes by lifetime (priced differently); absent when the line does not say. */
  cacheWrite5m?: number;
  cacheWrite1h?: number;
}

/** The usage of an assistant message, or undefined when it has none or is synthetic. */
export function readUsage(
  message: Json,
  requestId: string | undefined,
  fallbackKey: string,
): LineUsage | undefined {
  const raw = asObj(message.usage);
  if (!raw) return undefined;
  const model = typeof message.model === 'string' ? message.model : null;
  if (model === SYNTHETIC_MODEL) return undefined;
  const messageId = typeof message.id === 'string' && message.id !== '' ? message.id : undefined;
  const key = messageId && requestId ? `${messageId}:${requestId}` : fallbackKey;
  const usage: EventUsage = {
    key,
    model,
    input: asNum(raw.input_tokens) ?? 0,
    output: asNum(raw.output_tokens) ?? 0,
    cacheWrite: asNum(raw.cache_creation_input_tokens) ?? 0,
    cacheRead: asNum(raw.cache_read_input_tokens) ?? 0,
  };
  const split = asObj(raw.cache_creation);
  const out: LineUsage = { usage };
  if (split) {
    const m5 = asNum(split.ephemeral_5m_input_tokens);
    const h1 = asNum(split.ephemeral_1h_input_tokens);
    if (m5 !== undefined) out.cacheWrite5m = m5;
    if (h1 !== undefined) out.cacheWrite1h = h1;
  }
  return out;
}

export function totalOf(t: TokenCounts): number {
  return t.input + t.output + t.cacheWrite + t.cacheRead;
}
