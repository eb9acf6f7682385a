// Finding a literal in a block's bytes from its rarest byte. Buffer.indexOf looks for a short
// needle by running memchr for the needle's first byte and comparing the rest at each one found:
// every stop is a call into memchr again, so its cost follows how common that first byte is, not
// how common the needle is. `error` starts with the most common letter of JSONL logs (one byte in
// twelve): the search of a 59 MB ledger stopped ~5 million times and took 47 ms, where rg takes
// 14 ms for the whole `rg -n`. Searching for a part of the needle that starts at a rarer byte
// (`rror`: `r` is half as common) and comparing the bytes around it found the same places in 21 ms
// (measured 2026-11-27 on the generated Control Plane governance ledger).
//
// The part searched is kept at least MIN_PART bytes long (or the whole needle): a short part such
// as `or` also occurs outside the needle, and each such false stop costs a return to JavaScript
// (`or` took 83 ms on the same ledger); and at most MAX_PART (below).

/**
 * Bytes of JSONL agent logs from the most to the least common (counted on the generated Claude
 * Code and Control Plane corpora); a byte not listed is rarer than every listed one.
 */
const COMMON_BYTES = ' etrona"sidcluhpm:f0,-1g2bw_4.E\\y536987TkSv/RIDOxC();U}q{ABLP';

const RANK = new Uint8Array(256).fill(COMMON_BYTES.length);
for (let k = 0; k < COMMON_BYTES.length; k++) RANK[COMMON_BYTES.charCodeAt(k)] = k;

/** Shortest part searched for (unless the needle is shorter): see above. */
const MIN_PART = 4;
/**
 * Longest part searched for: Node's `indexOf` runs memchr on the first byte only for needles of up
 * to 7 bytes; a longer one soon switches to Boyer-Moore-Horspool, whose shifts are short when the
 * needle's last byte is common (the entry id `LED-484bcc27`, ending in a digit: 35 ms over the 59 MB
 * ledger, against ~3 for memchr on its `L`). The bytes after the part are compared as those before.
 */
const MAX_PART = 7;

/** Where in `needle` its searched part starts: at its rarest byte among those leaving MIN_PART bytes (the first of equals). */
export function partStart(needle: Uint8Array): number {
  const last = needle.length - Math.min(needle.length, MIN_PART);
  let best = 0;
  for (let i = 1; i <= last; i++) if (RANK[needle[i]!]! > RANK[needle[best]!]!) best = i;
  return best;
}

/**
 * A function giving the first index at or after `from` where `needle` occurs in `haystack`, or -1:
 * what `haystack.indexOf(needle, from)` gives, found from the needle's rarest byte.
 *
 * @example literalFinder(Buffer.from('an error'), Buffer.from('error'))(0) // 3
 */
export function literalFinder(haystack: Buffer, needle: Buffer): (from: number) => number {
  const head = partStart(needle);
  const end = Math.min(needle.length, head + MAX_PART);
  if (head === 0 && end === needle.length) return (from) => haystack.indexOf(needle, from);
  const part = needle.subarray(head, end);
  return (from) => {
    for (let at = haystack.indexOf(part, from + head); at !== -1; at = haystack.indexOf(part, at + 1)) {
      const start = at - head;
      if (start + needle.length > haystack.length) return -1; // no room for the rest, here or later
      let k = 0;
      while (k < head && haystack[start + k] === needle[k]) k++;
      if (k < head) continue;
      k = end;
      while (k < needle.length && haystack[start + k] === needle[k]) k++;
      if (k === needle.length) return start;
    }
    return -1;
  };
}
