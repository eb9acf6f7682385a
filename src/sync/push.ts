// sync push: this machine's roots (not the copies it pulled) mirrored into the remote, each through a
// stage folder unique to this machine and root. A session the remote already holds from another
// machine is never written into: it is held back and sync_status reports it.

import { createHash } from 'node:crypto';
import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { IngestProgress } from '../ingest/ingest.js';
import type { Store } from '../store/store.js';
import type { MachineIdentity } from './identity.js';
import { inventory, sequences, type InvFile } from './inventory.js';
import { compareCopies } from './compare.js';
import { completeSummaries, mirrorRoot } from './mirror.js';
import { planeSequences } from './plane-sessions.js';
import { asSyncError, clearHeld, openRemote, recordHeld, recordPushed, registerMachine, registerRoot, rootMappings, withPushLock, type Remote } from './remote.js';
import { SyncLocalNotFile } from './errors.js';
import { sessionKey, syncedSets, updateSyncState } from './sync-state.js';

export interface SyncOptions {
  local: Store;
  remoteUrl: string;
  identity: MachineIdentity;
  /** `$XDG_CACHE_HOME/hindsight` (identity.ts: syncCacheDir). */
  cacheDir: string;
  onProgress?: (message: string, p?: IngestProgress) => void;
}

export interface SyncSummary {
  direction: 'push' | 'pull';
  remote: string;
  machine_id: string;
  roots: number;
  sessions: number;
  files: number;
  lines: number;
  events: number;
  bytes: number;
  /** Sessions the other side already holds from another machine: kept apart, never merged. */
  held_back: { session_id: string; machine_id: string | null }[];
  /** Files whose copy on the other side has more than this side (never written over). */
  diverged: string[];
  seconds: number;
}

export function sha1(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}

export function realDir(path: string): string {
  mkdirSync(path, { recursive: true });
  return realpathSync(path);
}

/** Key → the roots that hold it, from a store's file list. */
export async function keyHolders(store: Store): Promise<Map<string, Set<string>>> {
  const m = new Map<string, Set<string>>();
  // The file list alone says which root holds which session (no per-root ledger reads).
  for (let offset = 0; ; offset += 5000) {
    const { files } = await store.listFiles({ limit: 5000, offset });
    for (const f of files) {
      if (f.sessionId === null) continue;
      const key = sessionKey(f.sessionId);
      const set = m.get(key) ?? new Set<string>();
      set.add(f.root);
      m.set(key, set);
    }
    if (files.length < 5000) break;
  }
  return m;
}

export function emptySummary(direction: 'push' | 'pull', remote: string, machineId: string): SyncSummary {
  return { direction, remote, machine_id: machineId, roots: 0, sessions: 0, files: 0, lines: 0, events: 0, bytes: 0, held_back: [], diverged: [], seconds: 0 };
}

/** Push and pull write into a local SQLite store (the PostgreSQL store is the remote, docs/sync.md). */
export function requireLocalFile(local: Store): void {
  if (local.engine !== 'sqlite') throw SyncLocalNotFile(local.location);
}

/** Push this machine's sessions with their evidence; idempotent, and resumable after any interruption. */
export async function pushSync(options: SyncOptions): Promise<SyncSummary> {
  const started = process.hrtime.bigint();
  requireLocalFile(options.local);
  const remote = await openRemote(options.remoteUrl);
  const me = options.identity;
  const summary = emptySummary('push', remote.location, me.machineId);
  try {
    await registerMachine(remote, me, null);
    await withPushLock(
      remote,
      () => pushRoots(remote, options, summary),
      () => options.onProgress?.('waiting for another machine\'s push to the same remote to finish…'),
    );
    await registerMachine(remote, me, 'push');
  } catch (err) {
    throw asSyncError(remote, err);
  } finally {
    await remote.close();
  }
  summary.seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return summary;
}

