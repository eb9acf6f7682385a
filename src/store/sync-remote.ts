// What sync needs of a shared store, without reaching into an engine: opening one as a sync
// remote (the Store plus sync's own tables), telling whether a URL names one, showing its location
// without secrets, and the reason behind a connection failure. Only PostgreSQL is a shared store.

import { HindsightError } from '../core/errors.js';
import { isTransient, openFailureReason, parseTarget } from './postgres/connection.js';
import { PostgresStore } from './postgres/postgres-store.js';
import { LockFailed, PostgresSyncTables } from './postgres/sync-tables.js';
import { withoutPassword } from './postgres/url.js';
import type { Store } from './store.js';

export { isSharedStoreUrl, withoutPassword } from './locations.js';
export { LockFailed };

/** A staged root on the remote: which machine pushed it, from which real root, and who that is. */
export interface RootMapping {
  stageRoot: string;
  machineId: string;
  originalRoot: string;
  format: string;
  user: string;
  host: string;
}

/** A session a machine held back from a push because another machine's copy was there first. */
export interface HeldRow {
  sessionKey: string;
  machineId: string;
  holderMachineId: string | null;
  relation: string;
  localSequence: number;
  detail: unknown;
}

/** Sync's tables in a shared store (docs/sync.md). Statements are retried as the store's are; what fails after that is thrown as it is. */
export interface SyncTables {
  /** Create the tables when missing (several machines at once are fine). */
  ensure(): Promise<void>;
  /** Record (or refresh) a machine; `what` also stamps its last push or pull. */
  registerMachine(machine: { machineId: string; user: string; host: string }, what: 'push' | 'pull' | null): Promise<void>;
  registerRoot(root: Omit<RootMapping, 'user' | 'host'>): Promise<void>;
  /** Every staged root with its machine and the person behind it, by stage root. */
  rootMappings(): Promise<RootMapping[]>;
  /** Push markers: the sequences a finished push of `machineId` left. */
  recordPushed(machineId: string, sequences: ReadonlyMap<string, number>): Promise<void>;
  pushedSequences(machineId: string): Promise<Map<string, number>>;
  /**
   * Hold the push lock of the store while `fn` runs (pushes take turns; the server frees it if
   * this process dies). Failing to take it throws LockFailed; `fn`'s own errors pass through.
   */
  withPushLock<T>(fn: () => Promise<T>, onWait?: () => void): Promise<T>;
  recordHeld(machineId: string, rows: Omit<HeldRow, 'machineId'>[]): Promise<void>;
  /** Forget a machine's held-back records except for `keep`. */
  clearHeld(machineId: string, keep: string[]): Promise<void>;
  heldRows(): Promise<HeldRow[]>;
  close(): Promise<void>;
}

/** A shared store opened for sync. */
export interface SyncRemote {
  store: Store;
  tables: SyncTables;
  /** The URL without its password. */
  location: string;
  close(): Promise<void>;
}

/**
 * The location a URL is shown as (the store's own rule: no password, the schema option kept), or
 * the URL without its password when it cannot be parsed.
 */
export function shownLocation(url: string): string {
  try {
    return parseTarget(url).location;
  } catch {
    return withoutPassword(url);
  }
}

/**
 * Why a store could not be reached, as a short reason: the inner reason of the store's own
 * open-failure sentence, or the driver's error without its stack.
 */
export function failureReason(err: unknown): string {
  if (err instanceof LockFailed) return failureReason(err.cause);
  if (err instanceof HindsightError) return err.message.replace(/^Cannot open the PostgreSQL store at \S+ \((.*?)\)\..*$/s, '$1');
  return openFailureReason(err);
}

/** A failure worth retrying (a server restarting, a dropped socket): past the retries, the store is out of reach. */
export function isTransientFailure(err: unknown): boolean {
  return isTransient(err);
}

/**
 * Open the shared store at `url` (migrated as any open) and sync's tables in it, on a pool of its
 * own named `applicationName`. Throws the store's open failures, and the driver's when the tables
 * cannot be made.
 */
export async function openSyncRemote(url: string, applicationName: string): Promise<SyncRemote> {
  const target = parseTarget(url);
  const store = await PostgresStore.open(url);
  const tables = new PostgresSyncTables(target, applicationName);
  const remote: SyncRemote = {
    store,
    tables,
    location: target.location,
    async close() {
      await tables.close();
      await store.close().catch(() => {});
    },
  };
  try {
    await tables.ensure();
  } catch (err) {
    await remote.close();
    throw err;
  }
  return remote;
}
