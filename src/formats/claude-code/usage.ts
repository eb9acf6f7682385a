// Token usage of one assistant line, keyed so the summariser can count each API response once.
//
// Claude Code writes one response as several lines (one per content block) that share
// `message.id` and `requestId` and repeat the usage, with `output_tokens` growing as it streams.
// ccusage keys a response by `${message.id}:${requestId}` and keeps the line with the largest
// totals; a line missing either id cannot be deduplicated and counts on its own (ccusage does
// the same). `<synthetic>` lines are written by the client, not billed: they carry no usage.
//
// `progress` lines of type agent_progress mirror a sub-agent's messages, usage included
// (readMirrorUsage). The same response is usually also in the sub-agent's own file; when that file
// is absent (older layouts, copied folders) the mirror is the only record of the call. So a mirror
// keeps its usage under the same key, and the writer drops it once a child session records that
// key itself (src/store/shared/usage-mirrors.ts): each response counts once in the session tree,
// as ccusage's daily report counts it (formats.md, "Token usage traps").

import type { EventUsage, TokenCounts } from '../../core/model.js';
import { asId, asNum, asObj, asStr, type Json } from './json-access.js';

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

/** The usage of the assistant message an agent_progress line mirrors (`data.message`), or undefined. */
export function readMirrorUsage(data: Json | undefined, fallbackKey: string): LineUsage | undefined {
  const mirrored = asObj(data?.message);
  if (!mirrored || asStr(mirrored.type) !== 'assistant') return undefined;
  const message = asObj(mirrored.message);
  return message ? readUsage(message, asId(mirrored.requestId), fallbackKey) : undefined;
}

export function totalOf(t: TokenCounts): number {
  return t.input + t.output + t.cacheWrite + t.cacheRead;
}
