// `hindsight usage [GROUP]`: the usage report with every row (the CLI pages through the tool),
// as ccusage prints it. Zones, orders and clocks are checked before the tool runs, so a mistyped
// one is a usage error (exit 2) like any bad flag; blocks without --now take the clock once here.

import { nowProblem } from '../../usage/blocks.js';
import { ORDERS } from '../../usage/aggregate.js';
import { timeZoneProblem } from '../../usage/time-zone.js';
import { limitFlag, offsetFlag, projectFlag, sourceFormatFlag, untilFlag } from '../cli-flags.js';
import type { CliSpec } from '../tool.js';

export const cli: CliSpec = {
  command: 'usage',
  summary:
    'Tokens and cost by day, week, month, session, project or 5-hour billing block; each LLM call counted once (usage_report). ' +
    'Days are cut in UTC unless --timezone names an IANA zone; --breakdown adds a row per model. blocks: ccusage\'s windows with ' +
    'gaps, burn rate and, for the block still open, a projection; --active shows only that one; --now TIME (ISO 8601) sets the clock.',
  positionals: [{ name: 'GROUP', arg: 'group_by', help: 'a row per day (default), week, month, session, project or 5-hour block' }],
  flags: [
    { name: 'since', type: 'string', value: 'YYYY-MM-DD', help: 'the first day counted', arg: 'since' },
    untilFlag,
    { name: 'breakdown', type: 'boolean', help: 'add a row per model under each row', arg: 'breakdown' },
    { name: 'mode', type: 'string', help: 'calculate (price table), display (costs in the logs) or auto', arg: 'mode' },
    projectFlag,
    sourceFormatFlag,
    {
      name: 'timezone',
      short: 'z',
      type: 'string',
      value: 'TZ',
      help: 'the IANA zone days are cut in (default UTC)',
      arg: 'timezone',
      parse: (zone, refuse) => {
        const problem = timeZoneProblem(zone);
        return problem ? refuse(`--timezone: ${problem}`) : zone;
      },
    },
    {
      name: 'order',
      type: 'string',
      help: 'oldest or newest first',
      arg: 'order',
      parse: (order, refuse) => ((ORDERS as readonly string[]).includes(order) ? order : refuse(`--order takes ${ORDERS.join(' or ')}; got "${order}"`)),
    },
    { name: 'active', type: 'boolean', help: 'blocks: only the block open now', arg: 'active' },
    { name: 'now', type: 'string', value: 'TIME', help: 'blocks: the time taken as now (ISO 8601)', arg: 'now' },
    limitFlag(),
    offsetFlag(),
  ],
  fixed: { max_bytes: 10_000_000 },
  report: () => ({ rows: 'rows' }),
  derive: (args, given, refuse) => {
    if ((given.active || given.now !== undefined) && args.group_by !== 'blocks') {
      refuse(`${given.active ? '--active' : '--now'} applies to hindsight usage blocks only`);
    }
    const nowIssue = typeof args.now === 'string' ? nowProblem(args.now) : null;
    if (nowIssue) refuse(`--now ${nowIssue}`);
    // One clock for every page the CLI asks for: the pages then agree on which block is active,
    // and the report is built once and kept for the next page instead of again on each.
    if (args.group_by === 'blocks' && args.now === undefined) return { ...args, now: new Date().toISOString() };
    return args;
  },
};
