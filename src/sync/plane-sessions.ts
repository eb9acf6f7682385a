// Sessions of shared ledgers for sync: a root whose ledgers hold many sessions per file (a Control
// Plane root: the format's profile says so) has files that name no session (inventory keys them
// null), so its sessions must be found through the store. Such a session's sequence is the number
// of ledger lines (entries) that name it, every generation counted: like a file's line count, it
// only grows, and it is equal on two stores exactly when both hold the same lines of it.

import { profilesOf } from '../formats/registry.js';
import type { Store } from '../store/store.js';
import type { InvRoot } from './inventory.js';
import { sessionKey } from './sync-state.js';

const PAGE = 500;

/** Root path → session key → sequence, for the roots of shared ledgers among `roots`. */
export async function planeSequences(store: Store, roots: InvRoot[]): Promise<Map<string, Map<string, number>>> {
  const profiles = await profilesOf(roots.map((r) => r.format));
  const planes = new Map(roots.filter((r) => profiles.get(r.format)!.sharedLedgers !== null).map((r) => [r.path, r]));
  const out = new Map<string, Map<string, number>>();
  if (planes.size === 0) return out;
  const sessionsOf = new Map<string, string[]>();
  for (const format of new Set([...planes.values()].map((r) => r.format))) {
    for (let offset = 0; ; offset += PAGE) {
      const { sessions } = await store.listSessions({ format, limit: PAGE, offset });
      for (const s of sessions) {
        if (s.root === null || !planes.has(s.root)) continue;
        const list = sessionsOf.get(s.root) ?? [];
        list.push(s.id);
        sessionsOf.set(s.root, list);
      }
      if (sessions.length < PAGE) break;
    }
  }
  for (const [path, ids] of sessionsOf) {
    const fileIds = planes.get(path)!.files.map((f) => f.fileId);
    const seqs = new Map<string, number>();
    for (const id of ids.sort()) {
      // limit 0: only the count (one indexed count per file).
      const { total } = await store.ledgerEntries({ fileIds, sessionId: id, offset: 0, limit: 0 });
      const key = sessionKey(id);
      seqs.set(key, (seqs.get(key) ?? 0) + total);
    }
    out.set(path, seqs);
  }
  return out;
}
