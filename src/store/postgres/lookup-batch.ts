// Lookups by key that arrive together share one statement. A tool reading a session's family asks
// for each descendant's row at once (Promise.all): SQLite answers each from memory, but on a server
// each is a round trip, and more of them than the pool has connections queue behind one another.
// Every lookup made before the next microtask joins the same batch.

/**
 * `load(key)` resolves to `fetch`'s value for that key (or null), with the keys asked for in the
 * same turn fetched together.
 *
 * @example const rows = batchedLookup((ids) => readRows(ids)); const [a, b] = await Promise.all([rows('x'), rows('y')]);
 */
export function batchedLookup<V>(fetch: (keys: string[]) => Promise<Map<string, V>>): (key: string) => Promise<V | null> {
  let pending: Map<string, { resolve: (v: V | null) => void; reject: (e: unknown) => void }[]> | null = null;
  const flush = async (batch: NonNullable<typeof pending>) => {
    try {
      const found = await fetch([...batch.keys()]);
      for (const [key, waiters] of batch) for (const w of waiters) w.resolve(found.get(key) ?? null);
    } catch (err) {
      for (const waiters of batch.values()) for (const w of waiters) w.reject(err);
    }
  };
  return (key) =>
    new Promise<V | null>((resolve, reject) => {
      if (!pending) {
        const batch = new Map<string, { resolve: (v: V | null) => void; reject: (e: unknown) => void }[]>();
        pending = batch;
        queueMicrotask(() => {
          pending = null;
          void flush(batch);
        });
      }
      const waiters = pending.get(key);
      if (waiters) waiters.push({ resolve, reject });
      else pending.set(key, [{ resolve, reject }]);
    });
}
