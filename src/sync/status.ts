// sync_status: per session, how this machine's copy compares with the remote's — synced, ahead,
// behind or conflict — with the counts of sessions waiting to go up or come down. Reads only.

import { withoutPassword } from '../store/postgres/url.js';
import type { Store } from '../store/store.js';
import { HindsightError } from '../core/errors.js';
import type { MachineIdentity } from './identity.js';
import { inventory, type InvFile } from './inventory.js';
import { compareCopies, type FileDiff } from './compare.js';
import { heldRows, openRemote, rootMappings, type Remote, type RootMapping } from './remote.js';
import { readSyncState, syncedSets } from './sync-state.js';
import { parseTarget } from '../store/postgres/connection.js';

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

function group(files: InvFile[]): Map<string, InvFile[]> {
  const m = new Map<string, InvFile[]>();
  for (const f of files) {
    if (f.key === null) continue;
    const list = m.get(f.key) ?? [];
    list.push(f);
    m.set(f.key, list);
  }
  return m;
}

const lines = (files: InvFile[] | undefined) => (files ?? []).reduce((n, f) => n + f.lines, 0);

function byCount(local: number, cloud: number): SyncState {
  return local === cloud ? 'synced' : local > cloud ? 'ahead' : 'behind';
}

const ORDER: Record<SyncState, number> = { conflict: 0, ahead: 1, behind: 2, synced: 3 };

/**
 * Compare the local store with the remote (or, when it cannot be reached, with what this machine
 * last pushed). `only` limits the report to one session key.
 */
export async function syncStatus(options: { local: Store; remoteUrl: string | null; identity: MachineIdentity; only?: string }): Promise<SyncStatusReport> {
  const me = options.identity;
  const dbPath = options.local.engine === 'sqlite' ? options.local.location : null;
  const { pulledRoots } = dbPath ? syncedSets(dbPath) : { pulledRoots: new Set<string>() };
  const localRoots = await inventory(options.local);
  const own = group(localRoots.filter((r) => !pulledRoots.has(r.path)).flatMap((r) => r.files));
  const pulled = group(localRoots.filter((r) => pulledRoots.has(r.path)).flatMap((r) => r.files));
  const location = options.remoteUrl ? safeLocation(options.remoteUrl) : null;
  const remembered = dbPath && location ? readSyncState(dbPath).remotes[location] : undefined;
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
    for (const [key, files] of own) {
      if (!keep(key)) continue;
      const ls = lines(files);
      const cs = remembered?.pushed[key];
      rows.push({ session_id: key, local_sequence: ls, cloud_sequence: cs ?? null, status: byCount(ls, cs ?? 0), source: cs === undefined ? 'local' : 'both', cloud_machine: null });
    }
    for (const [key, files] of pulled) {
      if (!keep(key) || own.has(key)) continue;
      rows.push({ session_id: key, local_sequence: lines(files), cloud_sequence: null, status: 'synced', source: 'cloud', cloud_machine: null });
    }
    return finish({ connected: false, remote: location, machine_id: me.machineId, last_sync: lastSync, pending_uploads: rows.filter((r) => r.status === 'ahead').length, pending_downloads: null, note, sessions: rows });
  }
  try {
    const mappings = new Map<string, RootMapping>((await rootMappings(remote)).map((m) => [m.stageRoot, m]));
    const cloudRoots = await inventory(remote.store);
    // Key → root → files, for every copy on the remote.
    const copies = new Map<string, Map<string, InvFile[]>>();
    for (const r of cloudRoots) {
      for (const [key, files] of group(r.files)) {
        const m = copies.get(key) ?? new Map<string, InvFile[]>();
        m.set(r.path, files);
        copies.set(key, m);
      }
    }
    const machineOfRoot = (root: string) => mappings.get(root)?.machineId ?? null;
    const who = (root: string) => {
      const m = mappings.get(root);
      return m ? { machine_id: m.machineId, user: m.user, host: m.host } : null;
    };
    const held = await heldRows(remote);
    const rows: SessionSyncRow[] = [];
    let pendingDownloads = 0;
    for (const key of [...new Set([...own.keys(), ...pulled.keys(), ...copies.keys()])].sort()) {
      if (!keep(key)) continue;
      const roots = copies.get(key) ?? new Map<string, InvFile[]>();
      const mine = [...roots].find(([root]) => machineOfRoot(root) === me.machineId);
      const other = [...roots].find(([root]) => machineOfRoot(root) !== me.machineId);
      const mineFiles = own.get(key);
      if (mineFiles) {
        const ls = lines(mineFiles);
        if (mine) {
          const cs = lines(mine[1]);
          // Another machine held its own copy back because it diverges from the one this machine pushed.
          const clash = held.find((h) => h.sessionKey === key && h.holderMachineId === me.machineId && h.relation === 'diverged');
          const row: SessionSyncRow = { session_id: key, local_sequence: ls, cloud_sequence: cs, status: clash ? 'conflict' : byCount(ls, cs), source: 'both', cloud_machine: who(mine[0]) };
          if (clash) {
            const h = mappings.size ? [...mappings.values()].find((m) => m.machineId === clash.machineId) : undefined;
            row.cloud_machine = h ? { machine_id: h.machineId, user: h.user, host: h.host } : { machine_id: clash.machineId, user: '', host: '' };
            // Their view, turned round: their local is the other copy here.
            row.differences = (clash.detail as FileDiff[]).map((d) => ({ ...d, local_lines: d.cloud_lines, cloud_lines: d.local_lines }));
          }
          rows.push(row);
        } else if (other) {
          const cmp = await compareCopies(options.local, mineFiles, remote.store, other[1], key);
          const status: SyncState = cmp.relation === 'diverged' ? 'conflict' : cmp.relation === 'same' ? 'synced' : cmp.relation === 'local_longer' ? 'ahead' : 'behind';
          const row: SessionSyncRow = { session_id: key, local_sequence: ls, cloud_sequence: lines(other[1]), status, source: 'local', cloud_machine: who(other[0]) };
          if (status === 'conflict') row.differences = cmp.files;
          rows.push(row);
        } else {
          rows.push({ session_id: key, local_sequence: ls, cloud_sequence: 0, status: 'ahead', source: 'local', cloud_machine: null });
        }
        continue;
      }
      const got = pulled.get(key);
      const copy = other ?? mine;
      const cs = copy ? lines(copy[1]) : null;
      if (got) {
        const ls = lines(got);
        const status = cs === null ? 'ahead' : byCount(ls, cs);
        if (status === 'behind') pendingDownloads++;
        rows.push({ session_id: key, local_sequence: ls, cloud_sequence: cs, status, source: 'cloud', cloud_machine: copy ? who(copy[0]) : null });
      } else {
        if (other) pendingDownloads++;
        rows.push({ session_id: key, local_sequence: 0, cloud_sequence: cs, status: 'behind', source: 'cloud', cloud_machine: copy ? who(copy[0]) : null });
      }
    }
    const uploads = rows.filter((r) => r.status === 'ahead' && r.source !== 'cloud' && !(r.source === 'local' && r.cloud_machine)).length;
    return finish({ connected: true, remote: remote.location, machine_id: me.machineId, last_sync: lastSync, pending_uploads: uploads, pending_downloads: pendingDownloads, sessions: rows });
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

function safeLocation(url: string): string {
  try {
    return parseTarget(url).location;
  } catch {
    return withoutPassword(url);
  }
}
