// usage_report: tokens and cost grouped like ccusage (daily, weekly, monthly, session, project,
// and blocks: the 5-hour billing windows), over every format in the store, priced from the table
// shipped in src/usage/pricing.ts.

import { z } from 'zod';
import { keptWhileUnchanged, VersionCache } from '../../analysis/version-cache.js';
import { FORMATS } from '../../formats/registry.js';
import { buildReport, GROUPINGS, ORDERS, resolveRange, type Grouping } from '../../usage/aggregate.js';
import { buildBlocks, parseNow } from '../../usage/blocks.js';
import { loadBlockCalls, loadUsageCalls } from '../../usage/calls.js';
import { COST_MODES } from '../../usage/cost.js';
import { PRICE_SOURCES, PRICES_AS_OF } from '../../usage/pricing.js';
import { checkTimeZone, DEFAULT_TIME_ZONE } from '../../usage/time-zone.js';
import { fitMaxBytes, limitArg, maxBytesArg, offsetArg, page, pageShape } from '../envelope.js';
import { InvalidArguments } from '../../core/errors.js';
import { defineTool } from '../tool.js';
import { examples } from './examples.js';
import { cli } from './cli.js';
import { http } from './http.js';

/** The groupings of usage_report: ccusage's calendar and session ones, then its 5-hour windows. */
const GROUP_BY = [...GROUPINGS, 'blocks'] as const;

const day = (name: string) => z.string().optional().describe(`${name} day (in timezone), YYYY-MM-DD.`);

const input = z
  .object({
    group_by: z.enum(GROUP_BY).default('daily').describe('Row per period, session, project or 5-hour block.'),
    timezone: z.string().default(DEFAULT_TIME_ZONE).describe('IANA zone of the days, e.g. Europe/Berlin.'),
    order: z.enum(ORDERS).optional().describe('Default asc by period; sessions desc by last activity.'),
    since: day('First'),
    until: day('Last'),
    format: z.enum(FORMATS).optional().describe('Only sessions of this format.'),
    project: z.string().optional().describe('Only this project (slug folder, path or plane root).'),
    breakdown: z.boolean().default(false).describe('Add model_breakdowns (one per model) to each row.'),
    mode: z
      .enum(COST_MODES)
      .default('calculate')
      .describe('calculate: from the price table; display: logged costs (else null); auto: logged, else calculated.'),
    start_of_week: z.enum(['sunday', 'monday']).default('sunday').describe('weekly: first day of a week.'),
    active: z.boolean().default(false).describe('blocks: only the block open at now.'),
    now: z.string().optional().describe('blocks: ISO 8601 time taken as now (default: the clock).'),
    limit: limitArg(100, 500),
    offset: offsetArg,
    max_bytes: maxBytesArg(200_000),
  })
  .strict();

const tokens = z.object({
  input: z.number(),
  output: z.number(),
  cache_write: z.number(),
  cache_read: z.number(),
  // Output-priced tokens outside output (Gemini's thoughts, as ccusage leaves them out of its output column); 0 elsewhere.
  reasoning: z.number(),
  total: z.number(),
});
const figures = {
  tokens,
  cost_usd: z.number().nullable(),
  partial: z.boolean(),
  unpriced_models: z.array(z.string()),
  uncosted_calls: z.number().int(),
  calls: z.number().int(),
};
const row = z
  .object({ key: z.string(), ...figures, models: z.array(z.string()) })
  .passthrough()
  .describe(
    'Session rows add session_id, format, project, first_activity, last_activity, subagents[]; project rows add project_path, sessions; block rows add start, end, actual_end, active, gap, burn_rate, projection.',
  );

type Report = { rows: Record<string, unknown>[]; totals: unknown; since: string | null; until: string | null; now?: string };

/** Reports kept per store: a whole report (every session row) can run to megabytes. */
const KEPT_REPORTS = 16;

/**
 * Whole reports per store version, shared by concurrent identical calls; the page and max_bytes are
 * cut from the kept report on each call, so they are not part of the key.
 */
const reports = new VersionCache<Report>(KEPT_REPORTS);

/** Every argument that changes the whole report (not the page, not max_bytes). */
function reportKey(a: z.infer<typeof input>): string {
  return JSON.stringify([a.group_by, a.timezone, a.order, a.since, a.until, a.format, a.project, a.breakdown, a.mode, a.start_of_week, a.active, a.now]);
}

export const usageReport = defineTool({
  name: 'usage_report',
  mcpSets: ['core', 'analyst'],
  // Envelope, rows, a row, its model_breakdowns or subagents, one of those, its tokens: figures only.
  answerDepth: 6,
  examples, cli, http,
  title: 'Usage and cost report',
  description:
    'Token usage and cost of LLM calls, grouped like ccusage: group_by daily | weekly | monthly, session (top-level, sub-agents folded in, listed in subagents), project, or blocks (5-hour billing windows: start, end, active, gap rows, burn_rate, projection). Rows: key, tokens {input, output, cache_write, cache_read, reasoning, total}, cost_usd, calls, models. Each LLM call counts once, as ccusage. Costs from a shipped price table (prices_as_of); an unpriced model is listed in unpriced_models and makes cost_usd partial, never $0. totals cover all rows, not just the page.',
  input,
  output: z.object({
    status: z.literal('ok'),
    ...pageShape,
    group_by: z.enum(GROUP_BY),
    mode: z.enum(COST_MODES),
    timezone: z.string(),
    since: z.string().nullable(),
    until: z.string().nullable(),
    now: z.string().optional().describe('blocks: the time taken as now.'),
    prices_as_of: z.string(),
    price_sources: z.array(z.string()),
    totals: z.object({ ...figures, models: z.array(z.string()), undated_calls: z.number().int() }),
    rows: z.array(row),
  }),
  async handler(args, { store }) {
    const blocks = args.group_by === 'blocks';
    // Bad arguments fail before the store is read.
    if (!blocks && (args.active || args.now !== undefined)) {
      throw InvalidArguments(`${args.active ? 'active' : 'now'} applies to group_by blocks only (got group_by ${args.group_by}).`);
    }
    resolveRange(args.since, args.until);
    checkTimeZone(args.timezone);
    const filters = { since: args.since, until: args.until, project: args.project, format: args.format, breakdown: args.breakdown, mode: args.mode, timeZone: args.timezone, order: args.order };
    let report: Report;
    if (blocks) {
      const now = args.now === undefined ? Date.now() : parseNow(args.now);
      // Windows need each call's hour, not the stored per-day groups: the per-hour ones.
      const build = async () => buildBlocks(await loadBlockCalls(store), { ...filters, now, activeOnly: args.active });
      // Without a given now the report moves with the clock: nothing to keep.
      report = args.now === undefined ? await build() : await keptWhileUnchanged(reports, store, reportKey(args), build);
    } else {
      const build = async () => buildReport(await loadUsageCalls(store, args.timezone), { ...filters, groupBy: args.group_by as Grouping, startOfWeek: args.start_of_week });
      report = await keptWhileUnchanged(reports, store, reportKey(args), build);
    }
    const items = report.rows.slice(args.offset, args.offset + args.limit);
    const body = {
      ...page(report.rows.length, args.limit, args.offset, items.length),
      group_by: args.group_by,
      mode: args.mode,
      timezone: args.timezone,
      since: report.since,
      until: report.until,
      ...(report.now === undefined ? {} : { now: report.now }),
      prices_as_of: PRICES_AS_OF,
      price_sources: PRICE_SOURCES,
      totals: report.totals,
      rows: items,
    };
    return fitMaxBytes(body, 'rows', args.max_bytes);
  },
});
