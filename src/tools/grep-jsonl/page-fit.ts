// Cutting a page of hits before the max_bytes fit: fitMaxBytes serialises the whole page first to
// see whether it fits, and a page of 500 Claude Code lines is tens of MB of JSON where the default
// cap is 50 KB. An entry's JSON holds its raw line (escaped, so at least its UTF-8 length), so once
// the raw lines of the first k entries alone pass the cap, no page of k or more entries fits: the
// entries past the k-th cannot change the answer, and serialising them is wasted.

import { Buffer } from 'node:buffer';

/**
 * The first entries up to the one whose raw line takes the running total past `maxBytes` (that
 * many cannot fit), or all of them. fitMaxBytes answers the same from either: the size of a page
 * only grows with its entries, so the largest page that fits is among the entries kept.
 */
export function enoughToFit<T extends { raw: string }>(entries: T[], maxBytes: number): T[] {
  let total = 0;
  for (let k = 0; k < entries.length; k++) {
    total += Buffer.byteLength(entries[k]!.raw);
    if (total > maxBytes) return entries.slice(0, k + 1);
  }
  return entries;
}
