// Answers kept per store and key while the data they came from is unchanged: an entry holds the
// version it was computed at, so a caller that reads a newer version (an ingest committed in the
// meantime, in this process or another) computes again instead of reading a stale answer. Calls
// that ask for the same key and version while it is being computed share that one computation
// (single flight): a hundred clients asking for the largest session's overview at once cost one
// overview, not a hundred competing for the event loop.

/** Entries kept per store before the least recently used is dropped. */
export const DEFAULT_MAX_ENTRIES = 64;

interface Entry<V> {
  version: string;
  value: Promise<V>;
}

export interface VersionCacheStats {
  hits: number;
  misses: number;
}

/**
 * A bounded, single-flight cache of async answers per store object, per key, per version.
 *
 * Keyed by the store object itself (a WeakMap), so a scoped or redacting view of a store (a new
 * object for each request of a team token) never shares answers with the full store or with
 * another principal; the key must name every argument that changes the answer.
 *
 * @example
 * const cache = new VersionCache<Overview>();
 * const body = await cache.get(store, `${id}|redact=1`, version, () => computeOverview(store, id));
 */
export class VersionCache<V> {
  private readonly byStore = new WeakMap<object, Map<string, Entry<V>>>();
  readonly stats: VersionCacheStats = { hits: 0, misses: 0 };

  constructor(private readonly maxEntries = DEFAULT_MAX_ENTRIES) {}

  /** The answer for `key` at `version`: the cached one (done or in flight) or `compute()`'s. */
  get(store: object, key: string, version: string, compute: () => Promise<V>): Promise<V> {
    let entries = this.byStore.get(store);
    if (!entries) this.byStore.set(store, (entries = new Map()));
    const found = entries.get(key);
    if (found && found.version === version) {
      // Re-inserted: Map order is the recency order the eviction reads.
      entries.delete(key);
      entries.set(key, found);
      this.stats.hits++;
      return found.value;
    }
    this.stats.misses++;
    const value = compute();
    const entry: Entry<V> = { version, value };
    entries.delete(key);
    entries.set(key, entry);
    // A failure is not an answer to keep: the next call tries again (the error still reaches
    // every caller that shared this computation).
    value.catch(() => {
      if (entries.get(key) === entry) entries.delete(key);
    });
    while (entries.size > this.maxEntries) entries.delete(entries.keys().next().value!);
    return value;
  }

  /** Forget everything kept for `store` (tests; a closed store is dropped with its object anyway). */
  clear(store: object): void {
    this.byStore.delete(store);
  }
}

/**
 * `compute()`'s answer for `key`, kept in `cache` while the store's data version
 * (Store.dataVersion) stays the same: for answers read from the whole store (usage reports,
 * metrics, search). A store without a version (a wrapper, a test double) computes every time.
 *
 * @example
 * const report = await keptWhileUnchanged(reports, store, JSON.stringify(args), () => buildIt(store, args));
 */
export async function keptWhileUnchanged<V>(
  cache: VersionCache<V>,
  store: { dataVersion?(): Promise<string | null> },
  key: string,
  compute: () => Promise<V>,
): Promise<V> {
  const version = store.dataVersion ? await store.dataVersion() : null;
  return version === null ? compute() : cache.get(store, key, version, compute);
}
