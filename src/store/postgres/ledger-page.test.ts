// A one-file ledger's entries on PostgreSQL (ledger-page.ts): the count and the page in one
// statement, the same entries as SQLite's for pages from the start, past the middle (read from the
// end), at and past the end, filtered by event type and by session; and the same page with its
// evidence lines (ledgerEntryLines) in one statement.

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES } from '../../../test/helpers.js';
import { ingestedOnBoth, type IngestedOnBoth } from '../../../test/ingested-on-both.js';
import { postgresUnavailable } from '../conformance/engines.js';
import type { SqliteStore } from '../sqlite/sqlite-store.js';
import type { LedgerEntryQuery } from '../store.js';
import type { PostgresStore } from './postgres-store.js';
import { statementsDuring } from './test-statements.js';

const unavailable = await postgresUnavailable();

describe.skipIf(unavailable !== null)('one-file ledger pages on PostgreSQL', () => {
  let both: IngestedOnBoth;
  let server: PostgresStore;
  let lite: SqliteStore;

  beforeAll(async () => {
    both = await ingestedOnBoth([join(FIXTURES, 'claude-code'), join(FIXTURES, 'control-plane', 'normal')], 'hs_lpg');
    ({ postgres: server, sqlite: lite } = both);
  });
  afterAll(async () => {
    await both?.dispose();
  });

  it('answers every page of every one-file ledger as SQLite does, in one statement', async () => {
    const { sessions } = await lite.listSessions({ limit: 500, offset: 0 });
    const files = new Map<number, string[]>();
    for (const s of sessions) for (const l of await lite.sessionLedgers(s.id)) for (const f of l.files) files.set(f.fileId, [...(files.get(f.fileId) ?? []), s.id]);
    for (const root of await lite.listRoots()) for (const l of await lite.rootLedgers(root.path)) for (const f of l.files) files.set(f.fileId, files.get(f.fileId) ?? []);
    expect(files.size).toBeGreaterThan(5);
    let compared = 0;
    for (const [fileId, sessionIds] of files) {
      const types = (await lite.ledgerEventTypes([fileId])).map((t) => t.type);
      for (const type of [undefined, types[0], 'no-such-type']) {
        for (const sessionId of [undefined, sessionIds[0]]) {
          const { total } = await lite.ledgerEntries({ fileIds: [fileId], type, sessionId, offset: 0, limit: 0 });
          for (const [offset, limit] of [[0, 5], [Math.floor(total / 2), 3], [Math.floor(total * 0.9), 10], [Math.max(0, total - 2), 10], [total, 5], [total + 3, 5], [1, 0]]) {
            const q: LedgerEntryQuery = { fileIds: [fileId], type, sessionId, offset: offset!, limit: limit! };
            const expected = await lite.ledgerEntries(q);
            let got: unknown;
            expect((await statementsDuring(server, async () => (got = await server.ledgerEntries(q)))).length).toBe(1);
            expect(got).toEqual(expected);
            compared++;
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(100);
    expect(await server.ledgerEntries({ fileIds: [10 ** 6], offset: 0, limit: 5 })).toEqual({ total: 0, entries: [] });
  });

  it('reads a one-file page with its evidence lines in one statement, the same lines as SQLite', async () => {
    const { sessions } = await lite.listSessions({ limit: 500, offset: 0 });
    const files = new Set<number>();
    for (const s of sessions) for (const l of await lite.sessionLedgers(s.id)) if (l.files.length === 1) files.add(l.files[0]!.fileId);
    let compared = 0;
    for (const fileId of files) {
      const { total } = await lite.ledgerEntries({ fileIds: [fileId], offset: 0, limit: 0 });
      for (const [offset, limit] of [[0, 500], [Math.floor(total * 0.9), 10], [total, 5]]) {
        const q: LedgerEntryQuery = { fileIds: [fileId], offset: offset!, limit: limit! };
        const expected = await lite.ledgerEntryLines(q);
        let got: Awaited<ReturnType<PostgresStore['ledgerEntryLines']>> | undefined;
        // Before: the page, then the blocks holding its lines (two statements in turn).
        expect((await statementsDuring(server, async () => (got = await server.ledgerEntryLines(q)))).length).toBe(1);
        // Lines compared as text: a deep comparison of 500 Buffers byte by byte takes seconds.
        const asText = (r: typeof expected) => ({ ...r, entries: r.entries.map((e) => ({ ...e, raw: e.raw?.toString('utf8') })) });
        expect(asText(got!)).toEqual(asText(expected));
        expect(got!.entries.every((e) => e.raw !== null)).toBe(true);
        compared += got!.entries.length;
      }
    }
    // Whole ledgers of many blocks: each entry's line cut from its own block.
    expect(compared).toBeGreaterThan(500);
  });
});
