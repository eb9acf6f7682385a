// Store.sessionDataVersion on PostgreSQL: one statement, a token that moves when the session or one
// of its sub-agents changes and stays when another session does; and session_overview answering a
// kept overview with that one statement, and a changed session's as a fresh store answers it.

import { appendFileSync, cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES, tempDir } from '../../../test/helpers.js';
import { ingestPaths } from '../../ingest/ingest.js';
import { runTool } from '../../tools/tool.js';
import { sessionOverview } from '../../tools/session-overview/index.js';
import { dropSchema, postgresUnavailable, TEST_PG_URL, uniqueSchema, withSchema } from '../conformance/engines.js';
import { SqliteStore } from '../sqlite/sqlite-store.js';
import { PostgresStore } from './postgres-store.js';
import { statementsDuring } from './test-statements.js';

const ID = '8463c716-a2ea-4c14-9efa-87158ebd9f20';
const PROJECT = join('projects', '-home-USER-projects-spotter-worktrees-spotter-fum');
const SUBAGENT_FILE = join(PROJECT, ID, 'subagents', 'agent-a7be2f0.jsonl');
const OTHER_FILE = join('projects', '-path-to-Demo', '1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl');

/** A copy of the Claude Code fixtures that the test may append to. */
function copyOfFixtures(): string {
  const dir = tempDir('hs-sdv-');
  cpSync(join(FIXTURES, 'claude-code'), dir, { recursive: true });
  return dir;
}

/** Append one more entry to a transcript: its last line again under a new uuid. */
function appendEntry(file: string, uuid: string): void {
  const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
  const last = JSON.parse(lines[lines.length - 1]!) as Record<string, unknown>;
  appendFileSync(file, `${JSON.stringify({ ...last, uuid, parentUuid: last.uuid })}\n`);
}

const unavailable = await postgresUnavailable();

describe.skipIf(unavailable !== null)('a session data version on PostgreSQL', () => {
  const schemas: string[] = [];
  afterAll(async () => {
    for (const s of schemas) await dropSchema(s);
  });
  const open = async () => {
    const schema = uniqueSchema('hs_sdv');
    schemas.push(schema);
    return PostgresStore.open(withSchema(TEST_PG_URL, schema));
  };

  it('is one statement, moves when a sub-agent of the session changes and stays when another session does', async () => {
    const dir = copyOfFixtures();
    const store = await open();
    try {
      await ingestPaths(store, [dir]);
      let v0: string | null = null;
      expect(await statementsDuring(store, async () => (v0 = await store.sessionDataVersion(ID)))).toHaveLength(1);
      expect(v0).toEqual(expect.any(String));
      // Only an exact id has a version: a prefix or an unknown id reads as the client-side path.
      expect(await store.sessionDataVersion(ID.slice(0, 8))).toBeNull();
      expect(await store.sessionDataVersion('no-such-session')).toBeNull();

      appendEntry(join(dir, OTHER_FILE), '00000000-0000-4000-8000-000000000001');
      await ingestPaths(store, [dir]);
      expect(await store.sessionDataVersion(ID)).toBe(v0);

      appendEntry(join(dir, SUBAGENT_FILE), '00000000-0000-4000-8000-000000000002');
      await ingestPaths(store, [dir]);
      const v1 = await store.sessionDataVersion(ID);
      expect(v1).toEqual(expect.any(String));
      expect(v1).not.toBe(v0);
    } finally {
      await store.close();
    }
  });

  it('lets session_overview answer a kept overview in one statement, and a grown session as a fresh store does', async () => {
    const dir = copyOfFixtures();
    const store = await open();
    const overview = (s: PostgresStore | SqliteStore, sessionId = ID) => runTool(sessionOverview, { session_id: sessionId }, { store: s });
    try {
      await ingestPaths(store, [dir]);
      const first = await overview(store);
      expect(first).toMatchObject({ status: 'ok' });
      let again: unknown;
      expect(await statementsDuring(store, async () => (again = await overview(store)))).toHaveLength(1);
      expect(again).toEqual(first);
      // A prefix still resolves, to the same answer.
      expect(await overview(store, ID.slice(0, 8))).toEqual(first);

      appendEntry(join(dir, SUBAGENT_FILE), '00000000-0000-4000-8000-000000000003');
      await ingestPaths(store, [dir]);
      const grown = await overview(store);
      expect(grown).not.toEqual(first);
      const fresh = new SqliteStore(join(tempDir('hs-sdv-lite-'), 'h.db'));
      try {
        await ingestPaths(fresh, [dir]);
        expect(grown).toEqual(await overview(fresh));
      } finally {
        await fresh.close();
      }
    } finally {
      await store.close();
    }
  });
});
