// `hindsight grep PATTERN`: a regex over every session's stored lines, or one ledger's when
// --ledger or --root names it.

import { ledgerFlag, limitFlag, offsetFlag, projectFlag, rootFlag, sessionFilterFlag, sourceFormatFlag } from '../cli-flags.js';
import type { CliSpec } from '../tool.js';

export const cli: CliSpec = {
  command: 'grep',
  summary:
    "Regex search over every session's stored lines (every format): session, ledger, file:line, byte offset and the text around " +
    'the match (grep_jsonl). --ledger L [--root PATH]: one ledger.',
  positionals: [{ name: 'PATTERN', arg: 'pattern', required: true, help: 'a regular expression (linear-time: no back-references)' }],
  needs: 'a PATTERN (a regular expression)',
  flags: [
    sessionFilterFlag,
    sourceFormatFlag,
    projectFlag,
    { name: 'since', type: 'string', value: 'YYYY-MM-DD', help: 'only sessions active on or after this UTC day', arg: 'since' },
    { name: 'ignore-case', short: 'i', type: 'boolean', help: 'match letters in either case', arg: 'ignore_case' },
    ledgerFlag,
    rootFlag,
    limitFlag({ default: 50 }),
    offsetFlag(),
  ],
  fixed: { max_bytes: 10_000_000 },
  // Every session of every format, unless --ledger or --root names one ledger.
  derive: (args) => ({ ...args, scope: args.ledger !== undefined || args.root !== undefined ? 'ledger' : 'all' }),
};
