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
