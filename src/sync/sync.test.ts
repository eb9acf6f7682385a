// Sync against the real PostgreSQL: push mirrors the evidence exactly once, pull brings other
// machines' sessions in as `cloud`, conflicts are reported and never merged, faults leave things whole.

import { appendFileSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, fingerprint, tempDir } from '../../test/helpers.js';
import { TEST_PG_URL, postgresUnavailable } from '../store/conformance/engines.js';
import { ingestPaths } from '../ingest/ingest.js';
import { openStore } from '../store/open.js';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';
import type { Store } from '../store/store.js';
import { findTool } from '../tools/registry.js';
import { runTool } from '../tools/tool.js';
import { pullSync } from './pull.js';
import { pushSync } from './push.js';
import { syncStatus } from './status.js';
import { readSyncState, updateSyncState } from './sync-state.js';
import { eventCounts, machine, remoteCounts, remoteSchema, type RemoteSchema } from './test-support.js';

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

const DEMO = join(FIXTURES, 'claude-code', 'projects', '-path-to-Demo');
const SESSION = '5c0375b4-57a5-4f26-b12d-d022ee4e51b7';
/** Top-level sessions of the claude-code fixture and of the control-plane/normal plane root (its README). */
const CC_SESSIONS = 6;
const PLANE_SESSIONS = 12;

/** A Claude Code config folder holding one copy of the demo session. */
function oneSessionConfig(): { root: string; file: string } {
  const root = join(tempDir('hs-sync-cc-'), 'claude');
  const dir = join(root, 'projects', '-path-to-Demo');
  mkdirSync(dir, { recursive: true });
  cpSync(join(DEMO, `${SESSION}.jsonl`), join(dir, `${SESSION}.jsonl`));
  return { root, file: join(dir, `${SESSION}.jsonl`) };
}

function fixtureCopy(rel: string): string {
  const dest = join(tempDir('hs-sync-fx-'), rel.split('/').pop()!);
  cpSync(join(FIXTURES, rel), dest, { recursive: true });
  return dest;
}

async function tool(store: Store, name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  return (await runTool(findTool(name)!, args, { store })) as Record<string, unknown>;
}

/**
 * list_sessions and every session's overview, without what must differ between two stores: `source`,
 * and root paths (the remote's roots are stage folders). `also` names more paths to hide (the local
 * roots, which a Control Plane session keeps as its project on the remote too).
 */
async function views(store: Store, also: string[] = []): Promise<unknown> {
  const list = (await tool(store, 'list_sessions', { top_level_only: false, limit: 500, include_cloud: true, max_bytes: 10_000_000 })) as {
    sessions: Record<string, unknown>[];
  };
  const sessions = list.sessions.map(({ source: _s, ...rest }) => rest);
  const overviews = [];
  for (const s of sessions) overviews.push(await tool(store, 'session_overview', { session_id: s.session_id }));
  let text = JSON.stringify({ sessions, overviews });
  const paths = [...(await store.listRoots()).map((r) => r.path), ...also].sort((x, y) => y.length - x.length);
  for (const path of paths) text = text.split(JSON.stringify(path).slice(1, -1)).join('<root>');
  return JSON.parse(text);
}

