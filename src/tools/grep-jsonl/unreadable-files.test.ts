// grep_jsonl over every session with one damaged block of stored evidence: the file is skipped from
// that block on and named in files_skipped with its error, and everything else is answered, whether
// the search workers inflate the blocks (the SQL stores) or this thread does (a redacting store).
// One ledger asked for by name still fails with EVIDENCE_DAMAGED. Searches run the compiled
// worker: `npm run build` first.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, tempDir } from '../../../test/helpers.js';
import { ingestPaths } from '../../ingest/ingest.js';
import { SqliteStore } from '../../store/sqlite/sqlite-store.js';
import { redactedEvidence } from '../../surfaces/access/scope/redacted-evidence.js';
import type { Store } from '../../store/store.js';
import { runTool } from '../tool.js';
import { grepJsonl } from './index.js';

type Result = Record<string, any>;
const SESSION = '8463c716-a2ea-4c14-9efa-87158ebd9f20';
/** Lines of every file, a few of them past the damaged block in the damaged file. */
const SYSTEM = '"type":"system"';
/** Lines on both sides of the damaged block, and in other files. */
const TOOL = 'toolu_';

let store: SqliteStore;
let fixture: string;
let damaged: { file: string; firstLine: number };
/** Answers from the store before the damage. */
let whole: { system: Result; toolCount: number };

const call = (args: Record<string, unknown>, s: Store = store) =>
  runTool(grepJsonl, { read_from: 'evidence', limit: 500, max_bytes: 10_000_000, ...args }, { store: s }) as Promise<Result>;
const places = (r: Result): string[] => r.entries.map((e: Result) => `${e.file}:${e.line_number}`);

beforeAll(async () => {
  fixture = copyFixture('claude-code');
  store = new SqliteStore(join(tempDir('hs-skip-'), 'h.db'));
  await ingestPaths(store, [fixture]);
  whole = { system: await call({ pattern: SYSTEM, scope: 'all' }), toolCount: (await call({ pattern: TOOL, scope: 'all' })).count };
  // The third of the session's main file's six blocks: blocks before it and after it are whole.
  const block = store.db
    .prepare("SELECT b.file_id, b.first_line, f.rel_path FROM blocks b JOIN files f ON f.id = b.file_id WHERE f.session_id = ? AND f.rel_path LIKE '%.jsonl' AND f.rel_path NOT LIKE '%/subagents/%' ORDER BY b.first_line LIMIT 1 OFFSET 2")
    .get(SESSION) as { file_id: number; first_line: number; rel_path: string };
  store.db.prepare('UPDATE blocks SET data = ? WHERE file_id = ? AND first_line = ?').run(Buffer.from('not brotli: garbage'), block.file_id, block.first_line);
  damaged = { file: block.rel_path, firstLine: block.first_line };
});

/** What the answer lost: the damaged file's lines from the damaged block on. */
const lost = (place: string) => place.startsWith(`${damaged.file}:`) && Number(place.slice(damaged.file.length + 1)) >= damaged.firstLine;

function expectNamed(r: Result): void {
  expect(r.status).toBe('ok');
  expect(r.files_skipped).toEqual([
    { file: damaged.file, line_number: damaged.firstLine, code: 'EVIDENCE_DAMAGED', error: expect.stringContaining(`${damaged.file} from line ${damaged.firstLine} cannot be read (Decompression failed)`) },
  ]);
  expect(r.files_skipped_count).toBe(1);
}

describe('grep_jsonl over every session, with a damaged evidence block', () => {
  it('skips that file from the damaged block on, names it, and answers from every other file (the workers inflate the blocks)', async () => {
    expect(whole.system.files_skipped).toEqual([]);
    const before = places(whole.system);
    expect(before.some(lost)).toBe(true); // the damage takes matches away
    const r = await call({ pattern: SYSTEM, scope: 'all' });
    expectNamed(r);
    expect(places(r)).toEqual(before.filter((p) => !lost(p)));
    expect(new Set(r.entries.map((e: Result) => e.session_id)).size).toBeGreaterThan(1);

    // Lines of the damaged file before the damaged block are still searched: only those from it on are missing.
    const lines = readFileSync(join(fixture, damaged.file), 'utf8').split('\n');
    const fromDamage = lines.slice(damaged.firstLine - 1).filter((l) => l.includes(TOOL)).length;
    const tool = await call({ pattern: TOOL, scope: 'all' });
    expectNamed(tool);
    expect(fromDamage).toBeGreaterThan(0);
    expect(tool.count).toBe(whole.toolCount - fromDamage);
    expect(tool.entries.some((e: Result) => e.file === damaged.file && e.line_number < damaged.firstLine)).toBe(true);
  });

  it('does the same where this thread inflates the blocks (a redacting store)', async () => {
    const r = await call({ pattern: SYSTEM, scope: 'all' }, redactedEvidence(store));
    expectNamed(r);
    expect(places(r)).toEqual(places(whole.system).filter((p) => !lost(p)));
  });

  it('skips it under a session filter of scope all too, and fails for the one ledger asked for by name', async () => {
    const all = await call({ pattern: SYSTEM, scope: 'all', session_id: SESSION });
    expectNamed(all);
    const one = await call({ pattern: SYSTEM, session_id: SESSION });
    expect(one).toMatchObject({ status: 'error', code: 'EVIDENCE_DAMAGED' });
    expect(one.error).toContain(`${damaged.file} from line ${damaged.firstLine}`);
  });
});
