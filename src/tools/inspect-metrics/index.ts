// inspect_metrics: the runtime document's `inspect --metrics` over every format — a recent
// sessions table, one session's per-turn timeline, or aggregate statistics over a window of days.

import { z } from 'zod';
import { keptWhileUnchanged, VersionCache } from '../../analysis/version-cache.js';
import { parseDateRange } from '../../core/date-range.js';
import { InvalidArguments } from '../../core/errors.js';
import { FORMATS } from '../../formats/registry.js';
import { COST_MODES } from '../../usage/cost.js';
import { PRICES_AS_OF } from '../../usage/pricing.js';
import { fitMaxBytes, limitArg, maxBytesArg, offsetArg, page, redactArg } from '../envelope.js';
import { resolveSession } from '../session-ref.js';
import { defineTool } from '../tool.js';
import { examples } from './examples.js';
import { cli } from './cli.js';
import { sessionMetrics } from './one-session.js';
import { recentSessions } from './recent.js';
import { aggregateStats } from './stats.js';

const VIEWS = ['recent', 'session', 'stats'] as const;
const DAY_MS = 86_400_000;

const input = z
  .object({
    view: z
      .enum(VIEWS)
      .default('recent')
      .describe('recent: a table of the newest top-level sessions; session: one session (session_id) turn by turn; stats: aggregates over `days` days.'),
    session_id: z.string().min(1, 'session_id must not be empty').optional().describe('For view session: a session id or a unique prefix of one.'),
    days: z.number().int().min(1, 'days must be from 1 to 3660').max(3660, 'days must be from 1 to 3660').default(30).describe('For view stats: how many UTC days the window spans, ending with `until`.'),
    until: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/u, 'until must be a day written YYYY-MM-DD')
      .optional()
      .describe('For view stats: the last UTC day of the window, YYYY-MM-DD (default: today).'),
    format: z.enum(FORMATS).optional().describe('recent and stats: only sessions of this format.'),
    project: z.string().optional().describe('recent and stats: only sessions of this project (slug folder name, path or plane root).'),
    cost_mode: z.enum(COST_MODES).default('calculate').describe('calculate (shipped price table), display (costs recorded in the logs only) or auto (recorded, else calculated).'),
    limit: limitArg(20, 500),
    offset: offsetArg,
    max_bytes: maxBytesArg(100_000),
    redact: redactArg,
  })
  .strict();

/**
 * The recent table and the stats per store version, shared by concurrent identical calls (the
 * page of the table is part of its key: its rows are read page by page; max_bytes is not).
 */
const recentTables = new VersionCache<Awaited<ReturnType<typeof recentSessions>>>();
const statsAnswers = new VersionCache<Awaited<ReturnType<typeof aggregateStats>>>();

export const inspectMetrics = defineTool({
  name: 'inspect_metrics',
  mcpSets: ['analyst'],
  examples, cli,
  title: 'Session metrics',
  description:
    "Metrics of agent work, as `hindsight inspect --metrics` shows them. view recent (default): the newest top-level sessions (limit, default 20), each with date, mode (ask, chat or run for a runtime session, else null), format, model (most calls), steps (LLM calls, sub-agents included), tool_calls, tool_errors, status, files_touched (distinct paths written or edited, sub-agents included) and files. view session (session_id): the session's figures (steps, tool calls, files, tokens, cost, failure_mode, sub-agents) and one row per user turn with user_ts, duration_ms, llm_calls, tool_calls, tokens and cost_usd; paged. view stats: over top-level sessions started in the `days` UTC days ending `until` (default today): sessions, completed / errored / interrupted / active, success_rate (completed of those that ended), total and average steps and tool calls, tokens and cost (each LLM call once; unpriced models listed, never $0), top_models, top_failure_modes (from each failed session's last error, or where it was interrupted).",
  input,
  output: z.object({ status: z.literal('ok'), view: z.enum(VIEWS) }).passthrough(),
  async handler(args, { store }) {
    switch (args.view) {
      case 'recent': {
        const key = JSON.stringify([args.format, args.project, args.limit, args.offset, args.redact]);
        const { total, rows } = await keptWhileUnchanged(recentTables, store, key, () => recentSessions(store, args));
        const body = { view: args.view, ...page(total, args.limit, args.offset, rows.length), sessions: rows };
        return fitMaxBytes(body, 'sessions', args.max_bytes);
      }
      case 'session': {
        if (!args.session_id) throw InvalidArguments('view session needs session_id (a session id or a unique prefix of one).');
        const session = await resolveSession(store, args.session_id);
        const m = await sessionMetrics(store, session, args.cost_mode, args.redact);
        const turns = m.turns.slice(args.offset, args.offset + args.limit);
        const body = { view: args.view, prices_as_of: PRICES_AS_OF, ...m, ...page(m.turns.length, args.limit, args.offset, turns.length), turns };
        return fitMaxBytes(body, 'turns', args.max_bytes);
      }
      case 'stats': {
        const until = args.until ?? new Date().toISOString().slice(0, 10);
        const last = Date.parse(`${until}T00:00:00Z`);
        // The pattern lets through days that do not exist (2026-13-01, 2026-02-30) and years before 1.
        if (!Number.isFinite(last) || new Date(last).toISOString().slice(0, 10) !== until || until < '0001-01-01') {
          throw InvalidArguments(`until "${until}" is not a calendar day; write it YYYY-MM-DD, e.g. 2026-11-24.`);
        }
        const from = new Date(last - (args.days - 1) * DAY_MS).toISOString().slice(0, 10);
        const window = parseDateRange(`${from}:${until}`); // validates the day (2025-02-30 is refused)
        const options = { format: args.format, project: args.project, from: window.from, before: window.before, mode: args.cost_mode };
        const stats = await keptWhileUnchanged(statsAnswers, store, JSON.stringify(options), () => aggregateStats(store, options));
        return { view: args.view, window: { from, until, days: args.days }, prices_as_of: PRICES_AS_OF, ...stats };
      }
    }
  },
});


