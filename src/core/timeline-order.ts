// The one timeline order every tool uses: time key, then ledger rank (Control Plane:
// ho2m > ho1m > governance), then tiebreak (entry id), then file, line and part.

import type { StoredEvent } from './events.js';

type Orderable = Pick<StoredEvent, 'tsKey' | 'ledgerRank' | 'tiebreak' | 'file' | 'lineNumber' | 'part'>;

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Comparator for `Array.prototype.sort`; events without a time sort first. */
export function compareTimeline(a: Orderable, b: Orderable): number {
  return (
    cmp(a.tsKey ?? '', b.tsKey ?? '') ||
    a.ledgerRank - b.ledgerRank ||
    cmp(a.tiebreak, b.tiebreak) ||
    cmp(a.file, b.file) ||
    a.lineNumber - b.lineNumber ||
    a.part - b.part
  );
}
