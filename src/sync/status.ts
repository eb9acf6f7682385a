// sync_status: per session, how this machine's copy compares with the remote's — synced, ahead,
// behind or conflict — with the counts of sessions waiting to go up or come down. Reads only.

import type { Store } from '../store/store.js';
import { HindsightError } from '../core/errors.js';
import type { MachineIdentity } from './identity.js';
import { inventory, type InvFile, type InvRoot } from './inventory.js';
import { compareCopies, type FileDiff } from './compare.js';
import { planeSequences } from './plane-sessions.js';
import { heldRows, openRemote, pushedSequences, rootMappings, type Remote, type RootMapping } from './remote.js';
import { readSyncState, syncedSets } from './sync-state.js';
import { shownLocation } from '../store/sync-remote.js';

export type SyncState = 'synced' | 'ahead' | 'behind' | 'conflict';

export interface SessionSyncRow {
  session_id: string;
  local_sequence: number;
  cloud_sequence: number | null;
  status: SyncState;
  source: 'local' | 'cloud' | 'both';
  /** The machine whose copy on the remote this one is compared with (null: none yet). */
  cloud_machine: { machine_id: string; user: string; host: string } | null;
  /** For a conflict: file by file, what differs. */
  differences?: FileDiff[];
}

export interface SyncStatusReport {
  connected: boolean;
  remote: string | null;
  machine_id: string;
  last_sync: string | null;
  pending_uploads: number;
  pending_downloads: number | null;
  note?: string;
  sessions: SessionSyncRow[];
}

/** One copy of a session in one root: its files (none for a Control Plane session) and its sequence. */
interface Copy {
  root: string;
  files: InvFile[] | null;
  sequence: number;
}

/** Session key → root → copy, for every session of the given roots (Control Plane sessions included). */
async function copiesOf(store: Store, roots: InvRoot[]): Promise<Map<string, Map<string, Copy>>> {
  const out = new Map<string, Map<string, Copy>>();
  const add = (key: string, copy: Copy) => {
    const m = out.get(key) ?? new Map<string, Copy>();
    m.set(copy.root, copy);
    out.set(key, m);
  };
  for (const r of roots) {
    const byKey = new Map<string, InvFile[]>();
    for (const f of r.files) {
      if (f.key === null) continue;
      const list = byKey.get(f.key) ?? [];
      list.push(f);
      byKey.set(f.key, list);
    }
    for (const [key, files] of byKey) add(key, { root: r.path, files, sequence: lines(files) });
  }
  for (const [root, seqs] of await planeSequences(store, roots)) for (const [key, sequence] of seqs) add(key, { root, files: null, sequence });
  return out;
}

/** The only copy of a key among `copies` (a key lives in one root of a store; the first if not). */
function single(copies: Map<string, Map<string, Copy>>, key: string): Copy | undefined {
  return copies.get(key)?.values().next().value;
}

const lines = (files: InvFile[] | undefined) => (files ?? []).reduce((n, f) => n + f.lines, 0);

function byCount(local: number, cloud: number): SyncState {
  return local === cloud ? 'synced' : local > cloud ? 'ahead' : 'behind';
}

const ORDER: Record<SyncState, number> = { conflict: 0, ahead: 1, behind: 2, synced: 3 };

/** The pending counts are the per-session statuses counted: `ahead` rows go up, `behind` rows come down. */
function counts(rows: SessionSyncRow[]): { pending_uploads: number; pending_downloads: number } {
  return { pending_uploads: rows.filter((r) => r.status === 'ahead').length, pending_downloads: rows.filter((r) => r.status === 'behind').length };
}

/**
 * Compare the local store with the remote (or, when it cannot be reached, with what this machine
 * last pushed). `only` limits the report to one session key. Every session of the local store has
 * a row (Control Plane sessions included), and so does every session `sync pull` would bring.
 */
