// The token table on both engines, and the access decision over it: tokens are stored as hashes,
// listed without secrets, refused the moment they are revoked, and a store that ever had a token
// never serves without one again.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { postgresEngine, postgresUnavailable, sqliteEngine, type Engine } from '../../../store/conformance/engines.js';
import { PostgresStore } from '../../../store/postgres/postgres-store.js';
import { SqliteStore } from '../../../store/sqlite/sqlite-store.js';
import type { Store } from '../../../store/store.js';
import { createAuthorizer } from '../authorize.js';
import { tokenHash } from '../bearer.js';
import { tokenStoreFor } from './open-tokens.js';
import type { TokenStore } from './token-store.js';

const unavailable = await postgresUnavailable();

/** Every row of the token table, read behind the TokenStore's back. */
async function rawRows(store: Store): Promise<Record<string, unknown>[]> {
  if (store instanceof SqliteStore) return store.db.prepare('SELECT * FROM access_tokens').all() as Record<string, unknown>[];
  if (store instanceof PostgresStore) return (await store.pool.query('SELECT * FROM access_tokens')).rows as Record<string, unknown>[];
  throw new Error('unknown engine');
}

describe.each(['sqlite', 'postgres'] as const)('tokens on %s', (kind) => {
  const skip = kind === 'postgres' && unavailable !== null;
  let engine: Engine;
  let store: Store;
  let tokens: TokenStore;

  beforeAll(async () => {
    if (skip) return;
    engine = kind === 'sqlite' ? sqliteEngine() : postgresEngine();
    store = await engine.create();
    tokens = tokenStoreFor(store);
  });
  afterAll(async () => {
    await store?.close();
    await engine?.dispose();
  });

  it.skipIf(skip)('a store without tokens is open and unchanged', async () => {
    expect(await tokens.anyTokens()).toBe(false);
    expect(await tokens.list()).toEqual([]);
    expect(await tokens.revoke('tk_nope')).toBeNull();
    expect(await createAuthorizer({ tokens })(undefined)).toEqual({ ok: true, principal: { kind: 'local' } });
  });

  it.skipIf(skip)('creates tokens stored only as hashes, and looks them up by hash', async () => {
    const { token, record } = await tokens.create({ user: 'ana', projects: ['-home-ana-app', '/srv/plane'], readOnly: true }, new Date('2026-11-24T07:00:00Z'));
    expect(token).toMatch(/^hst_tk_[0-9a-f]{10}_[A-Za-z0-9_-]{43}$/);
    expect(token.startsWith(`hst_${record.id}_`)).toBe(true);
    expect(record).toEqual({
      id: record.id,
      user: 'ana',
      projects: ['-home-ana-app', '/srv/plane'],
      readOnly: true,
      createdAt: '2026-11-24T07:00:00.000Z',
      revokedAt: null,
      lastUsedAt: null,
    });
    const rows = await rawRows(store);
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token.slice(-43));
    expect(rows[0]!.token_hash).toBe(tokenHash(token));
    expect(await tokens.findActive(tokenHash(token))).toEqual(record);
    expect(await tokens.findActive(tokenHash(`${token}x`))).toBeNull();
    const second = await tokens.create({ user: 'bob', projects: ['p'], readOnly: false }, new Date('2026-11-24T07:00:01Z'));
    expect(second.token).not.toBe(token);
    expect((await tokens.list()).map((t) => t.user)).toEqual(['ana', 'bob']);
  });

  it.skipIf(skip)('gives principals: admin, team (scoped, read-only or not), refused', async () => {
    const { token, record } = await tokens.create({ user: 'cy', projects: ['-a'], readOnly: false });
    const authorize = createAuthorizer({ token: 'admin-secret', tokens });
    expect(await authorize('Bearer admin-secret')).toEqual({ ok: true, principal: { kind: 'admin' } });
    expect(await authorize(`Bearer ${token}`)).toEqual({
      ok: true,
      principal: { kind: 'team', tokenId: record.id, user: 'cy', projects: ['-a'], readOnly: false },
    });
    const missing = await authorize(undefined);
    expect(missing).toMatchObject({ ok: false, status: 401 });
    expect(!missing.ok && missing.message).toMatch(/needs a token.*Authorization: Bearer/);
    const wrong = await authorize('Bearer hst_tk_0000000000_nope');
    expect(!wrong.ok && wrong.message).toMatch(/not the one.*revoked/);
    // A use is recorded.
    expect((await tokens.list()).find((t) => t.id === record.id)!.lastUsedAt).not.toBeNull();
  });

  it.skipIf(skip)('refuses a revoked token at once, and stays closed with every token revoked', async () => {
    const authorize = createAuthorizer({ tokens });
    const { token, record } = await tokens.create({ user: 'dee', projects: ['-d'], readOnly: true });
    expect(await authorize(`Bearer ${token}`)).toMatchObject({ ok: true });
    const revoked = await tokens.revoke(record.id, new Date('2026-11-24T08:00:00Z'));
    expect(revoked).toMatchObject({ id: record.id, revokedAt: '2026-11-24T08:00:00.000Z' });
    expect(await authorize(`Bearer ${token}`)).toMatchObject({ ok: false, status: 401 });
    // Revoking again keeps the first date.
    expect((await tokens.revoke(record.id))!.revokedAt).toBe('2026-11-24T08:00:00.000Z');
    for (const t of await tokens.list()) await tokens.revoke(t.id);
    expect(await authorize(undefined)).toMatchObject({ ok: false, status: 401 });
  });
});

describe.each(['sqlite', 'postgres'] as const)('a running server on %s', (kind) => {
  it.skipIf(kind === 'postgres' && unavailable !== null)('closes the moment another process creates the first token', async () => {
    const engine = kind === 'sqlite' ? sqliteEngine() : postgresEngine();
    const served = await engine.create();
    const admin = await engine.reopen();
    try {
      const authorize = createAuthorizer({ tokens: tokenStoreFor(served) });
      expect(await authorize(undefined)).toMatchObject({ ok: true, principal: { kind: 'local' } });
      const { token } = await tokenStoreFor(admin).create({ user: 'ana', projects: ['-a'], readOnly: false });
      expect(await authorize(undefined)).toMatchObject({ ok: false, status: 401 });
      expect(await authorize(`Bearer ${token}`)).toMatchObject({ ok: true, principal: { kind: 'team', user: 'ana' } });
    } finally {
      await served.close();
      await admin.close();
      await engine.dispose();
    }
  });
});

describe.skipIf(unavailable !== null)('tokens on PostgreSQL, several processes', () => {
  it('two handles creating the table at once both succeed', async () => {
    const engine = postgresEngine();
    const a = await engine.create();
    const b = await engine.reopen();
    try {
      const made = await Promise.all([tokenStoreFor(a).create({ user: 'a', projects: ['x'], readOnly: false }), tokenStoreFor(b).create({ user: 'b', projects: ['y'], readOnly: false })]);
      expect(made).toHaveLength(2);
      expect((await tokenStoreFor(a).list()).map((t) => t.user).sort()).toEqual(['a', 'b']);
      const client = new pg.Client({ connectionString: engine.db().replace(/[?&]schema=[^&]*/, '') });
      await client.connect();
      const { rows } = await client.query('SELECT table_schema FROM information_schema.tables WHERE table_name = $1', ['access_tokens']);
      await client.end();
      // In the store's own schema, not in public.
      expect(rows.map((r) => r.table_schema)).toContain(new URL(engine.db()).searchParams.get('schema'));
    } finally {
      await a.close();
      await b.close();
      await engine.dispose();
    }
  });
});
