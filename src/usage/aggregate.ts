// Grouping LLM calls into report rows, as ccusage does: by day, week or month of each call (in UTC
// or a chosen time zone), by top-level session (sub-agents folded in and listed), or by project.

import { InvalidArguments } from '../core/errors.js';
import type { UsageCall } from './calls.js';
import { callCost, roundUsd, type CostMode } from './cost.js';
import { addDays, checkTimeZone, dayIn, DEFAULT_TIME_ZONE, weekdayOf } from './time-zone.js';

export const GROUPINGS = ['daily', 'weekly', 'monthly', 'session', 'project'] as const;
export type Grouping = (typeof GROUPINGS)[number];

export const ORDERS = ['asc', 'desc'] as const;
export type Order = (typeof ORDERS)[number];

export interface ReportOptions {
  groupBy: Grouping;
  /** Inclusive days in `timeZone`, YYYY-MM-DD (or YYYYMMDD as ccusage writes them). */
  since?: string;
  until?: string;
  project?: string;
  format?: string;
  breakdown: boolean;
  mode: CostMode;
  startOfWeek: 'sunday' | 'monday';
  /** IANA zone that days, weeks and months are cut in (default UTC). */
  timeZone?: string;
  /** Row order by period (session rows: by last activity). Unset: periods oldest first, sessions newest first. */
  order?: Order;
}

export interface TokenTotals {
  input: number;
  output: number;
  cache_write: number;
  cache_read: number;
  /** Output-priced tokens outside output (Gemini's thoughts; TokenCounts.reasoning); 0 for other formats. */
  reasoning: number;
  /** Every kind above added. */
  total: number;
}

export interface CostFigures {
  tokens: TokenTotals;
  /** Sum over the calls that have a cost; null when none has. */
  cost_usd: number | null;
  /** Some calls have no cost (unpriced model, or no recorded cost in display mode): cost_usd is a lower bound. */
  partial: boolean;
  unpriced_models: string[];
  uncosted_calls: number;
  calls: number;
  models: string[];
}

export interface ReportRow extends CostFigures {
  key: string;
  [extra: string]: unknown;
}

export const UNKNOWN_MODEL = '(unknown model)';
const NO_PROJECT = '(no project)';

/** Sums calls into one row's figures (tokens, cost, models, first and last time); blocks.ts reuses it. */
export class Acc {
  input = 0;
  output = 0;
  cacheWrite = 0;
  cacheRead = 0;
  reasoning = 0;
  calls = 0;
  usd = 0;
  costed = 0;
  readonly unpriced = new Set<string>();
  readonly models = new Set<string>();
  /** Milliseconds of the first and the last call (numbers, not time keys: a group's keys would be made for nothing but this). */
  first: number | null = null;
  last: number | null = null;

  add(c: UsageCall, usd: number | null, unpriced: boolean): void {
    const t = c.tokens;
    this.input += t.input;
    this.output += t.output;
    this.cacheWrite += t.cacheWrite;
    this.cacheRead += t.cacheRead;
    this.reasoning += t.reasoning ?? 0;
    this.calls += c.calls;
    const model = c.model ?? UNKNOWN_MODEL;
    this.models.add(model);
    if (usd !== null) {
      this.usd += usd;
      this.costed += c.calls;
    } else if (unpriced) this.unpriced.add(model);
    if (c.tsMs !== null) {
      if (this.first === null || c.tsMs < this.first) this.first = c.tsMs;
      if (this.last === null || c.lastMs! > this.last) this.last = c.lastMs;
    }
  }

  figures(): CostFigures {
    return {
      tokens: {
        input: this.input,
        output: this.output,
        cache_write: this.cacheWrite,
        cache_read: this.cacheRead,
        reasoning: this.reasoning,
        total: this.input + this.output + this.cacheWrite + this.cacheRead + this.reasoning,
      },
      cost_usd: this.costed > 0 ? roundUsd(this.usd) : null,
      partial: this.costed < this.calls,
      unpriced_models: [...this.unpriced].sort(),
      uncosted_calls: this.calls - this.costed,
      calls: this.calls,
      models: [...this.models].sort(),
    };
  }
}

/** Parse an inclusive day bound; a malformed or impossible date is an argument error. */
export function parseDay(value: string, name: 'since' | 'until'): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$|^(\d{4})(\d{2})(\d{2})$/.exec(value.trim());
  const day = m ? `${m[1] ?? m[4]}-${m[2] ?? m[5]}-${m[3] ?? m[6]}` : '';
  const ms = Date.parse(`${day}T00:00:00Z`);
  // Date.parse rolls 02-30 over to March: the round trip catches impossible days.
  if (!m || Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== day) {
    throw InvalidArguments(`${name} must be a calendar date YYYY-MM-DD (or YYYYMMDD), got "${value}".`);
  }
  return day;
}

