// 5-hour billing windows, as ccusage's `blocks` report cuts them (Anthropic's subscription limits
// reset per window that opens with the first request after the last window closed):
//
// - A window opens at the first call, its start floored to the full UTC hour, and lasts 5 hours.
// - A call joins the open window unless it falls more than 5 hours after the window's start or
//   more than 5 hours after the previous call; then the window closes and the call opens the next.
// - When two calls are more than 5 hours apart, the idle time between the end of the first one's
//   5 hours and the second call is listed as a gap row (no calls, nothing spent).
// - A window is active when `now` is less than 5 hours after its last call and before its end.
// - Burn rate: tokens per minute and cost per hour between the window's first and last call
//   (null when they are the same instant). ccusage gives it for the active window only; here every
//   window has it, since a past window's pace is a forensic figure too.
// - Projection (active window only): the burn rate carried on over the whole minutes left.
//
// The calls are the ones every usage report counts (each LLM call once). Cutting needs less of each
// call's time than it seems: the calls sorted, a call joins the open window exactly when it is at
// most 5 hours after the window's start (the previous call is never before that start), and the
// start is an hour mark. So all calls of one UTC hour join or all open the next window, except a
// call at the hour's first millisecond, which a window opened 5 hours before still takes. The store
// hands the calls over summed per session, such hour and model (Store.usageCallHours: ~1,300 rows
// of a 300 MB corpus instead of ~19,000 calls), and a group is cut as its first call is; only
// each window's first and last call times are shown, and a group carries both. A store without
// those groups hands over each call alone, which cuts the same. Costs are priced per group (prices
// are linear within one, as for the other reports).
//
// Filters: format and project narrow the calls before windows are cut (the windows of those calls);
// since/until keep the windows that start on those days in the time zone, as ccusage does.

import { InvalidArguments } from '../core/errors.js';
import { Acc, resolveRange, UNKNOWN_MODEL, type CostFigures, type Order, type ReportRow } from './aggregate.js';
import type { UsageCall } from './calls.js';
import { callCost, type CostMode } from './cost.js';
import { checkTimeZone, dayIn, DEFAULT_TIME_ZONE } from './time-zone.js';

/** Length of a billing window (ccusage's default --session-length). */
export const BLOCK_HOURS = 5;
const BLOCK_MS = BLOCK_HOURS * 3_600_000;
const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

export interface BlockOptions {
  /** The instant taken as now (ms since the epoch): decides the active window and its projection. */
  now: number;
  mode: CostMode;
  /** Inclusive days in `timeZone` (YYYY-MM-DD or YYYYMMDD) a window must start on. */
  since?: string;
  until?: string;
  timeZone?: string;
  project?: string;
  format?: string;
  /** Only the window still open at `now`. */
  activeOnly?: boolean;
  breakdown?: boolean;
  /** By start time (gaps included); default asc (oldest first), as ccusage. */
  order?: Order;
}

export interface BurnRate {
  /** Every token kind per minute of activity. */
  tokens_per_minute: number;
  /** Input and output (reasoning included) tokens only per minute (ccusage's indicator, blind to cache traffic). */
  tokens_per_minute_for_indicator: number;
  /** null when no call of the window has a cost. */
  cost_per_hour: number | null;
}

export interface Projection {
  total_tokens: number;
  /** Whole cents, as ccusage rounds it; null when the window has no cost. */
  cost_usd: number | null;
  remaining_minutes: number;
}

export interface BlockRow extends ReportRow {
  /** Window start (ISO 8601, on the hour) or, for a gap, the end of the previous window's 5 hours after its last call. */
  start: string;
  /** start + 5 hours; for a gap, the next call. */
  end: string;
  /** The window's last call; null for a gap. */
  actual_end: string | null;
  active: boolean;
  gap: boolean;
  burn_rate: BurnRate | null;
  projection: Projection | null;
}

