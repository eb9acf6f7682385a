// `hindsight sync push|pull|status`: this machine's store against the shared PostgreSQL remote.
// Progress on stderr, a summary at the end (or the JSON with --json).

import { openStore } from '../../store/open.js';
import { configFile, machineIdentity, resolveRemote, syncCacheDir } from '../../sync/identity.js';
import { SyncNoRemote } from '../../sync/errors.js';
import { pullSync } from '../../sync/pull.js';
import { pushSync, type SyncSummary } from '../../sync/push.js';
import { syncStatusTool } from '../../tools/sync-status/index.js';
import { runTool } from '../../tools/tool.js';
import { progressBar } from './progress.js';

export interface SyncCommandOptions {
  sub: string | undefined;
  sessionId?: string;
  db?: string;
  remote?: string;
  json: boolean;
}

function summaryLine(s: SyncSummary): string {
  const verb = s.direction === 'push' ? 'Pushed' : 'Pulled';
  const lines = [
    `${verb} ${s.sessions} sessions from ${s.roots} roots: ${s.files} files written, ${s.lines} new lines, ${s.events} new events, ` +
      `${(s.bytes / 1e6).toFixed(1)} MB in ${s.seconds.toFixed(2)} s (${s.remote}, machine ${s.machine_id}).`,
  ];
  if (s.held_back.length) {
    lines.push(
      `${s.held_back.length} sessions held back, because the ${s.direction === 'push' ? 'remote' : 'local store'} already holds them from another machine ` +
        `(nothing merged; see hindsight sync status): ${s.held_back.slice(0, 10).map((h) => h.session_id).join(', ')}${s.held_back.length > 10 ? ', …' : ''}`,
    );
  }
  if (s.diverged.length) lines.push(`${s.diverged.length} files hold more on the other side than here and were left alone: ${s.diverged.slice(0, 5).join(', ')}`);
  return lines.join('\n');
}

/** Run a sync subcommand; returns the exit code (2: usage, 1: an error or a remote out of reach). */
export async function syncCommand(options: SyncCommandOptions): Promise<number> {
  if (options.sub !== 'push' && options.sub !== 'pull' && options.sub !== 'status') {
    process.stderr.write('hindsight: sync needs push, pull or status: hindsight sync push|pull|status [--remote URL] [--db FILE] [--json]\n');
    return 2;
  }
  const remoteUrl = resolveRemote(options.remote);
  if (!remoteUrl && options.sub !== 'status') throw SyncNoRemote(configFile());
  const store = await openStore({ db: options.db });
  try {
    if (options.sub === 'status') {
      const result = await runTool(syncStatusTool, { remote: remoteUrl ?? undefined, session_id: options.sessionId, limit: 500 }, { store });
      if (options.json || result.status !== 'ok') {
        process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
        return result.status === 'ok' && result.connected ? 0 : 1;
      }
      const r = result as unknown as { connected: boolean; remote: string | null; last_sync: string | null; pending_uploads: number; pending_downloads: number | null; note?: string; count: number; sessions: { session_id: string; status: string; local_sequence: number; cloud_sequence: number | null; source: string }[] };
      const out = [
        `remote ${r.remote ?? '(none)'}: ${r.connected ? 'connected' : 'not connected'}; last sync ${r.last_sync ?? 'never'}; ` +
          `${r.pending_uploads} to push, ${r.pending_downloads ?? '?'} to pull`,
      ];
      for (const s of r.sessions.filter((x) => x.status !== 'synced')) {
        out.push(`  ${s.status.padEnd(8)} ${s.session_id}  local ${s.local_sequence}  cloud ${s.cloud_sequence ?? '?'}  (${s.source})`);
      }
      const synced = r.sessions.filter((x) => x.status === 'synced').length;
      out.push(`  ${synced} synced of ${r.count} sessions`);
      process.stdout.write(`${out.join('\n')}\n`);
      if (r.note) process.stderr.write(`hindsight: ${r.note}\n`);
      return r.connected ? 0 : 1;
    }
    const bar = process.stderr.isTTY && !options.json ? progressBar(process.stderr) : null;
    const sync = options.sub === 'push' ? pushSync : pullSync;
    const summary = await sync({
      local: store,
      remoteUrl: remoteUrl!,
      identity: machineIdentity(),
      cacheDir: syncCacheDir(),
      onProgress: (message, p) => {
        if (message) {
          bar?.done();
          process.stderr.write(`${message}\n`);
        } else if (p) bar?.update(p);
      },
    });
    bar?.done();
    if (options.json) process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
    else process.stderr.write(`${summaryLine(summary)}\n`);
    return 0;
  } finally {
    await store.close();
  }
}
