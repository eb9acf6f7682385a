import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, tempDir } from '../../../test/helpers.js';
import { ingestPaths } from '../../ingest/ingest.js';
import { SqliteStore } from '../../store/sqlite/sqlite-store.js';
import { runTool } from '../tool.js';
import { verifyLedger } from './index.js';

let store: SqliteStore;
let edge: string;
const call = (args: unknown) => runTool(verifyLedger, args, { store }) as Promise<Record<string, any>>;

beforeAll(async () => {
  store = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
  edge = copyFixture('control-plane/edge');
  await ingestPaths(store, [edge]);
  rmSync(edge, { recursive: true }); // verification works from the evidence alone
});

describe('verify_ledger', () => {
  it('finds the tampered entry and the broken link after it, with file and line', async () => {
    const r = await call({ ledger: 'governance' });
    expect(r.status).toBe('ok');
    expect(r.intact).toBe(false);
    expect(r.entries_checked).toBe(87 + 131); // the manifest's valid entries (the non-object line 27 is not one)
    expect(r.breaks.map((b: { file: string; line_number: number; kind: string; entry_id: string }) => [b.file, b.line_number, b.kind, b.entry_id])).toEqual([
      ['HOT/ledger/governance.jsonl', 68, 'hash_mismatch', 'LED-cd59b311'],
      ['HOT/ledger/governance.jsonl', 69, 'previous_hash_mismatch', 'LED-f6d6180b'],
    ]);
    expect(r.files.map((f: { file: string }) => f.file)).toEqual(['HOT/ledger/governance-20260214-200318.jsonl', 'HOT/ledger/governance.jsonl']);
  });

  it('reports intact chains across rotated segments (and the entry written without a timestamp verifies)', async () => {
    for (const ledger of ['ho2m', 'ho1m']) {
      const r = await call({ ledger });
      expect(r).toMatchObject({ status: 'ok', intact: true, count: 0 });
      expect(r.entries_checked).toBeGreaterThan(100);
    }
  });

  it('needs a root or a session when several plane roots are in the store', async () => {
    await ingestPaths(store, [copyFixture('control-plane/normal')]);
    expect(await call({ ledger: 'ho2m' })).toMatchObject({ status: 'error', code: 'AMBIGUOUS_ROOT' });
    const bySession = await call({ ledger: 'governance', session_id: 'SES-ED5425F5' });
    expect(bySession).toMatchObject({ status: 'ok', intact: false, count: 2 });
    expect(await call({ ledger: 'ho2m', session_id: 'SES-NOPE' })).toMatchObject({ status: 'error', code: 'SESSION_NOT_FOUND' });
    expect(await call({ ledger: 'nope' })).toMatchObject({ status: 'error', code: 'INVALID_ARGUMENTS' });
  });
});
