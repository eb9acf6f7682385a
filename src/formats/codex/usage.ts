// One LLM call per `token_count` that moves the session's cumulative total, counted as ccusage
// 20.0.24 counts Codex (its codex adapter; checked against the binary in ccusage.test.ts):
//
// - `info.total_token_usage` is cumulative, `info.last_token_usage` the call's own figures. A
//   token_count whose total equals the previous one repeats a call already counted (Codex writes
//   it again when only the rate limits changed): nothing is counted. When the total moved, the
//   call is `last_token_usage`, or the difference of the totals when `last` is missing.
// - `info: null`, or a call whose figures are all zero, counts nothing.
// - Cached input is part of input and reasoning part of output, so the store's kinds are:
//   input = input − cached − cache writes (ccusage's inputTokens), cacheRead = cached,
//   cacheWrite = cache writes (never written by OpenAI models, read when present), output = output.
//   Cached input above the input is cut to it, cache writes to what is left (ccusage's rule).
// - The model is the token_count's own (`model`, `model_name`, `metadata.model`, in payload or
//   info), else the latest turn_context's; with neither, `gpt-5` marked as a fallback (Codex's
//   default model when turn_context did not exist yet). `codex-auto-review` is not a priced
//   model: it stands for the newest model released on or before the call's day (ccusage's table).

import type { EventUsage } from '../../core/model.js';
import { asObj, nonEmpty, type Obj } from './json.js';

/** The figures of one usage object as Codex writes them (after ccusage's field aliases). */
export interface RawUsage {
  input: number;
  cached: number;
  cacheWrite: number;
  output: number;
  reasoning: number;
  total: number;
}

/** A count field: a non-negative number (fractions dropped); anything else is absent. */
function count(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.floor(v) : undefined;
}

/** Fields that are present but not counts (negative, text): the caller reports them. */
export function badCountFields(o: Obj): string[] {
  return Object.entries(o)
    .filter(([k, v]) => k.endsWith('tokens') && v !== null && v !== undefined && count(v) === undefined)
    .map(([k]) => k);
}

/** A usage object read with ccusage's aliases (prompt/completion names, cache spellings). */
export function readRawUsage(value: unknown): RawUsage | null {
  const o = asObj(value);
  if (!o) return null;
  const input = count(o.input_tokens) ?? count(o.prompt_tokens) ?? count(o.input) ?? 0;
  const output = count(o.output_tokens) ?? count(o.completion_tokens) ?? count(o.output) ?? 0;
  const reasoning = count(o.reasoning_output_tokens) ?? count(o.reasoning_tokens) ?? 0;
  const cached = count(o.cached_input_tokens) ?? count(o.cache_read_input_tokens) ?? count(o.cached_tokens) ?? 0;
  const cacheWrite = count(o.cache_creation_tokens) ?? count(o.cache_creation_input_tokens) ?? count(o.cache_write_input_tokens) ?? 0;
  const recorded = count(o.total_tokens);
  // A zero total with tokens in it was never a real total.
  const total = recorded !== undefined && (recorded > 0 || input + output + reasoning === 0) ? recorded : input + output + reasoning;
  return { input, cached, cacheWrite, output, reasoning, total };
}

export function sameUsage(a: RawUsage, b: RawUsage): boolean {
  return a.input === b.input && a.cached === b.cached && a.cacheWrite === b.cacheWrite && a.output === b.output && a.reasoning === b.reasoning && a.total === b.total;
}

/** Cached input never above input; cache writes never above the uncached rest. */
function normalized(u: RawUsage): RawUsage {
  const cached = Math.min(u.cached, u.input);
  const cacheWrite = Math.min(u.cacheWrite, u.input - cached);
  return { ...u, cached, cacheWrite };
}

function minus(a: RawUsage, b: RawUsage | null): RawUsage {
  const d = (x: number, y: number) => Math.max(0, x - y);
  return normalized({
    input: d(a.input, b?.input ?? 0),
    cached: d(a.cached, b?.cached ?? 0),
    cacheWrite: d(a.cacheWrite, b?.cacheWrite ?? 0),
    output: d(a.output, b?.output ?? 0),
    reasoning: d(a.reasoning, b?.reasoning ?? 0),
    total: d(a.total, b?.total ?? 0),
  });
}