/** Both bounds parsed and checked (an inverted range is an error, not an empty report). */
export function resolveRange(sinceArg?: string, untilArg?: string): { since: string | null; until: string | null } {
  const since = sinceArg !== undefined ? parseDay(sinceArg, 'since') : null;
  const until = untilArg !== undefined ? parseDay(untilArg, 'until') : null;
  if (since !== null && until !== null && since > until) {
    throw InvalidArguments(`since (${since}) is after until (${until}); the range is inclusive and must not be inverted.`);
  }
  return { since, until };
}

function periodKey(day: string, groupBy: Grouping, startOfWeek: 'sunday' | 'monday'): string {
  if (groupBy === 'monthly') return day.slice(0, 7);
  if (groupBy === 'weekly') {
    const dow = weekdayOf(day);
    return addDays(day, -(startOfWeek === 'sunday' ? dow : (dow + 6) % 7));
  }
  return day;
}

export interface Report {
  rows: ReportRow[];
  totals: CostFigures & { undated_calls: number };
  since: string | null;
  until: string | null;
}

/** Group the calls into rows (sorted deterministically) and totals, under the options' filters. */
export function buildReport(all: UsageCall[], o: ReportOptions): Report {
  const { since, until } = resolveRange(o.since, o.until);
  const zone = checkTimeZone(o.timeZone ?? DEFAULT_TIME_ZONE);
  const dated = o.groupBy === 'daily' || o.groupBy === 'weekly' || o.groupBy === 'monthly';
  const totals = new Acc();
  const groups = new Map<string, { acc: Acc; models: Map<string, Acc>; subagents: Map<string, Acc>; roots: Set<string>; sample: UsageCall }>();
  let undated = 0;

  for (const c of all) {
    if (o.project !== undefined && c.project !== o.project && c.projectPath !== o.project) continue;
    if (o.format !== undefined && c.format !== o.format) continue;
    if (since !== null || until !== null) {
      // A call without a time cannot be shown to fall inside the range.
      if (c.tsMs === null) continue;
      const day = dayIn(c.tsMs, zone);
      if ((since !== null && day < since) || (until !== null && day > until)) continue;
    }
    const cost = callCost(c.model, c.tokens, c.recordedUsd, o.mode, c.long ?? undefined);
    const unpriced = cost.source === 'unpriced';
    totals.add(c, cost.usd, unpriced);
    if (dated && c.tsMs === null) {
      undated += c.calls;
      continue;
    }
    const key =
      o.groupBy === 'session' ? c.rootId : o.groupBy === 'project' ? (c.project ?? NO_PROJECT) : periodKey(dayIn(c.tsMs!, zone), o.groupBy, o.startOfWeek);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { acc: new Acc(), models: new Map(), subagents: new Map(), roots: new Set(), sample: c }));
    g.acc.add(c, cost.usd, unpriced);
    g.roots.add(c.rootId);
    if (o.breakdown) {
      const model = c.model ?? UNKNOWN_MODEL;
      let m = g.models.get(model);
      if (!m) g.models.set(model, (m = new Acc()));
      m.add(c, cost.usd, unpriced);
    }
    if (o.groupBy === 'session' && c.sessionId !== c.rootId) {
      let s = g.subagents.get(c.sessionId);
      if (!s) g.subagents.set(c.sessionId, (s = new Acc()));
      s.add(c, cost.usd, unpriced);
    }
  }

  const rows: ReportRow[] = [];
  for (const [key, g] of groups) {
    const row: ReportRow = { key, ...g.acc.figures() };
    if (o.groupBy === 'session') {
      row.session_id = key;
      row.format = g.sample.format;
      row.project = g.sample.project;
      row.first_activity = isoOf(g.acc.first);
      row.last_activity = isoOf(g.acc.last);
      row.subagents = [...g.subagents.entries()]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([id, acc]) => ({ session_id: id, ...acc.figures() }));
    }
    if (o.groupBy === 'project') {
      row.project_path = g.sample.projectPath;
      row.sessions = g.roots.size;
    }
    if (o.breakdown) {
      row.model_breakdowns = [...g.models.entries()]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([model, acc]) => {
          const { models: _m, ...f } = acc.figures();
          return { model, ...f };
        });
    }
    rows.push(row);
  }
  if (o.groupBy === 'session') rows.sort(o.order === 'asc' ? (a, b) => -bySessionActivity(a, b) : bySessionActivity);
  else rows.sort(o.order === 'desc' ? (a, b) => -byKey(a, b) : byKey);
  return { rows, totals: { ...totals.figures(), undated_calls: undated }, since, until };
}

/** ISO 8601 of a time in milliseconds, as keyToIso writes a time key. */
const isoOf = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

function byKey(a: ReportRow, b: ReportRow): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

/** Newest activity first (as list_sessions), then id; sessions without a time last. */
function bySessionActivity(a: ReportRow, b: ReportRow): number {
  const la = (a.last_activity as string | null) ?? '';
  const lb = (b.last_activity as string | null) ?? '';
  return la !== lb ? (la < lb ? 1 : -1) : byKey(a, b);
}
