// sync_status (the seed's §7): whether the sync remote is reachable, when this machine last synced,
// how many sessions wait to go up or come down, and per session its local and cloud sequences.

import { z } from 'zod';
import { SessionNotFound } from '../../core/errors.js';
import { machineIdentity, resolveRemote } from '../../sync/identity.js';
import { sessionKey } from '../../sync/sync-state.js';
import { fitMaxBytes, limitArg, maxBytesArg, offsetArg, page, pageShape } from '../envelope.js';
import { defineTool } from '../tool.js';
import { examples } from './examples.js';

const input = z
  .object({
    session_id: z.string().min(1).optional().describe('One session (a sub-agent id means its parent session); omitted: every session, conflicts first.'),
    remote: z
      .string()
      .optional()
      .describe('The sync remote, a postgres:// URL; default HINDSIGHT_REMOTE, else "remote" in $XDG_CONFIG_HOME/hindsight/config.json.'),
    limit: limitArg(50, 500),
    offset: offsetArg,
    max_bytes: maxBytesArg(100_000),
  })
  .strict();

const fileDiff = z.object({
  file: z.string(),
  local_lines: z.number().int(),
  cloud_lines: z.number().int(),
  first_differing_line: z.number().int().nullable(),
  relation: z.enum(['same', 'local_longer', 'cloud_longer', 'diverged']),
});

const row = z.object({
  session_id: z.string(),
  local_sequence: z.number().int(),
  cloud_sequence: z.number().int().nullable(),
  status: z.enum(['synced', 'ahead', 'behind', 'conflict']),
  source: z.enum(['local', 'cloud', 'both']),
  cloud_machine: z.object({ machine_id: z.string(), user: z.string(), host: z.string() }).nullable(),
  differences: z.array(fileDiff).optional(),
});

export const syncStatusTool = defineTool({
  name: 'sync_status',
  mcpSets: ['admin'],
  examples,
  // It reads this machine's identity and sync settings and connects to the remote they name.
  machineLocal: true,
  title: 'Sync status',
  description:
    'Compare this machine\'s store with the shared PostgreSQL sync remote: connected, last_sync, pending_uploads, pending_downloads, and per session local_sequence and cloud_sequence (evidence lines, every generation) with status synced, ahead (this machine has lines the remote lacks), behind (the remote has more) or conflict (two machines changed the session differently, e.g. rewound on one and appended on the other; differences lists the files, line counts and first differing line; nothing is merged). An unreachable remote is connected: false with a note, not an error. Read-only.',
  input,
  output: z.object({
    status: z.literal('ok'),
    connected: z.boolean(),
    remote: z.string().nullable(),
    machine_id: z.string(),
    last_sync: z.string().nullable(),
    pending_uploads: z.number().int(),
    pending_downloads: z.number().int().nullable(),
    note: z.string().optional(),
    ...pageShape,
    sessions: z.array(row),
  }),
  async handler(args, { store }) {
    const only = args.session_id === undefined ? undefined : sessionKey(args.session_id);
    // Loaded on first use: sync's status pulls in the pg driver, which every other tool (and the
    // CLI's start-up, which loads the registry) should not pay for.
    const { syncStatus } = await import('../../sync/status.js');
    const report = await syncStatus({ local: store, remoteUrl: resolveRemote(args.remote), identity: machineIdentity(), only });
    if (only !== undefined && report.sessions.length === 0 && report.connected) throw SessionNotFound(args.session_id!);
    const rows = report.sessions.slice(args.offset, args.offset + args.limit);
    const { sessions: _all, ...head } = report;
    return fitMaxBytes({ ...head, ...page(report.sessions.length, args.limit, args.offset, rows.length), sessions: rows }, 'sessions', args.max_bytes);
  },
});
