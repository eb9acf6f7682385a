// Keeps a long ingest's V8 heap near what it really holds (issue 17: peak RSS under 300 MB
// whatever the corpus size). An ingest allocates its events, texts and rows a write group at a
// time; most of that dies once the group commits, but much of it lives across the group's awaits
// (compression, the writer) long enough to be promoted, and V8 lets its old generation grow to
// several times the live data before it collects: on a 2.4 GB Control Plane root (20,000
// sessions) the heap held 110–156 MB for 33–90 MB live, and the ingest peaked at 323–377 MB RSS.
// A process cannot lower V8's heap limits once started (they are read when the heap is set up),
// so the ingest collects itself when the heap passes a bound, checked between write groups: on
// that root ~35 full collections, a peak of 266–285 MB (four runs), for 7–10% more CPU (the same
// root without the bound: 337 MB). Corpora whose heap stays under the bound pay nothing (100 MB
// of Claude Code: same time either way). Tighter bounds cost more: 96 MB gave 263–269 MB for
// ~10% more CPU; V8's own tighter growth (--heap-growing-percent=50 at start-up) 237 MB for 13%.
//
// `gc` is exposed the way jest's leak detector gets it: the flag set at run time, the function
// taken from a new context (the main context was made before the flag).

import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** The heap (young and old generations, committed) past which an ingest collects. */
export const HEAP_BOUND_BYTES = 128 * 1024 * 1024;

let collector: (() => void) | null | undefined;

/** V8's full collection, or null where it cannot be had (then the heap is left to V8). */
function fullCollection(): (() => void) | null {
  if (collector === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      const gc: unknown = runInNewContext('gc');
      collector = typeof gc === 'function' ? (gc as () => void) : null;
    } catch {
      collector = null;
    }
  }
  return collector;
}

/**
 * A bound on the heap, checked between write groups. After a collection the bound is at least
 * twice what survived it, so a heap that really holds more (a session of huge lines) is collected
 * as V8 would, not at every check.
 */
export class HeapBound {
  private bound: number;
  /** Collections this bound has run. */
  collections = 0;

  constructor(private readonly base = HEAP_BOUND_BYTES) {
    this.bound = base;
  }

  /** The heap size the next check collects at. */
  get nextBound(): number {
    return this.bound;
  }

  /** Collect when the heap has grown past the bound; whether it did. */
  check(): boolean {
    if (getHeapStatistics().total_heap_size < this.bound) return false;
    const collect = fullCollection();
    if (collect === null) return false;
    collect();
    this.collections++;
    this.bound = Math.max(this.base, 2 * getHeapStatistics().used_heap_size);
    return true;
  }
}
