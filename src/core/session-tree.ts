// Sessions as a tree of parent links: summaries run children first, so a parent's summariser sees
// what its children recorded (src/core/llm-calls.ts, mirrored calls).

/**
 * Depth of each session below its top-level ancestor (0 for a session without a known parent).
 * Parent links are followed as far as they lead to known sessions; a cycle stops at the repeat.
 *
 * @example depths([{ id: 'p', parentId: null }, { id: 'p:a', parentId: 'p' }]).get('p:a') // 1
 */
export function depths(sessions: Iterable<{ id: string; parentId: string | null }>): Map<string, number> {
  const parentOf = new Map<string, string | null>();
  for (const s of sessions) parentOf.set(s.id, s.parentId);
  const out = new Map<string, number>();
  for (const id of parentOf.keys()) {
    let depth = 0;
    const seen = new Set<string>([id]);
    for (let p = parentOf.get(id); p != null && parentOf.has(p) && !seen.has(p); p = parentOf.get(p)) {
      seen.add(p);
      depth++;
    }
    out.set(id, depth);
  }
  return out;
}

/** `ids` ordered deepest first, then by id (children are summarised before their parents). */
export function childrenFirst(ids: Iterable<string>, depthOf: ReadonlyMap<string, number>): string[] {
  return [...ids].sort((a, b) => (depthOf.get(b) ?? 0) - (depthOf.get(a) ?? 0) || (a < b ? -1 : a > b ? 1 : 0));
}
