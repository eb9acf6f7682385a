// Serialised answers kept for one store version, bounded by bytes. Under 100 clients asking for
// the same large answer, what a request costs is its CPU times the queue in front of it; keeping
// the bytes (not the object) makes a repeat a lookup and a socket write instead of a tool run,
// a depth check and a JSON.stringify of tens of kilobytes.
//
// One version at a time: a store's version only moves forward (a commit from any connection), so
// the first request that reads a new version drops every entry of the old one at once — nothing
// stale is ever served, and memory held for dead versions is returned immediately rather than
// waiting for the least recently used rule to reach it.

/** An answer as it goes on the wire. */
export interface KeptBody {
  status: number;
  body: Uint8Array<ArrayBuffer>;
  /** A strong validator of `body` (quoted), or null for an answer that is not kept. */
  etag: string | null;
}

/** Total bytes kept by default (bodies and keys). */
export const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

interface Slot {
  /** Settled once computed; concurrent identical requests await the same promise. */
  value: Promise<KeptBody>;
  /** Bytes counted against the budget; 0 while in flight. */
  bytes: number;
}

export interface AnswerCacheStats {
  hits: number;
  misses: number;
  bytes: number;
  entries: number;
}

/**
 * A least-recently-used map of serialised answers for one store version at a time, holding at
 * most `maxBytes`; an answer larger than an eighth of that is served but not kept (one export
 * must not flush every overview). Concurrent calls for the same key and version share one
 * computation. Only answers with an ETag (the ones worth keeping) stay after they settle.
 *
 * @example
 * const cache = new AnswerCache(8 << 20);
 * const kept = await cache.get('session_overview|local|{"session_id":"a"}', version, () => serialise(run()));
 */
export class AnswerCache {
  private version: string | null = null;
  private readonly slots = new Map<string, Slot>();
  private bytes = 0;
  private hits = 0;
  private misses = 0;

  constructor(private readonly maxBytes = DEFAULT_MAX_BYTES) {}

  get(key: string, version: string, compute: () => Promise<KeptBody>): Promise<KeptBody> {
    if (version !== this.version) this.reset(version);
    const found = this.slots.get(key);
    if (found) {
      // Map order is recency order: re-inserting makes this the most recently used.
      this.slots.delete(key);
      this.slots.set(key, found);
      this.hits++;
      return found.value;
    }
    this.misses++;
    const slot: Slot = { value: compute(), bytes: 0 };
    if (this.maxBytes <= 0) return slot.value;
    this.slots.set(key, slot);
    slot.value.then(
      (kept) => this.settle(key, version, slot, kept),
      () => this.drop(key, slot),
    );
    return slot.value;
  }

  stats(): AnswerCacheStats {
    return { hits: this.hits, misses: this.misses, bytes: this.bytes, entries: this.slots.size };
  }

  private settle(key: string, version: string, slot: Slot, kept: KeptBody): void {
    // The version moved on while this was computed (the slot went with the reset), or a later
    // computation took the key: the answer reached its callers and is not kept.
    if (version !== this.version || this.slots.get(key) !== slot) return;
    const bytes = kept.body.byteLength + key.length * 2;
    if (kept.etag === null || bytes > this.maxBytes / 8) {
      this.slots.delete(key);
      return;
    }
    slot.bytes = bytes;
    this.bytes += bytes;
    for (const [oldest, s] of this.slots) {
      if (this.bytes <= this.maxBytes) break;
      if (s.bytes === 0) continue; // in flight: its callers still wait on it
      this.slots.delete(oldest);
      this.bytes -= s.bytes;
    }
  }

  private drop(key: string, slot: Slot): void {
    if (this.slots.get(key) !== slot) return;
    this.slots.delete(key);
    this.bytes -= slot.bytes;
  }

  private reset(version: string): void {
    this.version = version;
    this.slots.clear();
    this.bytes = 0;
  }
}
