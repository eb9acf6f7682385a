import { appendFileSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, tempDir } from '../../../test/helpers.js';
import { cp, writePlaneRoot } from '../../../test/plane-root.js';
import { ingestPaths } from '../../ingest/ingest.js';
import { SqliteStore } from '../../store/sqlite/sqlite-store.js';
import { runTool } from '../tool.js';
import { grepJsonl } from './index.js';

const CC_SESSION = '55604662-cf2a-4331-851a-ec234028f8ca';
const CC_FILE = `projects/-home-marco-projects-spotter/${CC_SESSION}.jsonl`;
const NOT_UTF8 = Buffer.concat([Buffer.from('{"event_type": "NOTE", "reason": "MARKER-'), Buffer.from([0xe9, 0xff]), Buffer.from('"}')]);

let store: SqliteStore;
let plane: string;
let claude: string;
type Result = Record<string, any>;
const call = (args: unknown, s: SqliteStore = store) => runTool(grepJsonl, args, { store: s }) as Promise<Result>;
const lines = (path: string) => readFileSync(path, 'utf8').split('\n').slice(0, -1);

beforeAll(async () => {
  plane = writePlaneRoot(tempDir('hs-plane-'), [
    cp.sessionStart('SES-A', 0),
    cp.turn('SES-A', 1, 'hello', 'hi', 1),
    cp.degradation('SES-A', 'budget_exhausted', 2),
    cp.sessionStart('SES-B', 3),
    cp.degradation('SES-B', 'budget_exhausted', 4),
    cp.turn('SES-B', 1, 'why?', 'the budget ran out', 5),
    cp.degradation('SES-A', 'budget_exhausted', 6),
    cp.woFailed('SES-A', 'WO-SES-A-001', 'budget_exhausted', 'budget_exhausted', 7),
    cp.exchange('SES-A', 'WO-SES-A-001', { input: 10, output: 5 }, 8),
    { ledger: 'governance', event_type: 'DEGRADATION', decision: 'DEGRADED', reason: `${'a'.repeat(100_000)}!`, at: 9 },
  ]);
  appendFileSync(join(plane, 'HOT/ledger/governance.jsonl'), Buffer.concat([NOT_UTF8, Buffer.from('\n')]));
  claude = copyFixture('claude-code');
  store = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
  await ingestPaths(store, [plane, claude]);
});