describe.skipIf(unavailable !== null)('sync push and pull', () => {
  let remote: RemoteSchema;
  const a = machine('machine-a');
  const b = machine('machine-b');
  let cc: string;
  let amp: string;

  beforeAll(async () => {
    remote = newRemote();
    cc = fixtureCopy('claude-code');
    amp = fixtureCopy('amplifier/normal');
    const la = a.open();
    // A Control Plane root too: its ledgers hold many sessions per file and travel per root.
    await ingestPaths(la, [cc, fixtureCopy('control-plane/normal')]);
    await la.close();
    const lb = b.open();
    await ingestPaths(lb, [amp]);
    await lb.close();
  });

  it('pushes the evidence once: the remote answers like the local store, and a second push moves nothing', async () => {
    const local = a.open();
    const first = await pushSync(a.options(local, remote.url));
    expect(first.lines).toBeGreaterThan(1000);
    // 6 Claude Code sessions and the plane root's 12 Control Plane sessions, which travel with their root.
    expect(first.sessions).toBe(CC_SESSIONS + PLANE_SESSIONS);
    const again = await pushSync(a.options(local, remote.url));
    expect({ files: again.files, lines: again.lines, bytes: again.bytes }).toEqual({ files: 0, lines: 0, bytes: 0 });
    const cloud = await openStore({ db: remote.url });
    const localRoots = (await local.listRoots()).map((r) => r.path);
    expect(await views(cloud, localRoots)).toEqual(await views(local));
    // A Control Plane session's project is its plane root as the machine knows it, not the stage copy.
    const plane = (await local.listSessions({ format: 'control-plane', limit: 1, offset: 0 })).sessions[0]!;
    expect((await cloud.getSession(plane.id))?.project).toBe(plane.project);
    expect((await remoteCounts(remote.url, remote.schema)).events).toEqual(await eventCounts(local));
    await cloud.close();
    await local.close();
  });

  it('after an append and a local re-ingest, only the new lines move', async () => {
    const file = join(cc, 'projects', '-path-to-Demo', `${SESSION}.jsonl`);
    const extra = readFileSync(join(DEMO, '1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl'), 'utf8').split('\n').slice(0, 3).join('\n') + '\n';
    appendFileSync(file, extra);
    const local = a.open();
    await ingestPaths(local, [cc]);
    const pushed = await pushSync(a.options(local, remote.url));
    expect(pushed.lines).toBe(3);
    expect(pushed.sessions).toBe(CC_SESSIONS + PLANE_SESSIONS);
    const cloud = await openStore({ db: remote.url });
    expect(await views(cloud, (await local.listRoots()).map((r) => r.path))).toEqual(await views(local));
    await cloud.close();
    const status = await syncStatus({ local, remoteUrl: remote.url, identity: a.id });
    expect(status.connected).toBe(true);
    expect(status.pending_uploads).toBe(0);
    expect(status.sessions.map((s) => s.status)).toEqual(Array(CC_SESSIONS + PLANE_SESSIONS).fill('synced'));
    // Every session of the local store has a row, the plane root's included, with the lines that name it.
    const planeIds = (await local.listSessions({ format: 'control-plane', limit: 500, offset: 0 })).sessions.map((s) => s.id).sort();
    const planeRows = status.sessions.filter((s) => planeIds.includes(s.session_id));
    expect(planeRows.map((s) => s.session_id).sort()).toEqual(planeIds);
    for (const r of planeRows) expect(r, r.session_id).toMatchObject({ source: 'both', cloud_sequence: r.local_sequence, cloud_machine: { machine_id: 'machine-a' } });
    expect(planeRows.every((r) => r.local_sequence > 0)).toBe(true);
    await local.close();
  });

  it('a second machine pulls: the first machine\'s sessions are cloud, its own pushed ones both', async () => {
    const local = b.open();
    const pushedB = await pushSync(b.options(local, remote.url));
    expect(pushedB.diverged).toEqual([]);
    // Amplifier sessions (with their metadata.json documents) answer on the remote as they do here.
    const cloudStore = await openStore({ db: remote.url });
    const ampOnly = async (s: Store) =>
      ((await tool(s, 'list_sessions', { format: 'amplifier', top_level_only: false, limit: 500, include_cloud: true })) as { sessions: Record<string, unknown>[] }).sessions.map(
        ({ source: _s, ...rest }) => rest,
      );
    expect(await ampOnly(cloudStore)).toEqual(await ampOnly(local));
    await cloudStore.close();
    const before = await syncStatus({ local, remoteUrl: remote.url, identity: b.id });
    expect(before.pending_downloads).toBe(CC_SESSIONS + PLANE_SESSIONS);
    expect(before.sessions.filter((s) => s.status === 'behind').length).toBe(before.pending_downloads);
    const pulled = await pullSync(b.options(local, remote.url));
    expect(pulled.sessions).toBe(CC_SESSIONS + PLANE_SESSIONS);
    const again = await pullSync(b.options(local, remote.url));
    expect(again.lines).toBe(0);
    const list = (await tool(local, 'list_sessions', { limit: 500, include_cloud: true })) as { sessions: { session_id: string; source: string }[] };
    const aIds = Object.keys(await eventCounts(a.open()));
    for (const s of list.sessions) expect(s.source, s.session_id).toBe(aIds.includes(s.session_id) ? 'cloud' : 'both');
    expect(list.sessions.filter((s) => s.source === 'cloud').length).toBeGreaterThan(0);
    // get_session says the same for one session (the seed's `source`).
    for (const s of list.sessions.slice(0, 4)) expect((await tool(local, 'get_session', { session_id: s.session_id })).source, s.session_id).toBe(s.source);
    const withoutCloud = (await tool(local, 'list_sessions', { limit: 500, include_cloud: false })) as { count: number; sessions: { source: string }[] };
    expect(withoutCloud.sessions.every((s) => s.source === 'both')).toBe(true);
    expect(withoutCloud.count).toBe(list.sessions.length - list.sessions.filter((s) => s.source === 'cloud').length);
    // The pulled copies answer exactly like the machine that pushed them.
    const la = a.open();
    const countsA = await eventCounts(la);
    const countsB = await eventCounts(local);
    for (const [id, n] of Object.entries(countsA)) expect(countsB[id], id).toBe(n);
    await la.close();
    const status = await syncStatus({ local, remoteUrl: remote.url, identity: b.id });
    expect(status.pending_downloads).toBe(0);
    expect(new Set(status.sessions.map((s) => s.status))).toEqual(new Set(['synced']));
    // The remote records whose roots these are.
    const client = new pg.Client({ connectionString: TEST_PG_URL });
    await client.connect();
    const machines = await client.query(`SELECT machine_id, user_name FROM ${remote.schema}.hindsight_sync_machines ORDER BY machine_id`);
    const roots = await client.query(`SELECT machine_id, original_root FROM ${remote.schema}.hindsight_sync_roots ORDER BY machine_id`);
    await client.end();
    expect(machines.rows).toEqual([
      { machine_id: 'machine-a', user_name: 'user-machine-a' },
      { machine_id: 'machine-b', user_name: 'user-machine-b' },
    ]);
    expect(roots.rows.map((r) => r.machine_id)).toEqual(['machine-a', 'machine-a', 'machine-b']);
    expect(roots.rows.map((r) => r.original_root).sort()).toEqual([...(await a.open().listRoots()).map((r) => r.path), amp].sort());
    await local.close();
  });

  it('a pulled session that grew on its machine is behind, and the next pull brings only the new lines', async () => {
    const file = join(cc, 'projects', '-path-to-Demo', `${SESSION}.jsonl`);
    const extra = readFileSync(join(DEMO, '1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl'), 'utf8').split('\n').slice(3, 5).join('\n') + '\n';
    appendFileSync(file, extra);
    const la = a.open();
    await ingestPaths(la, [cc]);
    await pushSync(a.options(la, remote.url));
    const lb = b.open();
    const behind = await syncStatus({ local: lb, remoteUrl: remote.url, identity: b.id, only: SESSION });
    expect(behind).toMatchObject({ pending_downloads: 1, sessions: [{ session_id: SESSION, status: 'behind', source: 'cloud', cloud_machine: { machine_id: 'machine-a', user: 'user-machine-a' } }] });
    expect(behind.sessions[0]!.cloud_sequence! - behind.sessions[0]!.local_sequence).toBe(2);
    const pulled = await pullSync(b.options(lb, remote.url));
    expect(pulled.lines).toBe(2);
    const after = await syncStatus({ local: lb, remoteUrl: remote.url, identity: b.id, only: SESSION });
    expect(after.sessions[0]?.status).toBe('synced');
    expect((await eventCounts(lb))[SESSION]).toBe((await eventCounts(la))[SESSION]);
    await la.close();
    await lb.close();
  });

  it('the sync_status tool: one session, an unknown one, and an unreachable remote as connected: false', async () => {
    const local = a.open();
    process.env.HINDSIGHT_MACHINE_ID = 'machine-a';
    try {
      const one = await tool(local, 'sync_status', { session_id: `${SESSION}`, remote: remote.url });
      expect(one).toMatchObject({ status: 'ok', connected: true, machine_id: 'machine-a', pending_uploads: 0, count: 1, sessions: [{ status: 'synced', source: 'both' }] });
      const unknown = await tool(local, 'sync_status', { session_id: 'no-such-session', remote: remote.url });
      expect(unknown).toMatchObject({ status: 'error', code: 'SESSION_NOT_FOUND' });
      // A remote this machine never pushed to: everything is waiting to go up.
      const fresh = await tool(local, 'sync_status', { remote: 'postgres://postgres@127.0.0.1:1/test' });
      expect(fresh).toMatchObject({ status: 'ok', connected: false, pending_uploads: CC_SESSIONS + PLANE_SESSIONS, pending_downloads: null, note: expect.stringMatching(/^Cannot reach the sync remote/) });
      // The same remote gone away: compared with what was pushed to it last time.
      const state = await readSyncState(local);
      const remembered = state.remotes[Object.keys(state.remotes)[0]!]!;
      await updateSyncState(local, 'postgres://postgres@127.0.0.1:1/test', (r) => Object.assign(r, remembered));
      const down = await tool(local, 'sync_status', { remote: 'postgres://postgres@127.0.0.1:1/test' });
      expect(down).toMatchObject({ status: 'ok', connected: false, pending_uploads: 0, pending_downloads: null, last_sync: remembered.last_push });
      expect(new Set((down.sessions as { status: string; source: string }[]).map((s) => `${s.status} ${s.source}`))).toEqual(new Set(['synced both']));
      // Hostile remotes: never echo a password, whatever the URL looks like.
      for (const bad of ['mysql://x:secretpw@h/db', 'postgres://u:secretpw@[bad/db', 'postgres://u:secret/pw@h/db', 'postgres://u@h/db?password=secretpw']) {
        const res = await tool(local, 'sync_status', { remote: bad });
        expect(JSON.stringify(res), bad).not.toMatch(/secret/);
        expect(res.status === 'error' || res.connected === false, bad).toBe(true);
      }
    } finally {
      delete process.env.HINDSIGHT_MACHINE_ID;
    }
    await local.close();
  });
});

