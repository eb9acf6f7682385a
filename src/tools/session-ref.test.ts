// Session references: a full id or a unique prefix, over the shared fixtures of every format.

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, tempDir } from '../../test/helpers.js';
import { HindsightError } from '../core/errors.js';
import { ingestPaths } from '../ingest/ingest.js';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';
import { findSessionsByPrefix, MAX_CANDIDATES, resolveSession } from './session-ref.js';

let store: SqliteStore;

beforeAll(async () => {
  store = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
  await ingestPaths(store, ['control-plane/normal', 'claude-code'].map(copyFixture));
});
afterAll(() => store.close());

async function failure(ref: string): Promise<HindsightError> {
  try {
    await resolveSession(store, ref);
  } catch (err) {
    if (err instanceof HindsightError) return err;
    throw err;
  }
  throw new Error(`${ref} resolved`);
}

describe('resolveSession', () => {
  it('resolves a full id, including a sub-agent id', async () => {
    expect((await resolveSession(store, 'SES-B385157F')).id).toBe('SES-B385157F');
    const [child] = (await store.listSessions({ parentId: '8463c716-a2ea-4c14-9efa-87158ebd9f20', limit: 1, offset: 0 })).sessions;
    expect((await resolveSession(store, child!.id)).id).toBe(child!.id);
  });

  it('prefix resolution: a unique prefix resolves to its session', async () => {
    expect((await resolveSession(store, '491e126e')).id).toBe('491e126e-1e71-469c-ade2-fcc8af567c74');
    expect((await resolveSession(store, 'SES-B38')).id).toBe('SES-B385157F');
  });

  it("a prefix of a parent's id resolves to the parent, not its sub-agents (whose ids start with it)", async () => {
    expect((await resolveSession(store, '8463c716')).id).toBe('8463c716-a2ea-4c14-9efa-87158ebd9f20');
  });

  it('prefix resolution: an ambiguous prefix fails with AMBIGUOUS_SESSION listing up to 10 candidates', async () => {
    const err = await failure('SES-');
    expect(err.code).toBe('AMBIGUOUS_SESSION');
    const named = err.message.match(/SES-[0-9A-F]{8}/gu) ?? [];
    expect(named).toHaveLength(MAX_CANDIDATES);
    expect(named).toEqual([...named].sort());
    expect(err.message).toContain('2 more');
  });

  it('prefix resolution: a prefix matching nothing is SESSION_NOT_FOUND', async () => {
    expect((await failure('zzzz9999')).code).toBe('SESSION_NOT_FOUND');
  });

  it('a prefix shorter than 4 characters is not a reference (SESSION_NOT_FOUND, saying the minimum)', async () => {
    const err = await failure('491');
    expect(err.code).toBe('SESSION_NOT_FOUND');
    expect(err.message).toContain('at least 4');
  });
});

describe('findSessionsByPrefix', () => {
  it('returns matches in id order with the total, at most limit', async () => {
    const { total, sessions } = await findSessionsByPrefix(store, 'SES-', 3);
    expect(total).toBe(12);
    expect(sessions.map((s) => s.id)).toEqual(['SES-086A7CB0', 'SES-1FA10011', 'SES-28917E0E']);
  });
});