describe('TestGrepJsonl', () => {
  it('test_grep_finds_matching_lines: 3 matching lines, with their line numbers', async () => {
    const r = await call({ ledger: 'ho2m', pattern: 'budget_exhausted' });
    expect(r).toMatchObject({ status: 'ok', source: 'ho2m', pattern: 'budget_exhausted', count: 3, returned: 3, has_more: false, next_offset: null });
    expect(r.entries.map((e: Result) => [e.file, e.line_number])).toEqual([
      ['HO2/ledger/ho2m.jsonl', 3],
      ['HO2/ledger/ho2m.jsonl', 5],
      ['HO2/ledger/ho2m.jsonl', 7],
    ]);
    expect(r.files_searched).toEqual(['HO2/ledger/ho2m.jsonl']);
  });

  it('test_grep_returns_raw_json: raw is the original line, byte for byte', async () => {
    const r = await call({ ledger: 'ho2m', pattern: 'budget_exhausted' });
    const disk = lines(join(plane, 'HO2/ledger/ho2m.jsonl'));
    for (const e of r.entries) {
      expect(e.raw).toBe(disk[e.line_number - 1]);
      expect(JSON.parse(e.raw).event_type).toBe('DEGRADATION');
      expect(e.raw_base64).toBeUndefined();
    }
  });

  it('test_grep_invalid_ledger: an unknown ledger is an error naming the valid ones', async () => {
    expect(await call({ ledger: 'bogus', pattern: 'x' })).toEqual({
      status: 'error',
      error: 'Unknown ledger: bogus. Valid: governance, ho2m, ho1m.',
      code: 'UNKNOWN_LEDGER',
    });
  });

  it('test_grep_no_matches: count 0 and no entries', async () => {
    expect(await call({ ledger: 'ho1m', pattern: 'no-such-text' })).toMatchObject({ status: 'ok', count: 0, returned: 0, entries: [] });
  });

  it('defaults to governance, and to ho2m for a Control Plane session, limited to its own lines', async () => {
    expect((await call({ pattern: 'EXCHANGE' })).source).toBe('governance');
    const b = await call({ pattern: 'budget', session_id: 'SES-B' });
    expect(b).toMatchObject({ source: 'ho2m', session_id: 'SES-B', count: 2 });
    expect(b.entries.map((e: Result) => e.line_number)).toEqual([5, 6]);
    expect((await call({ pattern: 'budget_exhausted', session_id: 'SES-A', ledger: 'ho1m' })).count).toBe(1);
  });

  it('pages through matches with offset and limit', async () => {
    const r = await call({ ledger: 'ho2m', pattern: 'SES-', limit: 2, offset: 2 });
    expect(r).toMatchObject({ count: 7, limit: 2, offset: 2, returned: 2, has_more: true, next_offset: 4 });
    expect(r.entries.map((e: Result) => e.line_number)).toEqual([3, 4]);
  });

  it('finishes a catastrophic pattern on a 100,000-character line', async () => {
    expect(await call({ pattern: '(a+)+$' })).toMatchObject({ status: 'ok', count: 0 });
    expect(await call({ pattern: '(a+)+!', ignore_case: true })).toMatchObject({ status: 'ok', count: 1 });
  });

  it('ignores case when asked', async () => {
    expect((await call({ ledger: 'ho2m', pattern: 'BUDGET_EXHAUSTED' })).count).toBe(0);
    expect((await call({ ledger: 'ho2m', pattern: 'BUDGET_EXHAUSTED', ignore_case: true })).count).toBe(3);
  });

  it('returns a line that is not valid UTF-8 with its exact bytes in raw_base64', async () => {
    const r = await call({ pattern: 'MARKER-' });
    expect(r.count).toBe(1);
    expect(r.entries[0].line_number).toBe(3);
    expect(Buffer.from(r.entries[0].raw_base64, 'base64').equals(NOT_UTF8)).toBe(true);
    expect(r.entries[0].raw).toBe(NOT_UTF8.toString('utf8'));
  });

  it('searches a Claude Code session transcript through session_id', async () => {
    const r = await call({ session_id: CC_SESSION, pattern: '"type":"assistant"', limit: 500 });
    const disk = lines(join(claude, CC_FILE));
    const expected = disk.flatMap((l, i) => (l.includes('"type":"assistant"') ? [i + 1] : []));
    expect(r).toMatchObject({ status: 'ok', source: 'transcript', count: expected.length });
    expect(r.entries.map((e: Result) => e.line_number)).toEqual(expected);
    expect(r.entries.every((e: Result) => e.file === CC_FILE && e.raw === disk[e.line_number - 1])).toBe(true);
  });

  it('refuses bad patterns and bad limits', async () => {
    expect(await call({ pattern: '(a)\\1' })).toMatchObject({ status: 'error', code: 'INVALID_PATTERN', error: expect.stringMatching(/backreference/) });
    expect(await call({ pattern: '(' })).toMatchObject({ status: 'error', code: 'INVALID_PATTERN', error: expect.stringMatching(/Unterminated group/) });
    expect(await call({ pattern: '' })).toMatchObject({ status: 'error', code: 'INVALID_PATTERN' });
    expect(await call({ pattern: 'x'.repeat(1001) })).toMatchObject({ status: 'error', error: expect.stringMatching(/at most 1000 characters/) });
    expect(await call({ ledger: 'ho2m' })).toMatchObject({ status: 'error', code: 'INVALID_ARGUMENTS' });
    for (const limit of [0, -1, 'x', 501]) {
      expect(await call({ pattern: 'a', limit })).toMatchObject({ status: 'error', code: 'INVALID_ARGUMENTS', error: expect.stringMatching(/limit must be.*1 to 500|limit must be from 1 to 500/) });
    }
  });

  it('cuts to max_bytes: a cap smaller than one row gives zero rows and truncated', async () => {
    const r = await call({ ledger: 'ho2m', pattern: 'SES-', max_bytes: 400 });
    expect(r).toMatchObject({ status: 'ok', count: 7, returned: 0, entries: [], truncated: true, has_more: true, next_offset: 0 });
  });

  it('answers SESSION_NOT_FOUND for an unknown session, and identically when asked twice', async () => {
    expect(await call({ pattern: 'x', session_id: 'SES-NOPE' })).toMatchObject({ status: 'error', code: 'SESSION_NOT_FOUND' });
    const args = { ledger: 'ho2m', pattern: 'SES-[AB]', limit: 5 };
    expect(JSON.stringify(await call(args))).toBe(JSON.stringify(await call(args)));
  });
});

