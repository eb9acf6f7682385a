// A session's version as far as its overview is concerned: a digest of everything an ingest
// changes that the overview reads. The Store has no per-session generation to ask for, so the
// version is made of what it does show, read with a handful of indexed queries:
// - the session's row (re-summarised after every ingest that touched it: counts, tokens, status,
//   bad lines, rewrites, facts),
// - its descendants' rows (sub-agents, their tokens and costs),
// - its parent's row when the overview reads the parent's events (the spawning tool call),
// - the state of every source file holding its evidence (size, offset, lines, generation,
//   superseded): events, defects and failure texts only change when one of these files does.
// A changed file or row gives a new version, so the cache computes again; an unrelated ingest
// (another session's files) leaves the version, and the cached overview, as they were. A store
// that hashes a superset of these inputs itself (Store.sessionDataVersion: PostgreSQL, in one
// statement) is asked that instead, for an exact id (index.ts).

import { createHash } from 'node:crypto';
import { loadDescendants } from '../../analysis/descendants.js';
import type { LedgerInfo, SessionRow, Store } from '../../store/store.js';

export interface SessionVersion {
  version: string;
  /** What the version was read from, handed to the overview so a miss does not read it twice. */
  descendants: SessionRow[];
  ledgers: LedgerInfo[];
}

/** What the version reads of a session by its id alone (read before its row is known, see sessionVersion). */
export interface VersionInputs {
  id: string;
  descendants: SessionRow[];
  ledgers: LedgerInfo[];
}

/** The descendants' rows and the ledgers of the session `id`. */
export async function versionInputs(store: Store, id: string): Promise<VersionInputs> {
  const [descendants, ledgers] = await Promise.all([loadDescendants(store, id), store.sessionLedgers(id)]);
  return { id, descendants, ledgers };
}

/** Sessions whose overview names the agent type from the parent's spawning call (children.ts). */
const readsParent = (row: SessionRow) => row.parentId !== null && (row.kind === 'subagent' || row.kind === 'sidechain');

/**
 * The version of `session`'s overview on `store`, with the rows and ledgers it was read from.
 * `early`: versionInputs read while the session itself was looked up (on a server, at the same
 * time instead of one round trip after it), used when they are of this very session.
 *
 * @example
 * const { version } = await sessionVersion(store, await store.getSession(id));
 */
export async function sessionVersion(store: Store, session: SessionRow, early?: VersionInputs): Promise<SessionVersion> {
  const [{ descendants, ledgers }, parent] = await Promise.all([
    early?.id === session.id ? early : versionInputs(store, session.id),
    readsParent(session) ? store.getSession(session.parentId!) : Promise.resolve(null),
  ]);
  const hash = createHash('sha1');
  hash.update(JSON.stringify(session));
  hash.update('\u0000');
  hash.update(JSON.stringify(parent));
  for (const d of descendants) hash.update(`\u0000${JSON.stringify(d)}`);
  for (const l of ledgers) {
    hash.update(`\u0001${l.ledger}`);
    for (const f of l.files) hash.update(`\u0002${f.fileId}:${f.generation}:${f.size}:${f.offset}:${f.lines}:${f.mtimeMs}:${f.superseded ? 1 : 0}:${f.relPath}`);
  }
  return { version: hash.digest('base64url'), descendants, ledgers };
}