describe.skipIf(unavailable !== null)('sync of a rewritten source', () => {
  it('a file rewound after a push goes up as a new generation: old lines kept on both sides, synced', async () => {
    const remote = newRemote();
    const m = machine('rewrite');
    const cfg = oneSessionConfig();
    const local = m.open();
    await ingestPaths(local, [cfg.root]);
    await pushSync(m.options(local, remote.url));
    const lines = readFileSync(cfg.file, 'utf8').split('\n').filter(Boolean);
    writeFileSync(cfg.file, `${lines.slice(0, 20).join('\n')}\n`);
    await ingestPaths(local, [cfg.root]);
    const pushed = await pushSync(m.options(local, remote.url));
    expect(pushed.lines).toBe(20);
    const cloud = await openStore({ db: remote.url });
    expect(await views(cloud, (await local.listRoots()).map((r) => r.path))).toEqual(await views(local));
    const gens = async (s: Store) => (await s.sessionLedgers(SESSION)).flatMap((l) => l.files.map((f) => [f.generation, f.lines, f.superseded]));
    expect(await gens(cloud)).toEqual([
      [1, 53, true],
      [2, 20, false],
    ]);
    expect(await gens(local)).toEqual(await gens(cloud));
    await cloud.close();
    const status = await syncStatus({ local, remoteUrl: remote.url, identity: m.id });
    expect(status.sessions).toMatchObject([{ session_id: SESSION, local_sequence: 73, cloud_sequence: 73, status: 'synced' }]);
    await local.close();
  });
});

