// A ledger's page read while its address is still being resolved. resolveLedger needs one read
// (a session's row and ledgers, or the roots and their ledgers), and the page needs the files it
// names: two round trips in turn on a server. A call that names the same ledger as an earlier one
// on this store (the next page, another event type) starts the page at once on the files that call
// resolved to, beside the resolution; the page is used only when the fresh resolution names the
// same files and session, else it is read again. No answer comes from the remembered files: they
// only decide what is read early. On PostgreSQL query_ledger_full's two statements then overlap
// (one step instead of two); on SQLite the same reads run in another order.

import type { LedgerEntryLine, LedgerEntryQuery, Store } from '../store/store.js';
import { resolveLedger, type LedgerAddressArgs, type LedgerSelection, type ResolveOptions } from './ledger-address.js';
import { entryQuery, readEntryLines } from './ledger-entry.js';

type Resolved = Pick<LedgerSelection, 'fileIds' | 'entrySessionId'>;

/** Addresses kept per store: enough for a few agents paging through several ledgers each. */
const MAX_ADDRESSES = 64;

/** Per store, each address's last resolution (its files and session), oldest first. */
const resolved = new WeakMap<Store, Map<string, Resolved>>();

function remember(store: Store, key: string, sel: Resolved): void {
  let byKey = resolved.get(store);
  if (!byKey) resolved.set(store, (byKey = new Map()));
  byKey.delete(key);
  byKey.set(key, { fileIds: [...sel.fileIds], entrySessionId: sel.entrySessionId });
  if (byKey.size > MAX_ADDRESSES) byKey.delete(byKey.keys().next().value!);
}

function sameQuery(a: LedgerEntryQuery, b: LedgerEntryQuery): boolean {
  return (
    a.type === b.type &&
    a.sessionId === b.sessionId &&
    a.offset === b.offset &&
    a.limit === b.limit &&
    a.fileIds.length === b.fileIds.length &&
    a.fileIds.every((id, i) => id === b.fileIds[i])
  );
}

/**
 * resolveLedger and readEntryLines of the selection, the read started beside the resolution
 * when this store resolved the same address before.
 *
 * @example
 * const { sel, total, entries } = await resolveAndReadEntryLines(store, { session_id: id, ledger: 'transcript' }, { defaultLedger: 'governance' }, { offset: 0, limit: 10 });
 */
export async function resolveAndReadEntryLines(
  store: Store,
  args: LedgerAddressArgs,
  options: ResolveOptions,
  page: { type?: string | undefined; offset: number; limit: number },
): Promise<{ sel: LedgerSelection; total: number; entries: LedgerEntryLine[] }> {
  const key = JSON.stringify([args.ledger ?? null, args.root ?? null, args.session_id ?? null, options.defaultLedger]);
  const known = resolved.get(store)?.get(key);
  const guess = known && entryQuery(known, page);
  const early = guess && readEntryLines(store, guess);
  // A failed early read is only a lost head start (and must not be an unhandled rejection when the
  // resolution throws first): the read runs again below.
  const settled = early?.then((r) => r, () => null);
  const sel = await resolveLedger(store, args, options);
  remember(store, key, sel);
  const q = entryQuery(sel, page);
  const ahead = guess && sameQuery(guess, q) ? await settled : null;
  return { sel, ...(ahead ?? (await readEntryLines(store, q))) };
}
