// sync pull: other machines' staged roots on the remote mirrored into folders of this machine's cache
// and ingested locally. A session this machine holds itself is never pulled over it (sync_status
// reports the pair); pulled sessions show as `cloud` in list_sessions.

import { join } from 'node:path';
import { inventory } from './inventory.js';
import { completeSummaries, mirrorRoot } from './mirror.js';
import { planeSequences } from './plane-sessions.js';
import { emptySummary, realDir, requireLocalFile, sha1, type SyncOptions, type SyncSummary } from './push.js';
import { asSyncError, openRemote, registerMachine, rootMappings } from './remote.js';
import { sequences } from './inventory.js';
import { syncedSets, updateSyncState } from './sync-state.js';

/** Pull other machines' sessions into the local store; idempotent and resumable. */
export async function pullSync(options: SyncOptions): Promise<SyncSummary> {
  const started = process.hrtime.bigint();
  requireLocalFile(options.local);
  const remote = await openRemote(options.remoteUrl);
  const me = options.identity;
  const summary = emptySummary('pull', remote.location, me.machineId);
  const pulledRoots = new Map<string, string>();
  let pulledKeys = 0;
  try {
    await registerMachine(remote, me, null);
    const { pulledRoots: known } = await syncedSets(options.local);
    const ownRoots = await inventory(options.local, (p) => !known.has(p));
    const ownRootPaths = new Set(ownRoots.map((r) => r.path));
    // Other machines' roots, and this machine's own roots pushed from another store (their real
    // root is not in this one): sync_status reports both as behind until they are here.
    const mappings = (await rootMappings(remote)).filter((m) => m.machineId !== me.machineId || !ownRootPaths.has(m.originalRoot));
    const machineOf = new Map(mappings.map((m) => [m.stageRoot, m.machineId]));
    const originalOf = new Map(mappings.map((m) => [m.stageRoot, m.originalRoot]));
    const ownKeys = new Set<string>();
    for (const r of ownRoots) for (const f of r.files) if (f.key !== null) ownKeys.add(f.key);
    for (const [, seqs] of await planeSequences(options.local, ownRoots)) for (const key of seqs.keys()) ownKeys.add(key);
    for (const root of await inventory(remote.store, (p) => machineOf.has(p))) {
      const machine = machineOf.get(root.path)!;
      const dir = realDir(join(options.cacheDir, 'pulled', machine, sha1(root.path)));
      const held = new Set(root.files.filter((f) => f.key !== null && ownKeys.has(f.key)).map((f) => f.key!));
      for (const key of [...held].sort()) summary.held_back.push({ session_id: key, machine_id: machine });
      const files = root.files.filter((f) => f.key === null || !held.has(f.key));
      if (files.length === 0) continue;
      // Recorded before the ingest, so that a crash leaves these sessions marked `cloud`, never `local`.
      pulledRoots.set(dir, machine);
      await updateSyncState(options.local, remote.location, (s) => {
        s.pulled_roots[dir] = machine;
      });
      options.onProgress?.(`pull ${machine}: ${root.path} (${root.format}, ${files.length} file generations)`);
      const stats = await mirrorRoot({
        source: remote.store,
        files,
        target: options.local,
        dir,
        format: root.format,
        projectRoot: originalOf.get(root.path) ?? root.path,
        onProgress: (p) => options.onProgress?.('', p),
      });
      summary.roots++;
      summary.files += stats.files;
      summary.lines += stats.lines;
      summary.events += stats.events;
      summary.bytes += stats.bytes;
      summary.diverged.push(...stats.diverged.map((p) => `${dir}/${p}`));
      const keys = new Set(sequences(files).keys());
      for (const seqs of (await planeSequences(remote.store, [{ ...root, files }])).values()) for (const key of seqs.keys()) keys.add(key);
      pulledKeys += keys.size;
    }
    // Sessions an interrupted pull committed without their summaries: a root whose files are all
    // level plans nothing, so no ingest above summarised them.
    await completeSummaries(options.local);
    await registerMachine(remote, me, 'pull');
  } catch (err) {
    throw asSyncError(remote, err);
  } finally {
    await remote.close();
  }
  summary.sessions = pulledKeys;
  await updateSyncState(options.local, summary.remote, (s) => {
    s.last_pull = new Date().toISOString();
  });
  summary.seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return summary;
}