export async function syncStatus(options: { local: Store; remoteUrl: string | null; identity: MachineIdentity; only?: string }): Promise<SyncStatusReport> {
  const me = options.identity;
  const { pulledRoots } = await syncedSets(options.local);
  const localRoots = await inventory(options.local);
  const ownRoots = localRoots.filter((r) => !pulledRoots.has(r.path));
  const own = await copiesOf(options.local, ownRoots);
  const pulled = await copiesOf(options.local, localRoots.filter((r) => pulledRoots.has(r.path)));
  const location = options.remoteUrl ? shownLocation(options.remoteUrl) : null;
  const remembered = location ? (await readSyncState(options.local)).remotes[location] : undefined;
  const lastSync = [remembered?.last_push, remembered?.last_pull].filter((x): x is string => !!x).sort().pop() ?? null;
  const keep = (k: string) => options.only === undefined || k === options.only;

  let remote: Remote | null = null;
  let note: string | undefined;
  if (!options.remoteUrl) note = 'No sync remote is configured (--remote, HINDSIGHT_REMOTE or the config file): sequences are local only.';
  else {
    try {
      remote = await openRemote(options.remoteUrl);
    } catch (err) {
      if (!(err instanceof HindsightError)) throw err;
      note = err.message;
    }
  }
  if (!remote) {
    // Offline: what this machine pushed last time is the best knowledge of the remote.
    const rows: SessionSyncRow[] = [];
    for (const key of own.keys()) {
      if (!keep(key)) continue;
      const ls = single(own, key)!.sequence;
      const cs = remembered?.pushed[key];
      rows.push({ session_id: key, local_sequence: ls, cloud_sequence: cs ?? null, status: byCount(ls, cs ?? 0), source: cs === undefined ? 'local' : 'both', cloud_machine: null });
    }
    for (const key of pulled.keys()) {
      if (!keep(key) || own.has(key)) continue;
      rows.push({ session_id: key, local_sequence: single(pulled, key)!.sequence, cloud_sequence: null, status: 'synced', source: 'cloud', cloud_machine: null });
    }
    return finish({ connected: false, remote: location, machine_id: me.machineId, last_sync: lastSync, pending_uploads: counts(rows).pending_uploads, pending_downloads: null, note, sessions: rows });
  }
  try {
    const mappings = new Map<string, RootMapping>((await rootMappings(remote)).map((m) => [m.stageRoot, m]));
    const cloud = await copiesOf(remote.store, await inventory(remote.store));
    const finished = await pushedSequences(remote, me.machineId);
    const localRootPaths = new Set(ownRoots.map((r) => r.path));
    const machineOfRoot = (root: string) => mappings.get(root)?.machineId ?? null;
    const who = (root: string) => {
      const m = mappings.get(root);
      return m ? { machine_id: m.machineId, user: m.user, host: m.host } : null;
    };
    // A root this machine pushed from another store (its real root is not in this one): pull brings it.
    const pullable = (root: string) => {
      const m = mappings.get(root);
      return m !== undefined && (m.machineId !== me.machineId || !localRootPaths.has(m.originalRoot));
    };
    const held = await heldRows(remote);
    const rows: SessionSyncRow[] = [];
    for (const key of [...new Set([...own.keys(), ...pulled.keys(), ...cloud.keys()])].sort()) {
      if (!keep(key)) continue;
      const roots = [...(cloud.get(key) ?? new Map<string, Copy>()).values()];
      const mine = roots.find((c) => machineOfRoot(c.root) === me.machineId);
      const other = roots.find((c) => machineOfRoot(c.root) !== me.machineId);
      const here = single(own, key);
      if (here) {
        const ls = here.sequence;
        if (mine) {
          // Lines a push wrote count once that push finished (its summaries committed too).
          const cs = Math.min(mine.sequence, finished.get(key) ?? 0);
          // Another machine held its own copy back because it diverges from the one this machine pushed.
          const clash = held.find((h) => h.sessionKey === key && h.holderMachineId === me.machineId && h.relation === 'diverged');
          const row: SessionSyncRow = { session_id: key, local_sequence: ls, cloud_sequence: cs, status: clash ? 'conflict' : byCount(ls, cs), source: 'both', cloud_machine: who(mine.root) };
          if (clash) {
            const h = mappings.size ? [...mappings.values()].find((m) => m.machineId === clash.machineId) : undefined;
            row.cloud_machine = h ? { machine_id: h.machineId, user: h.user, host: h.host } : { machine_id: clash.machineId, user: '', host: '' };
            // Their view, turned round: their local is the other copy here.
            row.differences = (clash.detail as FileDiff[]).map((d) => ({ ...d, local_lines: d.cloud_lines, cloud_lines: d.local_lines }));
          } else if (row.status === 'behind') {
            // The remote holds more of this machine's own copy than this store does (another store
            // of this machine pushed it): neither push nor pull reconciles that, so it is a conflict.
            row.status = 'conflict';
            if (here.files && mine.files) row.differences = (await compareCopies(options.local, here.files, remote.store, mine.files, key)).files;
          }
          rows.push(row);
        } else if (other && here.files && other.files) {
          // Held back: another machine's copy holds the id; compared, never merged.
          const cmp = await compareCopies(options.local, here.files, remote.store, other.files, key);
          const status: SyncState = cmp.relation === 'diverged' ? 'conflict' : cmp.relation === 'same' ? 'synced' : cmp.relation === 'local_longer' ? 'ahead' : 'behind';
          const row: SessionSyncRow = { session_id: key, local_sequence: ls, cloud_sequence: other.sequence, status, source: 'local', cloud_machine: who(other.root) };
          if (status === 'conflict') row.differences = cmp.files;
          rows.push(row);
        } else {
          rows.push({ session_id: key, local_sequence: ls, cloud_sequence: 0, status: 'ahead', source: 'local', cloud_machine: null });
        }
        continue;
      }
      const got = single(pulled, key);
      const copy = roots.find((c) => pullable(c.root));
      if (got) {
        const cs = copy ? copy.sequence : null;
        // A pulled copy is never pushed: it is behind the remote or level with it (null: the remote lost it).
        rows.push({ session_id: key, local_sequence: got.sequence, cloud_sequence: cs, status: cs !== null && cs > got.sequence ? 'behind' : 'synced', source: 'cloud', cloud_machine: copy ? who(copy.root) : null });
      } else if (copy) {
        rows.push({ session_id: key, local_sequence: 0, cloud_sequence: copy.sequence, status: 'behind', source: 'cloud', cloud_machine: who(copy.root) });
      }
    }
    const pending = counts(rows);
    return finish({ connected: true, remote: remote.location, machine_id: me.machineId, last_sync: lastSync, ...pending, sessions: rows });
  } catch (err) {
    if (!(err instanceof HindsightError)) throw err;
    return finish({ connected: false, remote: location, machine_id: me.machineId, last_sync: lastSync, pending_uploads: 0, pending_downloads: null, note: err.message, sessions: [] });
  } finally {
    await remote.close();
  }
}

function finish(report: SyncStatusReport): SyncStatusReport {
  report.sessions.sort((a, b) => ORDER[a.status] - ORDER[b.status] || (a.session_id < b.session_id ? -1 : a.session_id > b.session_id ? 1 : 0));
  return report;
}
