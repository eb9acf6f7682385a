// `hindsight ledger`: ledger entries with their metadata, oldest first.

import { ledgerFlag, limitFlag, offsetFlag, rawFlag, rootFlag, sessionFilterFlag } from '../cli-flags.js';
import type { CliSpec } from '../tool.js';

export const cli: CliSpec = {
  command: 'ledger',
  summary: 'Ledger entries with their metadata, oldest first (query_ledger_full).',
  flags: [
    ledgerFlag,
    { name: 'type', type: 'string', value: 'EVENT_TYPE', help: 'only entries of this event type (e.g. TURN_RECORDED)', arg: 'event_type' },
    sessionFilterFlag,
    rootFlag,
    limitFlag({ arg: 'max_entries', default: 20 }),
    offsetFlag(),
    rawFlag,
  ],
  fixed: { max_bytes: 10_000_000 },
};
