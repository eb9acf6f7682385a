// `hindsight sync` through the built CLI and real processes: push, pull and status end to end, a push
// SIGKILLed mid-way and run again, and two machines pushing at the same moment.

import { spawn } from 'node:child_process';
import { cpSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { generateClaudeCode } from '../../bench/generators/claude-code.js';
import { BIN, FIXTURES, runCli, tempDir } from '../helpers.js';
import { TEST_PG_URL, postgresUnavailable } from '../../src/store/conformance/engines.js';
import { openStore } from '../../src/store/open.js';
import { eventCounts, machine, remoteCounts, remoteSchema, type Machine, type RemoteSchema } from '../../src/sync/test-support.js';

const unavailable = await postgresUnavailable();
const made: RemoteSchema[] = [];
function newRemote(): RemoteSchema {
  const r = remoteSchema();
  made.push(r);
  return r;
}
afterAll(async () => {
  for (const r of made) await r.drop();
});

function cli(m: Machine, args: string[]) {
  return runCli([...args, '--db', m.db], m.env);
}

function ingest(m: Machine, path: string): void {
  const r = cli(m, ['ingest', path]);
  expect(r.status, r.stderr).toBe(0);
}

function spawnPush(m: Machine, remote: string, direction: 'push' | 'pull' = 'push') {
  const child = spawn(process.execPath, [BIN, 'sync', direction, '--remote', remote, '--db', m.db, '--json'], {
    env: { ...process.env, TZ: 'UTC', ...m.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, done };
}

async function localCounts(m: Machine): Promise<Record<string, number>> {
  const store = await openStore({ db: m.db });
  try {
    return await eventCounts(store);
  } finally {
    await store.close();
  }
}

describe.skipIf(unavailable !== null)('hindsight sync (built CLI)', () => {
  it('push, pull and status between two machines', () => {
    const remote = newRemote();
    const a = machine('cli-a');
    const b = machine('cli-b');
    const cc = join(tempDir(), 'claude');
    cpSync(join(FIXTURES, 'claude-code'), cc, { recursive: true });
    ingest(a, cc);
    const push = cli(a, ['sync', 'push', '--remote', remote.url]);
    expect(push.status, push.stderr).toBe(0);
    expect(push.stderr).toMatch(/^Pushed 6 sessions from 1 roots: 8 files written, \d+ new lines/m);
    const again = JSON.parse(cli(a, ['sync', 'push', '--remote', remote.url, '--json']).stdout) as { lines: number; files: number };
    expect(again).toMatchObject({ lines: 0, files: 0 });
    // The second machine takes the remote from the environment.
    const pull = runCli(['sync', 'pull', '--db', b.db, '--json'], { ...b.env, HINDSIGHT_REMOTE: remote.url });
    expect(pull.status, pull.stderr).toBe(0);
    expect(JSON.parse(pull.stdout)).toMatchObject({ direction: 'pull', sessions: 6, machine_id: 'cli-b' });
    const list = JSON.parse(runCli(['tool', 'list_sessions', '{"limit":50}', '--db', b.db], { ...b.env, HINDSIGHT_REMOTE: remote.url }).stdout) as {
      count: number;
      sessions: { source: string }[];
    };
    expect(list.count).toBe(6);
    expect(new Set(list.sessions.map((s) => s.source))).toEqual(new Set(['cloud']));
    // Without a configured remote, pulled copies are hidden by default.
    const hidden = JSON.parse(runCli(['tool', 'list_sessions', '{"limit":50}', '--db', b.db], b.env).stdout) as { count: number };
    expect(hidden.count).toBe(0);
    const status = cli(a, ['sync', 'status', '--remote', remote.url, '--json']);
    expect(status.status, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ status: 'ok', connected: true, pending_uploads: 0, pending_downloads: 0, count: 6 });
    const text = cli(a, ['sync', 'status', '--remote', remote.url]);
    expect(text.stdout).toMatch(/connected; last sync 20\d\d-.*0 to push, 0 to pull\n {2}6 synced of 6 sessions/);
  });

  it('an unreachable remote: one sentence, exit 1; no remote at all: says how to configure one', () => {
    const a = machine('cli-down');
    const closed = cli(a, ['sync', 'push', '--remote', 'postgres://postgres@127.0.0.1:1/test']);
    expect(closed.status).toBe(1);
    expect(closed.stderr).toMatch(/^hindsight: Cannot reach the sync remote at postgres:\/\/postgres@127\.0\.0\.1:1\/test \(connection refused: no server is listening there\)\. Nothing was changed in the local store/);
    expect(closed.stderr).not.toMatch(/\n\s+at /);
    const none = cli(a, ['sync', 'pull']);
    expect(none.status).toBe(1);
    expect(none.stderr).toMatch(/No sync remote is configured\. Pass --remote/);
    const status = cli(a, ['sync', 'status', '--remote', 'postgres://postgres@127.0.0.1:1/test', '--json']);
    expect(status.status).toBe(1);
    expect(JSON.parse(status.stdout)).toMatchObject({ status: 'ok', connected: false, pending_downloads: null });
    expect(cli(a, ['sync', 'sideways']).status).toBe(2);
  });

  it('a push SIGKILLed mid-way, then run again: the remote holds every event exactly once', async () => {
    const remote = newRemote();
    const a = machine('kill9');
    const cc = join(tempDir(), 'claude');
    generateClaudeCode(cc, { targetBytes: 40e6, seed: 7 });
    ingest(a, cc);
    const { child, done } = spawnPush(a, remote.url);
    // Kill it once the remote holds some events but not all of them.
    const client = new pg.Client({ connectionString: TEST_PG_URL });
    await client.connect();
    let seen = 0;
    for (let i = 0; i < 600 && seen === 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
      try {
        seen = Number((await client.query(`SELECT count(*) AS n FROM ${remote.schema}.events`)).rows[0].n);
      } catch {
        // The schema is created by the child's first connection.
      }
    }
    child.kill('SIGKILL');
    const killed = await done;
    await client.end();
    expect(killed.signal).toBe('SIGKILL');
    const local = await localCounts(a);
    const total = Object.values(local).reduce((n, x) => n + x, 0);
    const partial = await remoteCounts(remote.url, remote.schema);
    expect(Object.values(partial.events).reduce((n, x) => n + x, 0)).toBeLessThan(total);
    const again = cli(a, ['sync', 'push', '--remote', remote.url, '--json']);
    expect(again.status, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ diverged: [], held_back: [] });
    const after = await remoteCounts(remote.url, remote.schema);
    expect(after.events).toEqual(local);
    const store = await openStore({ db: a.db });
    expect(after.lines).toBe((await store.totals()).lines);
    await store.close();
    const status = JSON.parse(cli(a, ['sync', 'status', '--remote', remote.url, '--json']).stdout) as { pending_uploads: number; sessions: { status: string }[] };
    expect(status.pending_uploads).toBe(0);
    expect(new Set(status.sessions.map((s) => s.status))).toEqual(new Set(['synced']));

    // The same on the way down: a pull SIGKILLed once the local store is being written, then run again.
    const b = machine('kill9-b');
    const pulling = spawnPush(b, remote.url, 'pull');
    for (let i = 0; i < 600; i++) {
      await new Promise((r) => setTimeout(r, 50));
      if (existsSync(`${b.db}-wal`) && statSync(`${b.db}-wal`).size > 4e6) break;
    }
    pulling.child.kill('SIGKILL');
    expect((await pulling.done).signal).toBe('SIGKILL');
    const pulled = cli(b, ['sync', 'pull', '--remote', remote.url, '--json']);
    expect(pulled.status, pulled.stderr).toBe(0);
    expect(JSON.parse(pulled.stdout)).toMatchObject({ diverged: [], held_back: [] });
    expect(await localCounts(b)).toEqual(local);
    const statusB = JSON.parse(cli(b, ['sync', 'status', '--remote', remote.url, '--json']).stdout) as { pending_downloads: number; sessions: { status: string; source: string }[] };
    expect(statusB.pending_downloads).toBe(0);
    expect(new Set(statusB.sessions.map((s) => `${s.status} ${s.source}`))).toEqual(new Set(['synced cloud']));
  }, 240_000);

  it('two machines pushing at the same moment leave a consistent remote', async () => {
    const remote = newRemote();
    const a = machine('both-a');
    const b = machine('both-b');
    const ca = join(tempDir(), 'claude');
    const cb = join(tempDir(), 'claude');
    generateClaudeCode(ca, { targetBytes: 6e6, seed: 11 });
    generateClaudeCode(cb, { targetBytes: 6e6, seed: 12 });
    ingest(a, ca);
    ingest(b, cb);
    const [ra, rb] = await Promise.all([spawnPush(a, remote.url).done, spawnPush(b, remote.url).done]);
    expect(ra.code, ra.stderr).toBe(0);
    expect(rb.code, rb.stderr).toBe(0);
    const la = await localCounts(a);
    const lb = await localCounts(b);
    expect((await remoteCounts(remote.url, remote.schema)).events).toEqual({ ...la, ...lb });
    for (const m of [a, b]) {
      const s = JSON.parse(cli(m, ['sync', 'status', '--remote', remote.url, '--json']).stdout) as { pending_uploads: number; pending_downloads: number };
      expect(s.pending_uploads).toBe(0);
      expect(s.pending_downloads).toBe(Object.keys(m === a ? lb : la).filter((k) => !k.includes(':')).length);
    }
  }, 240_000);
});
