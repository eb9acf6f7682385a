// Nothing named like a ledger is skipped silently: a FIFO and a dangling symlink get a warning
// each in every format; implausible timestamps and oversized documents are findings too.

import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HUGE_LINE_BYTES } from '../core/model.js';
import { copyFixture, tempDir } from '../../test/helpers.js';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';
import { ingestPaths } from './ingest.js';

const SID = 'eeeeeeee-0000-4000-8000-000000000005';

async function findings(root: string, kinds: string[]) {
  const store = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
  const summary = await ingestPaths(store, [root]);
  const { defects } = await store.listDefects({ limit: 500, offset: 0 });
  await store.close();
  return { summary, found: defects.filter((d) => kinds.includes(d.kind)).map((d) => [d.kind, d.severity, d.file]) };
}

const mkfifo = (path: string) => execFileSync('mkfifo', [path]);

describe('entries that cannot be read as ledgers', () => {
  it('reports a FIFO and a dangling symlink in a Control Plane root', async () => {
    const root = copyFixture('control-plane/normal');
    rmSync(join(root, 'HO1/ledger/ho1m.jsonl'));
    mkfifo(join(root, 'HO1/ledger/ho1m.jsonl'));
    rmSync(join(root, 'HO2/ledger/ho2m.jsonl'));
    symlinkSync('/nonexistent/ho2m.jsonl', join(root, 'HO2/ledger/ho2m.jsonl'));
    const { summary, found } = await findings(root, ['not_a_regular_file', 'dangling_symlink']);
    expect(found).toEqual([
      ['not_a_regular_file', 'warning', 'HO1/ledger/ho1m.jsonl'],
      ['dangling_symlink', 'warning', 'HO2/ledger/ho2m.jsonl'],
    ]);
    expect(summary.files).toBe(1);
  });

  it('reports them in an Amplifier session folder', async () => {
    const root = copyFixture('amplifier/normal');
    const sessions = 'projects/-Users-jonas.weber-code-storefront-web/sessions';
    const a = `${sessions}/1f45687d-5ac6-4823-9740-b81f44827d01/events.jsonl`;
    const b = `${sessions}/361346c1-3ca5-4fb1-9b7b-c7a4b3daad01/transcript.jsonl`;
    rmSync(join(root, a));
    mkfifo(join(root, a));
    rmSync(join(root, b));
    symlinkSync('/nonexistent/transcript.jsonl', join(root, b));
    const { found } = await findings(root, ['not_a_regular_file', 'dangling_symlink']);
    expect(found).toEqual([
      ['not_a_regular_file', 'warning', a],
      ['dangling_symlink', 'warning', b],
    ]);
  });

  it('reports them in a Claude Code config folder', async () => {
    const root = tempDir('hs-cc-');
    const dir = join(root, 'projects', '-tmp-x');
    mkdirSync(dir, { recursive: true });
    const line = JSON.stringify({ type: 'user', sessionId: SID, timestamp: '2026-01-01T00:00:00Z', message: { role: 'user', content: 'hi' } });
    writeFileSync(join(dir, `${SID}.jsonl`), `${line}\n`);
    mkfifo(join(dir, 'aaaaaaaa-0000-4000-8000-000000000002.jsonl'));
    symlinkSync('/nonexistent/x.jsonl', join(dir, 'aaaaaaaa-0000-4000-8000-000000000003.jsonl'));
    const { found } = await findings(root, ['not_a_regular_file', 'dangling_symlink', 'unreadable_file']);
    expect(found).toEqual([
      ['not_a_regular_file', 'warning', 'projects/-tmp-x/aaaaaaaa-0000-4000-8000-000000000002.jsonl'],
      ['dangling_symlink', 'warning', 'projects/-tmp-x/aaaaaaaa-0000-4000-8000-000000000003.jsonl'],
    ]);
  });
});

describe('implausible timestamps and oversized documents', () => {
  it('reports a year-9999 timestamp and keeps it out of the session times', async () => {
    const root = tempDir('hs-cc-');
    const dir = join(root, 'projects', '-tmp-x');
    mkdirSync(dir, { recursive: true });
    const line = (ts: string, text: string) =>
      JSON.stringify({ type: 'user', sessionId: SID, timestamp: ts, message: { role: 'user', content: text } });
    writeFileSync(
      join(dir, `${SID}.jsonl`),
      `${line('2026-01-01T00:00:00Z', 'a')}\n${line('9999-12-31T23:59:59Z', 'b')}\n${line('1970-01-01T00:00:00Z', 'c')}\n${line('2026-01-01T00:01:00Z', 'd')}\n`,
    );
    const store = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
    await ingestPaths(store, [root]);
    const { defects } = await store.listDefects({ kind: 'implausible_timestamp', limit: 10, offset: 0 });
    expect(defects.map((d) => [d.line, d.severity])).toEqual([
      [2, 'warning'],
      [3, 'warning'],
    ]);
    const s = await store.getSession(SID);
    expect([s?.startedAt, s?.endedAt]).toEqual(['2026-01-01T00:00:00.000Z', '2026-01-01T00:01:00.000Z']);
    await store.close();
  });

  it('applies the huge-line limit to a metadata.json document as to any line', async () => {
    const root = copyFixture('amplifier/normal');
    const rel = 'projects/-Users-jonas.weber-code-storefront-web/sessions/1f45687d-5ac6-4823-9740-b81f44827d01/metadata.json';
    writeFileSync(join(root, rel), `{"session_id": "1f45687d-5ac6-4823-9740-b81f44827d01", "pad": "${'x'.repeat(HUGE_LINE_BYTES)}"}`);
    const { found } = await findings(root, ['oversized_line', 'invalid_document_json']);
    expect(found).toEqual([['oversized_line', 'info', rel]]);
  });
});