describe('grep_jsonl on a rotated, deleted plane root', () => {
  it('finds matches in every segment with their own line numbers, after the root is gone; then needs a root when there are two', async () => {
    const s = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
    const edge = copyFixture('control-plane/edge');
    await ingestPaths(s, [edge]);
    const files = ['HOT/ledger/governance-20260214-200318.jsonl', 'HOT/ledger/governance.jsonl'];
    const pattern = '"decision": "(ERROR|ALLOCATED)"';
    const re = new RegExp(pattern);
    const expected = files.flatMap((file) =>
      lines(join(edge, file)).flatMap((raw, i) => (re.test(raw) ? [{ line_number: i + 1, file, raw, read_from: 'evidence' }] : [])),
    );
    expect(new Set(expected.map((e) => e.file)).size).toBe(2);
    rmSync(edge, { recursive: true });

    const r = await call({ ledger: 'governance', pattern, limit: 500, max_bytes: 10_000_000 }, s);
    expect(r).toMatchObject({ status: 'ok', count: expected.length, files_searched: files });
    // The seed's fields, exactly; where the match is (match_offset, excerpt) is tested in every-session.test.ts.
    expect(r.entries.map(({ line_number, file, raw, read_from }: Result) => ({ line_number, file, raw, read_from }))).toEqual(expected);

    await ingestPaths(s, [copyFixture('control-plane/normal')]);
    const ambiguous = await call({ pattern: 'x' }, s);
    expect(ambiguous).toMatchObject({ status: 'error', code: 'AMBIGUOUS_ROOT' });
    expect((await call({ pattern: pattern, root: edge, limit: 1 }, s)).count).toBe(expected.length);
    await s.close();
  });
});

describe('grep_jsonl reads an unchanged source directly, the evidence otherwise', () => {
  it('gives the same answer from the source file as from the evidence, and falls back when the source changed', async () => {
    const { utimesSync, writeFileSync, statSync } = await import('node:fs');
    const root = copyFixture('control-plane/edge');
    const s = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
    await ingestPaths(s, [root]);
    const args = { ledger: 'governance', pattern: '"decision": "(ERROR|DEBITED)"', limit: 500 };
    const fromSource = await call(args, s);
    expect(fromSource.count).toBeGreaterThan(10);
    // Rewrite the active file with the same size but different bytes and a new mtime: grep must
    // answer from the evidence (what was ingested), not from the changed file.
    const active = join(root, 'HOT/ledger/governance.jsonl');
    const before = statSync(active);
    writeFileSync(active, readFileSync(active, 'utf8').replace(/"decision": "ERROR"/g, '"decision": "OTHER"'));
    utimesSync(active, before.atime, new Date(before.mtimeMs + 5000));
    // The rotated segment is untouched and still read live; the active file comes from the evidence.
    const readFrom = (file: string) => (file === 'HOT/ledger/governance.jsonl' ? 'evidence' : 'live');
    const changed = { ...fromSource, read_from: 'mixed', entries: fromSource.entries.map((e: Result) => ({ ...e, read_from: readFrom(e.file) })) };
    expect(fromSource.read_from).toBe('live');
    expect(await call(args, s)).toEqual(changed);
    rmSync(root, { recursive: true });
    const gone = { ...fromSource, read_from: 'evidence', entries: fromSource.entries.map((e: Result) => ({ ...e, read_from: 'evidence' })) };
    expect(await call(args, s)).toEqual(gone);
    await s.close();
  });

  it('never mixes live and stored bytes: a same-size edit behind an unchanged size and mtime is caught, reported, and answered from the evidence', async () => {
    const { utimesSync, writeFileSync, statSync } = await import('node:fs');
    const root = copyFixture('control-plane/edge');
    const active = join(root, 'HOT/ledger/governance.jsonl');
    const mtime = new Date('2026-02-14T20:00:00Z'); // whole seconds: restored exactly below
    utimesSync(active, mtime, mtime);
    const s = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
    await ingestPaths(s, [root]);
    const args = { ledger: 'governance', pattern: '"decision": "(ERROR|DEBITED)"', limit: 500, max_bytes: 10_000_000 };
    const before = await call(args, s);
    expect(before).toMatchObject({ status: 'ok', read_from: 'live', live_differs_from_evidence: [] });
    // The edit keeps the size, and the mtime is put back: the file looks exactly as ingested.
    const size = statSync(active).size;
    const text = readFileSync(active, 'utf8');
    const re = new RegExp(args.pattern);
    const edited = text.split('\n').map((l) => (re.test(l) ? l.replace('"event_type": "', '"event_type":"X') : l));
    expect(edited.join('\n')).not.toBe(text);
    writeFileSync(active, edited.join('\n'));
    expect(statSync(active).size).toBe(size);
    utimesSync(active, mtime, mtime);
    const after = await call(args, s);
    // Same lines and bytes as before the edit (the evidence), and the changed lines are named.
    expect(after.entries.map((e: Result) => [e.file, e.line_number, e.raw])).toEqual(before.entries.map((e: Result) => [e.file, e.line_number, e.raw]));
    expect(after.count).toBe(before.count);
    expect(after.live_differs_from_evidence.length).toBeGreaterThan(0);
    for (const d of after.live_differs_from_evidence) expect(d.file).toBe('HOT/ledger/governance.jsonl');
    expect(after.entries.filter((e: Result) => e.file === 'HOT/ledger/governance.jsonl').every((e: Result) => e.read_from === 'evidence')).toBe(true);
    expect(after.read_from).toBe(after.entries.some((e: Result) => e.read_from === 'live') ? 'mixed' : 'evidence');
    // read_from: "evidence" never reads the source files at all.
    const forced = await call({ ...args, read_from: 'evidence' }, s);
    expect(forced).toMatchObject({ read_from: 'evidence', live_differs_from_evidence: [] });
    expect(forced.entries).toEqual(after.entries.map((e: Result) => ({ ...e, read_from: 'evidence' })));
    await s.close();
  });

  it('checks live lines against the stored line hashes without reading (inflating) the evidence lines, and answers as a store without the hashes does', async () => {
    const { utimesSync, writeFileSync, statSync } = await import('node:fs');
    const root = copyFixture('control-plane/edge');
    const active = join(root, 'HOT/ledger/governance.jsonl');
    const mtime = new Date('2026-02-14T20:00:00Z');
    utimesSync(active, mtime, mtime);
    const s = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
    await ingestPaths(s, [root]);
    let linesRead = 0;
    /** The store as the tool sees it: evidenceLines counted, and (without) evidenceLineHashes hidden. */
    const view = (withHashes: boolean) =>
      new Proxy(s, {
        get(target, key) {
          if (key === 'evidenceLineHashes' && !withHashes) return undefined;
          const value = Reflect.get(target, key, target) as unknown;
          if (typeof value !== 'function') return value;
          return (...a: unknown[]) => {
            if (key === 'evidenceLines') linesRead++;
            return (value as (...x: unknown[]) => unknown).apply(target, a);
          };
        },
      });
    const args = { ledger: 'governance', pattern: '"decision": "(ERROR|DEBITED)"', limit: 500, max_bytes: 10_000_000 };
    const same = await call(args, view(true));
    expect(same).toMatchObject({ status: 'ok', read_from: 'live', live_differs_from_evidence: [] });
    expect(same.count).toBeGreaterThan(0);
    expect(linesRead).toBe(0);
    expect(await call(args, view(false))).toEqual(same);
    expect(linesRead).toBe(1);
    // A same-size edit behind the same mtime: both ways name the same changed lines and answer alike.
    const size = statSync(active).size;
    const text = readFileSync(active, 'utf8');
    const re = new RegExp(args.pattern);
    writeFileSync(active, text.split('\n').map((l) => (re.test(l) ? l.replace('"event_type": "', '"event_type":"X') : l)).join('\n'));
    expect(statSync(active).size).toBe(size);
    utimesSync(active, mtime, mtime);
    const hashed = await call(args, view(true));
    expect(hashed.live_differs_from_evidence.length).toBeGreaterThan(0);
    expect(await call(args, view(false))).toEqual(hashed);
    await s.close();
  });
});