describe.skipIf(unavailable !== null)('sync conflicts', () => {
  it('a session rewound on one machine and appended on the other is a conflict on both, and nothing is merged', async () => {
    const remote = newRemote();
    const a = machine('conf-a');
    const b = machine('conf-b');
    const ca = oneSessionConfig();
    const cb = oneSessionConfig();
    const la = a.open();
    const lb = b.open();
    await ingestPaths(la, [ca.root]);
    await ingestPaths(lb, [cb.root]);
    const lines = readFileSync(ca.file, 'utf8').split('\n').filter(Boolean);
    writeFileSync(ca.file, `${lines.slice(0, 30).join('\n')}\n`); // rewound on A
    appendFileSync(cb.file, `${lines.slice(0, 2).join('\n')}\n`); // continued on B
    await ingestPaths(la, [ca.root]);
    await ingestPaths(lb, [cb.root]);
    await pushSync(a.options(la, remote.url));
    const remoteBefore = await remoteCounts(remote.url, remote.schema);
    const pb = await pushSync(b.options(lb, remote.url));
    expect(pb.held_back).toEqual([{ session_id: SESSION, machine_id: 'conf-a' }]);
    // Nothing of B's copy reached A's session on the remote.
    expect(await remoteCounts(remote.url, remote.schema)).toEqual(remoteBefore);
    const sa = await syncStatus({ local: la, remoteUrl: remote.url, identity: a.id, only: SESSION });
    const sb = await syncStatus({ local: lb, remoteUrl: remote.url, identity: b.id, only: SESSION });
    expect(sa.sessions[0]?.status).toBe('conflict');
    expect(sb.sessions[0]?.status).toBe('conflict');
    expect(sb.sessions[0]?.cloud_machine?.machine_id).toBe('conf-a');
    expect(sb.sessions[0]?.differences).toEqual([
      { file: `${SESSION}.jsonl`, local_lines: 55, cloud_lines: 30, first_differing_line: 31, relation: 'diverged' },
    ]);
    expect(sa.sessions[0]?.differences?.[0]).toMatchObject({ local_lines: 30, cloud_lines: 55 });
    // B's own copy is untouched, and pulling does not bring A's version over it.
    const pulled = await pullSync(b.options(lb, remote.url));
    expect(pulled.held_back.map((h) => h.session_id)).toEqual([SESSION]);
    expect((await eventCounts(lb))[SESSION]).toBeGreaterThan((await eventCounts(la))[SESSION]!);
    // The tool says the same.
    process.env.HINDSIGHT_MACHINE_ID = 'conf-b';
    try {
      const res = await tool(lb, 'sync_status', { session_id: SESSION, remote: remote.url });
      expect(res).toMatchObject({ status: 'ok', connected: true, sessions: [{ session_id: SESSION, status: 'conflict', local_sequence: 55 }] });
    } finally {
      delete process.env.HINDSIGHT_MACHINE_ID;
    }
    await la.close();
    await lb.close();
  });
});

