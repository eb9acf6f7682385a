// Finding literal markers in a stream: the earliest of several, and how much of a buffer's tail
// must be held back because it may be the start of one.

export interface MarkerHit {
  index: number;
  marker: string;
  which: number;
}

/** The earliest occurrence of any marker in `text` at or after `from` (ties: the longer marker). */
export function earliestMarker(text: string, markers: readonly string[], from = 0): MarkerHit | null {
  let best: MarkerHit | null = null;
  for (let which = 0; which < markers.length; which++) {
    const marker = markers[which]!;
    if (!marker) continue;
    const index = text.indexOf(marker, from);
    if (index < 0) continue;
    if (!best || index < best.index || (index === best.index && marker.length > best.marker.length)) best = { index, marker, which };
  }
  return best;
}

/**
 * The length of the longest tail of `text` that is a proper prefix of a marker: that tail may
 * turn into the marker with the next delta, so it is not yet certain to be plain text.
 */
export function heldTailLength(text: string, markers: readonly string[]): number {
  // Compared in place (no slices): this runs on every delta.
  let held = 0;
  for (const marker of markers) {
    const max = Math.min(marker.length - 1, text.length);
    for (let len = max; len > held; len--) {
      const start = text.length - len;
      let i = 0;
      while (i < len && text.charCodeAt(start + i) === marker.charCodeAt(i)) i++;
      if (i === len) {
        held = len;
        break;
      }
    }
  }
  return held;
}

/**
 * earliestMarker over a buffer that only grows at the end and is consumed from the front, in
 * linear time overall: where each marker was found, or up to where it is known to be absent, is
 * remembered in absolute offsets (`base` is the absolute offset of the buffer's first character),
 * so no stretch of text is searched twice for the same marker. Without this a marker that never
 * comes would be searched for over the whole rest of the output once per call.
 */
export class MarkerSearch {
  private readonly found: number[];
  private readonly freeUpTo: number[];

  constructor(private readonly markers: readonly string[]) {
    this.found = markers.map(() => -1);
    this.freeUpTo = markers.map(() => 0);
  }

  earliest(text: string, base: number): MarkerHit | null {
    let best: MarkerHit | null = null;
    for (let which = 0; which < this.markers.length; which++) {
      const marker = this.markers[which]!;
      if (!marker) continue;
      let at = this.found[which]!;
      if (at < base) {
        const index = text.indexOf(marker, Math.max(0, this.freeUpTo[which]! - base));
        if (index >= 0) {
          at = base + index;
        } else {
          at = -1;
          // A marker may still start in its last length-1 characters, completed by the next delta.
          this.freeUpTo[which] = base + Math.max(0, text.length - marker.length + 1);
        }
        this.found[which] = at;
      }
      if (at < 0) continue;
      const index = at - base;
      if (!best || index < best.index || (index === best.index && marker.length > best.marker.length)) best = { index, marker, which };
    }
    return best;
  }
}