async function pushRoots(remote: Remote, options: SyncOptions, summary: SyncSummary): Promise<void> {
  const me = options.identity;
  // First finish what an interrupted push left: sessions whose evidence committed without their
  // summaries (the plan below would find nothing to write for them, so no ingest would).
  await completeSummaries(remote.store);
  const { pulledRoots } = await syncedSets(options.local);
  const roots = await inventory(options.local, (p) => !pulledRoots.has(p));
  const holders = await keyHolders(remote.store);
  const machineOf = new Map((await rootMappings(remote)).map((m) => [m.stageRoot, m.machineId]));
  /** Stage root → the session keys pushed from it. */
  const pushedKeys = new Map<string, Set<string>>();
  const heldFiles = new Map<string, { files: InvFile[]; holder: string }>();
  for (const root of roots) {
    const dir = realDir(join(options.cacheDir, 'stage', me.machineId, sha1(root.path)));
    const held = new Map<string, string | null>();
    for (const f of root.files) {
      if (f.key === null || held.has(f.key)) continue;
      const other = [...(holders.get(f.key) ?? [])].find((p) => p !== dir);
      if (other !== undefined) held.set(f.key, machineOf.get(other) ?? null);
    }
    for (const [key, machine] of held) {
      summary.held_back.push({ session_id: key, machine_id: machine });
      const holder = [...(holders.get(key) ?? [])].find((p) => p !== dir)!;
      heldFiles.set(key, { files: root.files.filter((f) => f.key === key), holder });
    }
    const files = root.files.filter((f) => f.key === null || !held.has(f.key));
    if (files.length === 0) continue;
    // The mapping first: a crash mid-root still leaves the remote able to say whose root this is.
    await registerRoot(remote, me, dir, root.path, root.format);
    options.onProgress?.(`push ${root.path} (${root.format}, ${files.length} file generations)`);
    const stats = await mirrorRoot({
      source: options.local,
      files,
      target: remote.store,
      dir,
      format: root.format,
      projectRoot: root.path,
      onProgress: (p) => options.onProgress?.('', p),
    });
    summary.roots++;
    summary.files += stats.files;
    summary.lines += stats.lines;
    summary.events += stats.events;
    summary.bytes += stats.bytes;
    summary.diverged.push(...stats.diverged.map((p) => `${root.path}/${p}`));
    const keys = new Set(files.flatMap((f) => (f.key === null ? [] : [f.key])));
    // A Control Plane root's sessions live inside its shared ledgers: they travel with the root.
    for (const seqs of (await planeSequences(options.local, [{ ...root, files }])).values()) for (const key of seqs.keys()) keys.add(key);
    pushedKeys.set(dir, keys);
  }
  // Every session of the pushed roots is now complete on the remote (evidence and summaries): mark
  // it so, at the sequence the remote holds. A push killed before this point leaves the marks behind
  // the lines, which is how sync_status and the next push know it did not finish.
  const pushed = await remoteSequences(remote.store, pushedKeys);
  await recordPushed(remote, me, pushed);
  summary.sessions = pushed.size;
  if (heldFiles.size) await recordHeldBack(remote, options, heldFiles, machineOf);
  // A session no longer held back (its copy here was deleted or now matches) stops being reported.
  await clearHeld(remote, me, [...heldFiles.keys()]);
  await updateSyncState(options.local, remote.location, (s) => {
    s.last_push = new Date().toISOString();
    for (const [key, seq] of pushed) s.pushed[key] = seq;
  });
}

/** The sequence the remote holds of each pushed session, read from the stage roots it was pushed into. */
async function remoteSequences(store: Store, pushedKeys: Map<string, Set<string>>): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (pushedKeys.size === 0) return out;
  const roots = await inventory(store, (p) => pushedKeys.has(p));
  const planes = await planeSequences(store, roots);
  for (const root of roots) {
    const keys = pushedKeys.get(root.path)!;
    const seqs = new Map([...sequences(root.files), ...(planes.get(root.path) ?? [])]);
    for (const key of keys) out.set(key, seqs.get(key) ?? 0);
  }
  return out;
}

/** Compare each held-back session with the copy the remote holds and record the outcome there. */
async function recordHeldBack(
  remote: Remote,
  options: SyncOptions,
  held: Map<string, { files: InvFile[]; holder: string }>,
  machineOf: Map<string, string>,
): Promise<void> {
  const holderRoots = new Set([...held.values()].map((h) => h.holder));
  const remoteFiles = new Map<string, InvFile[]>();
  for (const r of await inventory(remote.store, (p) => holderRoots.has(p))) remoteFiles.set(r.path, r.files);
  const rows = [];
  for (const [key, h] of [...held].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const theirs = (remoteFiles.get(h.holder) ?? []).filter((f) => f.key === key);
    const cmp = await compareCopies(options.local, h.files, remote.store, theirs, key);
    rows.push({
      sessionKey: key,
      holderMachineId: machineOf.get(h.holder) ?? null,
      relation: cmp.relation,
      localSequence: h.files.reduce((n, f) => n + f.lines, 0),
      detail: cmp.files,
    });
  }
  await recordHeld(remote, options.identity, rows);
}