describe.skipIf(unavailable !== null)('sync faults', () => {
  it('an unreachable remote is a clear error and the local store is untouched', async () => {
    const a = machine('down-a');
    const local = a.open();
    await ingestPaths(local, [fixtureCopy('claude-code')]);
    const before = fingerprint(local);
    const closed = 'postgres://postgres@127.0.0.1:1/test?schema=nowhere';
    await expect(pushSync(a.options(local, closed))).rejects.toMatchObject({
      code: 'SYNC_REMOTE_UNREACHABLE',
      message: expect.stringMatching(/^Cannot reach the sync remote at postgres:\/\/postgres@127\.0\.0\.1:1\/test\?schema=nowhere \(connection refused.*Nothing was changed in the local store/),
    });
    await expect(pullSync(a.options(local, closed))).rejects.toMatchObject({ code: 'SYNC_REMOTE_UNREACHABLE' });
    const status = await syncStatus({ local, remoteUrl: closed, identity: a.id });
    expect(status).toMatchObject({ connected: false, pending_downloads: null, pending_uploads: 6, note: expect.stringContaining('Cannot reach the sync remote') });
    expect(fingerprint(local)).toBe(before);
    await local.close();
  });

  it('connections killed by the server mid-push: a retry or a clear error, and the next push completes exactly', async () => {
    const remote = newRemote();
    const a = machine('kill-a');
    const local = a.open();
    await ingestPaths(local, [fixtureCopy('claude-code'), fixtureCopy('amplifier/normal')]);
    let killed = 0;
    const killer = new pg.Client({ connectionString: TEST_PG_URL });
    await killer.connect();
    const kill = async () => {
      const r = await killer.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name IN ($1, $2)`, [
        `hindsight pid ${process.pid}`,
        `hindsight sync pid ${process.pid}`,
      ]);
      killed += r.rowCount ?? 0;
    };
    let progressCalls = 0;
    const options = a.options(local, remote.url);
    const outcome = await pushSync({
      ...options,
      onProgress: (_m, p) => {
        // Once some bytes have gone, terminate every connection of this process (as a restart would).
        if (p && p.bytesDone > 0 && progressCalls++ === 0) void kill();
      },
    }).then(
      (s) => ({ ok: true as const, s }),
      (e: Error & { code?: string }) => ({ ok: false as const, e }),
    );
    await killer.end();
    expect(killed).toBeGreaterThan(0);
    if (!outcome.ok) {
      expect(outcome.e.code).toBe('SYNC_REMOTE_UNREACHABLE');
      expect(outcome.e.message).toMatch(/run the sync again/);
    }
    await pushSync(options);
    expect((await remoteCounts(remote.url, remote.schema)).events).toEqual(await eventCounts(local));
    const status = await syncStatus({ local, remoteUrl: remote.url, identity: a.id });
    expect(new Set(status.sessions.map((s) => s.status))).toEqual(new Set(['synced']));
    await local.close();
  });
});

// No server needed: runs even where PostgreSQL is not.
describe('sync without a remote', () => {
  it('list_sessions says local for every session and sync_status notes the missing remote', async () => {
    const a = machine('alone');
    const local = a.open();
    await ingestPaths(local, [fixtureCopy('claude-code')]);
    const list = (await tool(local, 'list_sessions', { limit: 500 })) as { sessions: { source: string }[] };
    expect(new Set(list.sessions.map((s) => s.source))).toEqual(new Set(['local']));
    const status = await syncStatus({ local, remoteUrl: null, identity: a.id });
    expect(status).toMatchObject({ connected: false, remote: null, pending_uploads: 6 });
    await local.close();
  });
});

describe.skipIf(unavailable !== null)('pending counts', () => {
  it('pending_uploads and pending_downloads are the ahead and behind rows counted, and pull brings every behind row', async () => {
    const remote = newRemote();
    const first = machine('same-host');
    const la = first.open();
    await ingestPaths(la, [fixtureCopy('claude-code'), fixtureCopy('control-plane/normal')]);
    await pushSync(first.options(la, remote.url));
    await la.close();
    // The same machine (same id and cache) with a second, empty store: everything it pushed is on
    // the remote and not here. Before, those rows said behind while pending_downloads was 0 and
    // pull (other machines only) never brought them.
    const lb = new SqliteStore(join(tempDir('hs-sync-second-'), 'store.db'));
    const agree = (r: { pending_uploads: number; pending_downloads: number | null; sessions: { status: string }[] }) => {
      expect(r.pending_uploads).toBe(r.sessions.filter((s) => s.status === 'ahead').length);
      expect(r.pending_downloads).toBe(r.sessions.filter((s) => s.status === 'behind').length);
    };
    const before = await syncStatus({ local: lb, remoteUrl: remote.url, identity: first.id });
    agree(before);
    expect(before.pending_downloads).toBe(CC_SESSIONS + PLANE_SESSIONS);
    const pulled = await pullSync({ local: lb, remoteUrl: remote.url, identity: first.id, cacheDir: first.cacheDir });
    expect(pulled.sessions).toBe(CC_SESSIONS + PLANE_SESSIONS);
    const after = await syncStatus({ local: lb, remoteUrl: remote.url, identity: first.id });
    agree(after);
    expect(after).toMatchObject({ pending_uploads: 0, pending_downloads: 0 });
    expect(new Set(after.sessions.map((s) => `${s.status} ${s.source}`))).toEqual(new Set(['synced cloud']));
    await lb.close();
  });
});