export interface BlocksReport {
  rows: BlockRow[];
  totals: CostFigures & { undated_calls: number };
  since: string | null;
  until: string | null;
  now: string;
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i;

/** Why `value` is not a usable `now` (an ISO 8601 time with a zone), or null when it is. */
export function nowProblem(value: string): string | null {
  const ms = ISO_TIME.test(value.trim()) ? Date.parse(value.trim()) : NaN;
  return Number.isNaN(ms) ? `must be an ISO 8601 time with a zone, such as 2026-02-11T23:00:00Z; got "${value}"` : null;
}

/** The `now` argument in milliseconds; a malformed one is an argument error. */
export function parseNow(value: string): number {
  const problem = nowProblem(value);
  if (problem) throw InvalidArguments(`now ${problem}.`);
  return Date.parse(value.trim());
}

interface Priced {
  call: UsageCall & { tsMs: number };
  usd: number | null;
  unpriced: boolean;
}

interface Window {
  start: number;
  /** The last call's time (a group's own last call can be after a later-starting group's). */
  last: number;
  calls: Priced[];
}

const iso = (ms: number) => new Date(ms).toISOString();
const floorToHour = (ms: number) => Math.floor(ms / HOUR_MS) * HOUR_MS;

type Piece = { kind: 'window'; window: Window } | { kind: 'gap'; start: number; end: number };

/**
 * Cut calls sorted by their (first) time into windows, with the gaps between them (ccusage's rule,
 * above). A group of calls is cut as its first call: it is never split (the header says why).
 */
function cutWindows(calls: Priced[]): Piece[] {
  const out: Piece[] = [];
  let open: Window | null = null;
  for (const p of calls) {
    const t = p.call.tsMs;
    if (open) {
      if (t - open.start <= BLOCK_MS && t - open.last <= BLOCK_MS) {
        open.calls.push(p);
        if (p.call.lastMs! > open.last) open.last = p.call.lastMs!;
        continue;
      }
      out.push({ kind: 'window', window: open });
      if (t - open.last > BLOCK_MS) out.push({ kind: 'gap', start: open.last + BLOCK_MS, end: t });
    }
    open = { start: floorToHour(t), last: p.call.lastMs!, calls: [p] };
  }
  if (open) out.push({ kind: 'window', window: open });
  return out;
}

function burnRate(first: number, last: number, f: CostFigures): BurnRate | null {
  const minutes = (last - first) / MINUTE_MS;
  if (minutes <= 0) return null;
  return {
    tokens_per_minute: f.tokens.total / minutes,
    tokens_per_minute_for_indicator: (f.tokens.input + f.tokens.output + f.tokens.reasoning) / minutes,
    cost_per_hour: f.cost_usd === null ? null : (f.cost_usd / minutes) * 60,
  };
}

function project(rate: BurnRate, end: number, now: number, f: CostFigures): Projection {
  // Whole minutes first, then the projection from them: ccusage 20 does so (its figures move once
  // a minute, and equal ours for the same now).
  const remaining = Math.round(Math.max(0, (end - now) / MINUTE_MS));
  return {
    total_tokens: Math.round(f.tokens.total + rate.tokens_per_minute * remaining),
    cost_usd: f.cost_usd === null || rate.cost_per_hour === null ? null : Math.round((f.cost_usd + (rate.cost_per_hour / 60) * remaining) * 100) / 100,
    remaining_minutes: remaining,
  };
}

/** Whether the window is still open at `now`: less than 5 hours after its last call, and before its end. */
function isActive(w: Window, now: number): boolean {
  return now - w.last < BLOCK_MS && now < w.start + BLOCK_MS;
}

function windowRow(w: Window, now: number, breakdown: boolean): BlockRow {
  const acc = new Acc();
  const models = new Map<string, Acc>();
  for (const p of w.calls) {
    acc.add(p.call, p.usd, p.unpriced);
    if (breakdown) {
      const name = p.call.model ?? UNKNOWN_MODEL;
      let m = models.get(name);
      if (!m) models.set(name, (m = new Acc()));
      m.add(p.call, p.usd, p.unpriced);
    }
  }
  const figures = acc.figures();
  const first = w.calls[0]!.call.tsMs;
  const last = w.last;
  const end = w.start + BLOCK_MS;
  const active = isActive(w, now);
  const rate = burnRate(first, last, figures);
  const start = iso(w.start);
  const row: BlockRow = {
    key: start,
    start,
    end: iso(end),
    actual_end: iso(last),
    active,
    gap: false,
    ...figures,
    burn_rate: rate,
    projection: active && rate ? project(rate, end, now, figures) : null,
  };
  if (breakdown) {
    row.model_breakdowns = [...models.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([model, m]) => {
        const { models: _m, ...f } = m.figures();
        return { model, ...f };
      });
  }
  return row;
}

function gapRow(startMs: number, end: number, breakdown: boolean): BlockRow {
  const start = iso(startMs);
  const row: BlockRow = {
    key: `gap-${start}`,
    start,
    end: iso(end),
    actual_end: null,
    active: false,
    gap: true,
    ...new Acc().figures(),
    // Nothing was spent in a gap: $0, not "no cost known".
    cost_usd: 0,
    burn_rate: null,
    projection: null,
  };
  if (breakdown) row.model_breakdowns = [];
  return row;
}

/**
 * The billing windows of the calls under the options' filters, with gap rows, in start order.
 * `all`: single calls, or groups of calls no window boundary can cut (loadBlockCalls' groups).
 *
 * @example buildBlocks(calls, { now: Date.now(), mode: 'calculate' }).rows.find((r) => r.active)
 */
export function buildBlocks(all: UsageCall[], o: BlockOptions): BlocksReport {
  const { since, until } = resolveRange(o.since, o.until);
  const zone = checkTimeZone(o.timeZone ?? DEFAULT_TIME_ZONE);
  const totals = new Acc();
  const dated: Priced[] = [];
  let undated = 0;
  for (const c of all) {
    if (o.project !== undefined && c.project !== o.project && c.projectPath !== o.project) continue;
    if (o.format !== undefined && c.format !== o.format) continue;
    const cost = callCost(c.model, c.tokens, c.recordedUsd, o.mode, c.long ?? undefined);
    const priced = { usd: cost.usd, unpriced: cost.source === 'unpriced' };
    if (c.tsMs === null) {
      // In no window; counted in the totals unless a filter asks for windows a call without a time cannot be shown to fall in.
      if (since === null && until === null && !o.activeOnly) {
        undated += c.calls;
        totals.add(c, priced.usd, priced.unpriced);
      }
      continue;
    }
    dated.push({ call: c as Priced['call'], ...priced });
  }
  // Time order; ties keep the calls' own order (the callers hand them over deterministically).
  dated.sort((a, b) => a.call.tsMs - b.call.tsMs);

  // Rows are made only for the pieces the filters keep (--active keeps one of hundreds).
  const kept: { row: BlockRow; startMs: number }[] = [];
  for (const piece of cutWindows(dated)) {
    if (o.activeOnly && !(piece.kind === 'window' && isActive(piece.window, o.now))) continue;
    const startMs = piece.kind === 'window' ? piece.window.start : piece.start;
    if (since !== null || until !== null) {
      const day = dayIn(startMs, zone);
      if ((since !== null && day < since) || (until !== null && day > until)) continue;
    }
    const row = piece.kind === 'window' ? windowRow(piece.window, o.now, o.breakdown ?? false) : gapRow(piece.start, piece.end, o.breakdown ?? false);
    if (piece.kind === 'window') for (const p of piece.window.calls) totals.add(p.call, p.usd, p.unpriced);
    kept.push({ row, startMs });
  }
  // By start time, as ccusage lists them: a gap starts 5 h after its last call, which can be after
  // the next block's start (floored to the hour), so the order the loop made them in is not it.
  const sign = o.order === 'desc' ? -1 : 1;
  kept.sort((a, b) => sign * (a.startMs - b.startMs));
  return { rows: kept.map((k) => k.row), totals: { ...totals.figures(), undated_calls: undated }, since, until, now: iso(o.now) };
}
