// usage_report: tokens and cost grouped like ccusage (daily, weekly, monthly, session, project),
// over every format in the store, priced from the table shipped in src/usage/pricing.ts.

import { z } from 'zod';
import { FORMATS } from '../../formats/registry.js';
import { buildReport, GROUPINGS, ORDERS, resolveRange } from '../../usage/aggregate.js';
import { loadUsageCalls } from '../../usage/calls.js';
import { COST_MODES } from '../../usage/cost.js';
import { PRICE_SOURCES, PRICES_AS_OF } from '../../usage/pricing.js';
import { checkTimeZone, DEFAULT_TIME_ZONE } from '../../usage/time-zone.js';
import { fitMaxBytes, limitArg, maxBytesArg, offsetArg, page, pageShape } from '../envelope.js';
import { defineTool } from '../tool.js';

const day = (name: string) => z.string().optional().describe(`${name} day counted (in timezone), YYYY-MM-DD or YYYYMMDD.`);

const input = z
  .object({
    group_by: z.enum(GROUPINGS).default('daily').describe('Row per day, week, month, top-level session (sub-agents folded in) or project.'),
    timezone: z.string().default(DEFAULT_TIME_ZONE).describe('IANA zone days are cut in, e.g. Europe/Berlin.'),
    order: z.enum(ORDERS).optional().describe('By period (sessions: last activity); default asc, sessions desc.'),
    since: day('First'),
    until: day('Last'),
    format: z.enum(FORMATS).optional().describe('Only sessions of this format.'),
    project: z.string().optional().describe("Only this project (the session's slug folder name, its path, or a Control Plane root)."),
    breakdown: z.boolean().default(false).describe('Add model_breakdowns: one entry per model in each row.'),
    mode: z
      .enum(COST_MODES)
      .default('calculate')
      .describe('calculate: from tokens and the shipped price table; display: only costs recorded in the logs (else null); auto: recorded when present, else calculated.'),
    start_of_week: z.enum(['sunday', 'monday']).default('sunday').describe('First day of a week for group_by weekly (ccusage: sunday).'),
    limit: limitArg(100, 500),
    offset: offsetArg,
    max_bytes: maxBytesArg(200_000),
  })
  .strict();

const tokens = z.object({ input: z.number(), output: z.number(), cache_write: z.number(), cache_read: z.number(), total: z.number() });
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
  .describe('Session rows add session_id, format, project, first_activity, last_activity, subagents[]; project rows add project_path, sessions.');

export const usageReport = defineTool({
  name: 'usage_report',
  title: 'Usage and cost report',
  description:
    "Token usage and cost of LLM calls, grouped like ccusage: group_by daily | weekly | monthly (day of each call in timezone), session (one row per top-level session, sub-agents folded in and listed under subagents) or project. Rows: key, tokens {input, output, cache_write, cache_read, total}, cost_usd, calls, models; model_breakdowns with breakdown: true. Each LLM call counts once (a response split over several lines: its largest usage), as ccusage does. Costs come from a shipped price table (prices_as_of, never fetched); a model without a price is listed in unpriced_models and left out of cost_usd with partial: true, never counted as $0. mode display uses only costs recorded in the logs; auto prefers them. totals covers every row, not just the page.",
  input,
  output: z.object({
    status: z.literal('ok'),
    ...pageShape,
    group_by: z.enum(GROUPINGS),
    mode: z.enum(COST_MODES),
    timezone: z.string(),
    since: z.string().nullable(),
    until: z.string().nullable(),
    prices_as_of: z.string(),
    price_sources: z.array(z.string()),
    totals: z.object({ ...figures, models: z.array(z.string()), undated_calls: z.number().int() }),
    rows: z.array(row),
  }),
  async handler(args, { store }) {
    // Bad arguments fail before the store is read.
    resolveRange(args.since, args.until);
    checkTimeZone(args.timezone);
    const calls = await loadUsageCalls(store, args.timezone);
    const report = buildReport(calls, {
      groupBy: args.group_by,
      since: args.since,
      until: args.until,
      project: args.project,
      format: args.format,
      breakdown: args.breakdown,
      mode: args.mode,
      startOfWeek: args.start_of_week,
      timeZone: args.timezone,
      order: args.order,
    });
    const items = report.rows.slice(args.offset, args.offset + args.limit);
    const body = {
      ...page(report.rows.length, args.limit, args.offset, items.length),
      group_by: args.group_by,
      mode: args.mode,
      timezone: args.timezone,
      since: report.since,
      until: report.until,
      prices_as_of: PRICES_AS_OF,
      price_sources: PRICE_SOURCES,
      totals: report.totals,
      rows: items,
    };
    return fitMaxBytes(body, 'rows', args.max_bytes);
  },
});
