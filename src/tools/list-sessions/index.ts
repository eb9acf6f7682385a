// list_sessions: every session of every format, newest first, paginated.

import { z } from 'zod';
import { FORMATS, SESSION_STATUSES } from '../../core/model.js';
import { fitMaxBytes, limitArg, maxBytesArg, offsetArg, page, pageShape, redactArg } from '../envelope.js';
import { sessionListItem, sessionListItemShape } from '../session-view.js';
import { defineTool } from '../tool.js';

const input = z
  .object({
    limit: limitArg(20, 500),
    offset: offsetArg,
    format: z.enum(FORMATS).optional().describe('Only sessions of this format.'),
    project: z.string().optional().describe('Only sessions of this project (slug folder name, path, or plane root).'),
    status: z.enum(SESSION_STATUSES).optional().describe('Only sessions with this status.'),
    top_level_only: z.boolean().default(false).describe('Hide sub-agents, forks and sidechains (their tokens still count in their parents).'),
    max_bytes: maxBytesArg(100_000),
    redact: redactArg,
  })
  .strict();

export const listSessions = defineTool({
  name: 'list_sessions',
  title: 'List sessions',
  description:
    'List ingested sessions of every format (Control Plane, Claude Code, Amplifier), newest first, with status, turn count, first user message, last response preview, models and token totals (children included). status comes from the data alone: completed, active, errored or interrupted (Control Plane: SESSION_END → completed, else a last ho2m entry DEGRADATION → errored, else active). Paginated with limit/offset; count is the total.',
  input,
  output: z.object({ status: z.literal('ok'), ...pageShape, sessions: z.array(sessionListItemShape) }),
  async handler(args, { store }) {
    const { total, sessions } = await store.listSessions({
      format: args.format,
      project: args.project,
      status: args.status,
      topLevelOnly: args.top_level_only,
      limit: args.limit,
      offset: args.offset,
    });
    const items = sessions.map((s) => sessionListItem(s, args.redact));
    return fitMaxBytes({ ...page(total, args.limit, args.offset, items.length), sessions: items }, 'sessions', args.max_bytes);
  },
});