/**
 * The call a token_count records, given the previous cumulative total; also the total to remember.
 * `call` is null when nothing is to be counted (a repeat, no info, all zero).
 */
export function callOf(info: Obj | undefined, previous: RawUsage | null): { call: RawUsage | null; total: RawUsage | null; repeat: boolean } {
  if (!info) return { call: null, total: previous, repeat: false };
  const total = readRawUsage(info.total_token_usage);
  const last = readRawUsage(info.last_token_usage);
  const advanced = total === null || previous === null || !sameUsage(total, previous);
  let call: RawUsage | null = null;
  if (last && advanced) call = normalized(last);
  else if (total) call = minus(total, previous);
  const remembered = total ?? previous;
  if (call && call.input === 0 && call.cached === 0 && call.cacheWrite === 0 && call.output === 0 && call.reasoning === 0) {
    return { call: null, total: remembered, repeat: !advanced };
  }
  return { call, total: remembered, repeat: false };
}

/** The store's four kinds for a call (input without cached input or cache writes). */
export function eventUsage(call: RawUsage, key: string, model: string | null): EventUsage {
  return { key, model, input: call.input - call.cached - call.cacheWrite, cacheRead: call.cached, cacheWrite: call.cacheWrite, output: call.output };
}

/** A model named by a record: `model`, `model_name` or `metadata.model`. */
export function modelOf(o: Obj | undefined): string | undefined {
  if (!o) return undefined;
  return nonEmpty(o.model) ?? nonEmpty(o.model_name) ?? nonEmpty(asObj(o.metadata)?.model);
}

/**
 * What `codex-auto-review` stood for on a day: ccusage 20.0.24's table (newest first; the model
 * released on or before the day). gpt-5.5 is absent from it on purpose (ccusage's choice).
 */
const AUTO_REVIEW: readonly (readonly [string, string])[] = [
  ['2026-07-30', 'gpt-5.6-luna'],
  ['2026-03-05', 'gpt-5.4'],
  ['2026-02-05', 'gpt-5.3-codex'],
  ['2025-12-11', 'gpt-5.2-codex'],
  ['2025-11-13', 'gpt-5.1-codex'],
  ['2025-09-15', 'gpt-5-codex'],
  ['2025-08-07', 'gpt-5'],
];

export const AUTO_REVIEW_MODEL = 'codex-auto-review';
/** Codex's default model before turn_context recorded one (ccusage's fallback too). */
export const FALLBACK_MODEL = 'gpt-5';

/** The priced model behind `codex-auto-review` on the call's day (`YYYY-MM-DD…`). */
export function autoReviewModel(timestamp: string | undefined): string {
  const day = timestamp && /^\d{4}-\d{2}-\d{2}/.test(timestamp) ? timestamp.slice(0, 10) : undefined;
  if (!day) return FALLBACK_MODEL;
  return AUTO_REVIEW.find(([since]) => day >= since)?.[1] ?? FALLBACK_MODEL;
}

/** The model state a rollout carries from line to line (part of the parser's snapshot). */
export interface ModelState {
  model: string | null;
  fallback: boolean;
}

/**
 * The model a call is priced as, and whether it was inferred (no model recorded, or
 * codex-auto-review). A model the call names becomes the current one.
 */
export function resolveModel(named: string | undefined, state: ModelState, timestamp: string | undefined): { model: string; logged: string | null; fallback: boolean } {
  if (named) {
    state.model = named;
    state.fallback = false;
  }
  let fallback = false;
  let model = named ?? state.model;
  if (model === null) {
    state.model = FALLBACK_MODEL;
    state.fallback = true;
    model = FALLBACK_MODEL;
  }
  if (state.fallback) fallback = true;
  const logged = model;
  if (model === AUTO_REVIEW_MODEL) {
    model = autoReviewModel(timestamp);
    fallback = true;
  }
  return { model, logged: logged === model ? null : logged, fallback };
}
