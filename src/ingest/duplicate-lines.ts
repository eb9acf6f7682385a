// Which lines of a file repeat an earlier line of the same file (generation) byte for byte.
// One window per file generation, whether the file is read in one go or in several appends: an
// incremental ingest seeds the window from the stored line hashes first (stored-prefix.ts), so
// both report the same `duplicate_line` findings.

/** Exact duplicates are looked for among this many distinct lines of a file (bounded memory). */
export const DUPLICATE_WINDOW = 200_000;

export class DuplicateWindow {
  private readonly seen: Map<string, number>;

  /** `entries`: what `entries()` of another window returned (a window handed to a parse worker). */
  constructor(entries?: Iterable<[string, number]>) {
    this.seen = new Map(entries);
  }

  /** The remembered lines as plain pairs (structured-clonable), in line order. */
  entries(): [string, number][] {
    return [...this.seen];
  }

  /**
   * Note a line's hash; returns the number of the earlier line with the same bytes, if any.
   * Only the first DUPLICATE_WINDOW distinct lines are remembered, in line order.
   */
  note(hash: Buffer, lineNumber: number): number | undefined {
    const key = hash.toString('latin1');
    const first = this.seen.get(key);
    if (first !== undefined) return first;
    if (this.seen.size < DUPLICATE_WINDOW) this.seen.set(key, lineNumber);
    return undefined;
  }
}

/** Blank lines are reported on their own and a held-back line is not final: neither is a duplicate. */
export function countsForDuplicates(status: 'ok' | 'blank' | 'bad' | 'incomplete'): boolean {
  return status === 'ok' || status === 'bad';
}
