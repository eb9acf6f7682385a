// A session's descendants as rows, in the order every view lists them (the overview's sub-agents,
// inspect_metrics' family totals).

import type { SessionRow, Store } from '../store/store.js';

/** Every session below `id` (children, their children…), earliest start first, then by id. */
export async function loadDescendants(store: Store, id: string): Promise<SessionRow[]> {
  // In one read where the store offers it (on a server, one round trip instead of two).
  const rows = store.sessionDescendantRows
    ? await store.sessionDescendantRows(id)
    : (await Promise.all((await store.sessionDescendants(id)).map((d) => store.getSession(d)))).filter((r): r is SessionRow => r !== null);
  return rows.sort(
    (a, b) =>
      (a.startedAt ?? '\uffff') < (b.startedAt ?? '\uffff') ? -1 : (a.startedAt ?? '\uffff') > (b.startedAt ?? '\uffff') ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0,
  );
}