describe('grep_jsonl runs under a deadline, off the event loop', () => {
  it('returns status ok with what it found so far and truncated "deadline" when timeout_ms passes', async () => {
    // Lines full of hex: a pattern RE2 cannot say (a lone surrogate) runs on V8, whose linear
    // fallback needs seconds per megabyte on `[0-9a-f]{64}x` here; the deadline is 300 ms.
    const hex = (i: number) => Array.from({ length: 40 }, (_, j) => ((i * 7919 + j) >>> 0).toString(16).padStart(8, '0').repeat(8)).join(' ');
    const root = writePlaneRoot(
      tempDir('hs-plane-'),
      Array.from({ length: 600 }, (_, i) => ({ ledger: 'governance' as const, event_type: 'NOTE', decision: 'NOTE', reason: hex(i), at: i })),
    );
    const s = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
    await ingestPaths(s, [root]);
    const r = await call({ ledger: 'governance', pattern: '\\uD800|[0-9a-f]{64}x', timeout_ms: 300, limit: 500 }, s);
    expect(r).toMatchObject({ status: 'ok', engine: 'js', truncated: 'deadline' });
    expect(r.returned).toBe(r.entries.length);
    const fast = await call({ ledger: 'governance', pattern: '[0-9a-f]{64}x', timeout_ms: 60_000 }, s);
    expect(fast).toMatchObject({ status: 'ok', engine: 're2', count: 0 });
    expect(fast.truncated).toBeUndefined();
    await s.close();
  });

  it('refuses a timeout_ms outside 1..600000', async () => {
    for (const timeout_ms of [0, -5, 1.5, 'x', 600_001]) {
      expect(await call({ pattern: 'a', timeout_ms })).toMatchObject({ status: 'error', code: 'INVALID_ARGUMENTS', error: expect.stringMatching(/timeout_ms/) });
    }
  });
});
