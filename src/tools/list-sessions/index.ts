// list_sessions: every session of every format, newest first, paginated, with the analyst's
// filters (project, date_range, format, status, model, top_level_only), and where each session's
// data lives when sync is in use (source: local | cloud | both; include_cloud).

import { z } from 'zod';
import { parseDateRange } from '../../core/date-range.js';
import { SESSION_STATUSES } from '../../core/model.js';
import { FORMATS } from '../../formats/registry.js';
import { fitMaxBytes, limitArg, maxBytesArg, offsetArg, page, pageShape, redactArg } from '../envelope.js';
import { sessionListItem, sessionListItemShape } from '../session-view.js';
import { defineTool } from '../tool.js';
import { examples } from './examples.js';
import { cli } from './cli.js';
import { http } from './http.js';
import { sourceLensOf } from '../../sync/source.js';
import { seedListFields, seedListShape } from '../../analysis/seed-fields.js';

const input = z
  .object({
    limit: limitArg(20, 500),
    offset: offsetArg,
    format: z.enum(FORMATS).optional().describe('Only sessions of this format.'),
    project: z.string().optional().describe('Only sessions of this project (slug folder name, path, or plane root).'),
    status: z.enum(SESSION_STATUSES).optional().describe('Only sessions with this status.'),
    date_range: z
      .string()
      .optional()
      .describe('Only sessions started in this UTC window: today, yesterday, last_week (7 days, today included), last_month (30 days), YYYY-MM-DD or YYYY-MM-DD:YYYY-MM-DD (both days included).'),
    model: z
      .string()
      .min(1, 'model must not be empty')
      .optional()
      .describe('Only sessions that used a model whose name contains this text, case-insensitive (e.g. "opus", "claude-sonnet-4-5").'),
    top_level_only: z
      .boolean()
      .default(true)
      .describe('Hide sub-agents, forks and sidechains (default; their tokens still count in their parents). Pass false to list them too.'),
    include_cloud: z
      .boolean()
      .optional()
      .describe('Include sessions pulled from other machines by hindsight sync pull (source "cloud"). Default: true when a sync remote is configured (HINDSIGHT_REMOTE or the config file), else false.'),
    max_bytes: maxBytesArg(100_000),
    redact: redactArg,
  })
  .strict();

export const listSessions = defineTool({
  name: 'list_sessions',
  mcpSets: ['core', 'analyst'],
  examples, cli, http,
  title: 'List sessions',
  description:
    'List ingested sessions of every format, newest first, with status, turn count, first user message, last response preview, models and token totals (children included), and the seed contract names beside them: created (= started_at), modified (ended_at, else started_at), name (= title), model (the model metadata.json names, else the first model used) and bundle (Amplifier; else null). status comes from the data alone: completed, active, errored or interrupted (Control Plane: SESSION_END → completed, else a last ho2m entry DEGRADATION → errored, else active). Filters: project, format, status, date_range (by start time, UTC days), model (substring of a model name), top_level_only (default true: sub-agents and forks are hidden, pass false to see them). Each row says source: local, cloud (pulled from another machine by hindsight sync) or both (pushed to the sync remote); include_cloud (default true when a sync remote is configured) shows or hides the cloud ones. Paginated with limit/offset; count is the total.',
  input,
  output: z.object({
    status: z.literal('ok'),
    ...pageShape,
    sessions: z.array(sessionListItemShape.extend({ ...seedListShape, source: z.enum(['local', 'cloud', 'both']) })),
  }),
  async handler(args, { store }) {
    const range = args.date_range === undefined ? undefined : parseDateRange(args.date_range);
    const query = {
      format: args.format,
      project: args.project,
      status: args.status,
      topLevelOnly: args.top_level_only,
      startedFrom: range?.from,
      startedBefore: range?.before,
      model: args.model,
      limit: args.limit,
      offset: args.offset,
    };
    // Sync's memory and the page at once: on a server, in one statement where the store can (else
    // two in parallel: neither waits for the other's round trip).
    const [syncDocument, listed] = store.listSessionsWithSyncState
      ? await store.listSessionsWithSyncState(query).then(({ syncState, ...page }) => [syncState, page] as const)
      : await Promise.all([store.syncState().read(), store.listSessions(query)]);
    const lens = sourceLensOf(syncDocument);
    const includeCloud = args.include_cloud ?? lens.remoteConfigured;
    let { total, sessions } = listed;
    if (!includeCloud && lens.pulledRoots.size > 0) {
      // Pulled copies are filtered here, so count and pages are over what remains (only when some exist).
      const all = await store.listSessions({ ...query, limit: Number.MAX_SAFE_INTEGER, offset: 0 });
      const kept = all.sessions.filter((s) => lens.sourceOf(s) !== 'cloud');
      total = kept.length;
      sessions = kept.slice(args.offset, args.offset + args.limit);
    }
    const items = sessions.map((s) => ({ ...sessionListItem(s, args.redact), ...seedListFields(s, args.redact), source: lens.sourceOf(s) }));
    return fitMaxBytes({ ...page(total, args.limit, args.offset, items.length), sessions: items }, 'sessions', args.max_bytes);
  },
});
