// Sync's memory lives with the store on either engine (a file beside SQLite, a table in the
// PostgreSQL schema), so list_sessions' `source` and sync_status read it the same way on both.

import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFixture } from '../../test/helpers.js';
import { ingestPaths } from '../ingest/ingest.js';
import { postgresEngine, postgresUnavailable, sqliteEngine, type Engine } from '../store/conformance/engines.js';
import type { Store } from '../store/store.js';
import { sourceLens } from './source.js';
import { syncStatus } from './status.js';
import { readSyncState, sessionKey, syncedSets, updateSyncState } from './sync-state.js';

const unavailable = await postgresUnavailable();
const OFFLINE = 'postgres://postgres@127.0.0.1:1/test';
const me = { machineId: 'machine-s', user: 'ana', host: 'box' };

describe.each(['sqlite', 'postgres'] as const)('sync state on %s', (kind) => {
  const skip = kind === 'postgres' && unavailable !== null;
  let engine: Engine;
  let store: Store;
  let root: string;

  beforeAll(async () => {
    if (skip) return;
    engine = kind === 'sqlite' ? sqliteEngine() : postgresEngine();
    store = await engine.create();
    root = copyFixture('claude-code');
    await ingestPaths(store, [root]);
  }, 60_000);

  afterAll(async () => {
    await store?.close();
    await engine?.dispose();
  });

  it.skipIf(skip)('starts empty, and keeps what is written whole', async () => {
    expect(await readSyncState(store)).toEqual({ version: 1, remotes: {} });
    expect((await syncedSets(store)).any).toBe(false);
    await updateSyncState(store, OFFLINE, (s) => {
      s.last_push = '2026-11-20T10:00:00.000Z';
      s.pulled_roots['/cache/pulled/m2/abc'] = 'm2';
    });
    await updateSyncState(store, OFFLINE, (s) => {
      s.pushed.first = 3;
    });
    expect((await readSyncState(store)).remotes[OFFLINE]).toEqual({
      last_push: '2026-11-20T10:00:00.000Z',
      last_pull: null,
      pushed: { first: 3 },
      pulled_roots: { '/cache/pulled/m2/abc': 'm2' },
    });
    // SQLite keeps the documented file beside the store; PostgreSQL keeps it in the store's schema.
    expect(existsSync(`${engine.db()}.sync.json`)).toBe(kind === 'sqlite');
    // Another handle (another process) reads the same.
    const again = await engine.reopen();
    try {
      expect(await readSyncState(again)).toEqual(await readSyncState(store));
    } finally {
      await again.close();
    }
  });

  it.skipIf(skip)('says where each session came from (source) from the state alone', async () => {
    const { sessions } = await store.listSessions({ limit: 100, offset: 0, topLevelOnly: true });
    const pushed = sessions[0]!;
    await updateSyncState(store, OFFLINE, (s) => {
      s.pushed[sessionKey(pushed.id)] = 1;
      s.pulled_roots[root] = 'm2';
    });
    const lens = await sourceLens(store, {});
    expect(lens.sourceOf(pushed)).toBe('cloud');
    await updateSyncState(store, OFFLINE, (s) => {
      delete s.pulled_roots[root];
    });
    const after = await sourceLens(store, {});
    expect(after.sourceOf(pushed)).toBe('both');
    expect(sessions.slice(1).map((s) => after.sourceOf(s))).toEqual(sessions.slice(1).map(() => 'local'));
  });

  it.skipIf(skip)('sync_status compares with what was pushed last when the remote is out of reach', async () => {
    const { sessions } = await store.listSessions({ limit: 100, offset: 0, topLevelOnly: true });
    const report = await syncStatus({ local: store, remoteUrl: OFFLINE, identity: me });
    expect(report).toMatchObject({ connected: false, remote: OFFLINE, last_sync: '2026-11-20T10:00:00.000Z', pending_downloads: null });
    expect(report.note).toMatch(/^Cannot reach the sync remote/);
    const pushed = report.sessions.find((r) => r.session_id === sessionKey(sessions[0]!.id))!;
    expect(pushed).toMatchObject({ source: 'both', cloud_sequence: 1 });
    expect(report.sessions.filter((r) => r.source === 'local').length).toBe(report.sessions.length - 1);
  });
});
