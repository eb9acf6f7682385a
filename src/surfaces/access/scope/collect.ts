// Reading every row of a paged store call, so that a scope filters the whole set before paging
// (a page filtered after paging would come back short).

/** Rows per underlying call while collecting: large, since every call re-runs the engine's query (a search ranks all its hits again). */
export const COLLECT_PAGE = 5000;

/**
 * Every item of a paged call, in the engine's order.
 *
 * @example const all = await collectAll((offset, limit) => store.listSessions({ offset, limit }).then((r) => r.sessions));
 */
export async function collectAll<T>(fetch: (offset: number, limit: number) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let offset = 0; ; offset += COLLECT_PAGE) {
    const page = await fetch(offset, COLLECT_PAGE);
    out.push(...page);
    if (page.length < COLLECT_PAGE) return out;
  }
}

/** One page of an already filtered list, with its total. */
export function pageOf<T>(items: T[], offset: number, limit: number): { total: number; items: T[] } {
  return { total: items.length, items: items.slice(offset, offset + limit) };
}
