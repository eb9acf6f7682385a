// `hindsight inspect --metrics`: recent sessions, one session turn by turn (--session) or
// statistics (--stats), every row of the first two shown (the CLI pages through the tool).

import { limitFlag, offsetFlag, projectFlag, rawFlag, sourceFormatFlag, untilFlag } from '../cli-flags.js';
import type { CliSpec } from '../tool.js';

export const cli: CliSpec = {
  command: 'inspect',
  summary:
    'Recent sessions (date, format, model, steps, tool calls, status, files changed), one session turn by turn, or statistics ' +
    'over the last N days (success rate, averages, tokens, cost, models, failure modes).',
  flags: [
    { name: 'metrics', type: 'boolean', required: true, help: 'the metrics views (required)' },
    { name: 'session', type: 'string', value: 'ID', help: 'one session, turn by turn (id or unique prefix)', arg: 'session_id' },
    { name: 'stats', type: 'boolean', help: 'statistics over the last --days days instead of the recent sessions' },
    { name: 'days', type: 'integer', value: 'N', help: 'with --stats: how many days, ending with --until (default 30)', arg: 'days' },
    untilFlag,
    sourceFormatFlag,
    projectFlag,
    { name: 'mode', type: 'string', help: 'cost from the price table (calculate), the logs (display) or either (auto)', arg: 'cost_mode' },
    limitFlag(),
    offsetFlag(),
    rawFlag,
  ],
  fixed: { max_bytes: 10_000_000 },
  derive: (args, given, refuse) => {
    if (args.session_id !== undefined && given.stats) refuse('inspect --metrics takes --session ID or --stats, not both');
    return { ...args, view: args.session_id !== undefined ? 'session' : given.stats ? 'stats' : 'recent' };
  },
  // Every turn of a session; the recent view keeps its 20 newest unless --limit says otherwise.
  report: (args) => (args.view === 'stats' ? undefined : args.view === 'session' ? { rows: 'turns' } : { rows: 'sessions', defaultLimit: 20 }),
};
