// `hindsight sync` through the built CLI and real processes: push, pull and status end to end, a push
// SIGKILLed mid-way and run again, and two machines pushing at the same moment.

import { spawn } from 'node:child_process';
import { cpSync, existsSync, readdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { generateClaudeCode } from '../../bench/generators/claude-code.js';
import { BIN, FIXTURES, runCli, tempDir } from '../helpers.js';
import { TEST_PG_URL, postgresUnavailable } from '../../src/store/conformance/engines.js';
import { openStore } from '../../src/store/open.js';
import { eventCounts, expectSameRemote, machine, remoteCounts, remoteSchema, type Machine, type RemoteSchema } from '../../src/sync/test-support.js';

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

/** Wait until an observable condition holds (the test's own timeout bounds the wait). */
async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((r) => setTimeout(r, 25));
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

  it('a push SIGKILLed at any point, then run again, leaves the remote one clean push leaves; a killed pull likewise', async () => {
    const a = machine('kill9');
    const cc = join(tempDir(), 'claude');
    generateClaudeCode(cc, { targetBytes: 12e6, seed: 7 });
    const plane = join(tempDir(), 'plane');
    cpSync(join(FIXTURES, 'control-plane', 'normal'), plane, { recursive: true });
    ingest(a, cc);
    // One root first: a later root's ingest would summarise every dirty session of the remote and
    // hide the fault, so the pinned kill must land in the last root's summaries.
    const cleanOne = newRemote();
    const first = cli(a, ['sync', 'push', '--remote', cleanOne.url]);
    expect(first.status, first.stderr).toBe(0);

    // 1. Killed after the evidence commit and before the summaries, pinned there: the test holds
    // usage_calls, which only the summary step writes, so the push stops at that step's first write.
    const pinned = newRemote();
    await (await openStore({ db: pinned.url })).close(); // the schema and its tables, to hold one of them
    const client = new pg.Client({ connectionString: TEST_PG_URL });
    await client.connect();
    const blocker = new pg.Client({ connectionString: TEST_PG_URL });
    await blocker.connect();
    await blocker.query('BEGIN');
    await blocker.query(`LOCK TABLE ${pinned.schema}.usage_calls IN ACCESS EXCLUSIVE MODE`);
    const push = spawnPush(a, pinned.url);
    await until(async () => {
      const r = await client.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'`, [`hindsight pid ${push.child.pid}`]);
      return r.rows[0].n > 0;
    });
    push.child.kill('SIGKILL');
    expect((await push.done).signal).toBe('SIGKILL');
    await blocker.query('ROLLBACK');
    await blocker.end();
    // What the review found: the evidence is there, its sessions have no summary (0 turns, 0 tokens).
    const unsummarised = (await client.query(`SELECT id FROM ${pinned.schema}.sessions WHERE dirty = 1 AND id NOT LIKE '%:%' ORDER BY id`)).rows.map((r) => r.id as string);
    expect(unsummarised.length).toBeGreaterThan(0);
    // sync_status does not call them synced: the push that wrote them did not finish.
    const midway = JSON.parse(cli(a, ['sync', 'status', '--remote', pinned.url, '--json']).stdout) as { pending_uploads: number; sessions: { session_id: string; status: string }[] };
    for (const id of unsummarised) expect(midway.sessions.find((s) => s.session_id === id)?.status, id).toBe('ahead');
    expect(midway.pending_uploads).toBe(midway.sessions.filter((s) => s.status === 'ahead').length);
    const resumed = cli(a, ['sync', 'push', '--remote', pinned.url, '--json']);
    expect(resumed.status, resumed.stderr).toBe(0);
    await expectSameRemote(pinned.schema, cleanOne.schema);

    // 2. Two roots (a Control Plane one too), killed at a fixed set of moments (as the ingest crash test does), then run again. Where
    // each kill lands varies with the machine's load; the outcome must not.
    ingest(a, plane);
    const clean = newRemote();
    const full = cli(a, ['sync', 'push', '--remote', clean.url]);
    expect(full.status, full.stderr).toBe(0);
    const timed = newRemote();
    for (const ms of [250, 700, 1300, 2100]) {
      const run = spawnPush(a, timed.url);
      const timer = setTimeout(() => run.child.kill('SIGKILL'), ms);
      await run.done;
      clearTimeout(timer);
    }
    const again = cli(a, ['sync', 'push', '--remote', timed.url, '--json']);
    expect(again.status, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ diverged: [], held_back: [] });
    await expectSameRemote(timed.schema, clean.schema);
    const status = JSON.parse(cli(a, ['sync', 'status', '--remote', timed.url, '--json']).stdout) as { pending_uploads: number; sessions: { status: string }[] };
    expect(status.pending_uploads).toBe(0);
    expect(new Set(status.sessions.map((s) => s.status))).toEqual(new Set(['synced']));

    // 3. The same on the way down: a pull pinned before its local ingest (the test holds the local
    // store's ingest lock, so the pull mirrors the remote's evidence, then waits), killed, run again.
    const b = machine('kill9-b');
    const lock = `${b.db}.ingest-lock`;
    writeFileSync(lock, String(process.pid));
    const pulling = spawnPush(b, clean.url, 'pull');
    await until(() => existsSync(b.cacheDir) && readdirSync(b.cacheDir, { recursive: true }).some((p) => String(p).endsWith('.jsonl')));
    pulling.child.kill('SIGKILL');
    expect((await pulling.done).signal).toBe('SIGKILL');
    unlinkSync(lock);
    const pulled = cli(b, ['sync', 'pull', '--remote', clean.url, '--json']);
    expect(pulled.status, pulled.stderr).toBe(0);
    expect(JSON.parse(pulled.stdout)).toMatchObject({ diverged: [], held_back: [] });
    const local = await localCounts(a);
    expect(await localCounts(b)).toEqual(local);
    const statusB = JSON.parse(cli(b, ['sync', 'status', '--remote', clean.url, '--json']).stdout) as { pending_downloads: number; sessions: { status: string; source: string }[] };
    expect(statusB.pending_downloads).toBe(0);
    expect(new Set(statusB.sessions.map((s) => `${s.status} ${s.source}`))).toEqual(new Set(['synced cloud']));
    await client.end();
  }, 300_000);

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
