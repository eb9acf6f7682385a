// Conformance of the Store itself, on every engine: migrations from empty, idempotent re-ingest,
// appended lines picked up, the single-writer lock, and the same answers after a source changes.

import { appendFileSync, cpSync, mkdirSync, readFileSync, renameSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { copyFixture, tempDir } from '../../../test/helpers.js';
import { lineHash } from '../../core/line-hash.js';
import { ingestPaths } from '../../ingest/ingest.js';
import { findTool } from '../../tools/registry.js';
import { runTool } from '../../tools/tool.js';
import type { Store } from '../store.js';
import { firstDifference } from './compare.js';
import { postgresEngine, postgresUnavailable, sqliteEngine, type Engine } from './engines.js';

const unavailable = await postgresUnavailable();
const engines: Engine[] = [sqliteEngine(), ...(unavailable === null ? [postgresEngine()] : [])];

const PROJECT = 'projects/-home-marco-projects-spotter';
const SESSION = '55604662-cf2a-4331-851a-ec234028f8ca';

async function snapshot(store: Store): Promise<unknown> {
  const [sessions, files, defects, totals] = await Promise.all([
    store.listSessions({ limit: 500, offset: 0 }),
    store.listFiles({ limit: 500, offset: 0 }),
    store.listDefects({ limit: 500, offset: 0 }),
    store.totals(),
  ]);
  return { sessions, files, defects, totals };
}

afterAll(async () => {
  for (const e of engines) await e.dispose();
});

describe.each(engines.map((e) => [e.name, e] as const))('Store on %s', (_name, engine) => {
  it('migrates an empty store and reopens it without migrating again', async () => {
    const store = await engine.create();
    expect(await store.totals()).toMatchObject({ roots: 0, files: 0, sessions: 0, events: 0 });
    expect(store.engine).toBe(engine.name);
    await store.close();
    const again = await engine.reopen();
    expect((await again.listSessions({ limit: 10, offset: 0 })).total).toBe(0);
    await again.close();
  });

  it('re-ingesting unchanged sources changes nothing', async () => {
    const root = copyFixture('claude-code');
    const store = await engine.create();
    const first = await ingestPaths(store, [root]);
    expect(first.events).toBeGreaterThan(100);
    const before = await snapshot(store);
    const second = await ingestPaths(store, [root]);
    expect(second.filesUnchanged).toBe(second.files);
    expect(second.events).toBe(0);
    expect(await snapshot(store)).toEqual(before);
    await store.close();
  });

  it('picks up appended lines incrementally', async () => {
    const root = copyFixture('claude-code');
    const file = join(root, PROJECT, `${SESSION}.jsonl`);
    const store = await engine.create();
    await ingestPaths(store, [root]);
    const before = (await store.getSession(SESSION))!;
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    const last = JSON.parse(lines[lines.length - 1]!) as Record<string, unknown>;
    const appended = {
      ...last,
      type: 'user',
      uuid: 'appended-0001',
      parentUuid: last.uuid,
      timestamp: '2030-01-01T00:00:00.000Z',
      message: { role: 'user', content: 'an appended zebracorn question' },
    };
    appendFileSync(file, `${JSON.stringify(appended)}\n`);
    const again = await ingestPaths(store, [root]);
    expect(again.filesRead).toBe(1);
    expect(again.lines).toBe(1);
    const after = (await store.getSession(SESSION))!;
    expect(after.eventCount).toBeGreaterThan(before.eventCount);
    const found = await store.searchMessages({ terms: [{ kind: 'word', text: 'zebracorn' }], limit: 5, offset: 0 });
    expect(found.hits.map((h) => [h.sessionId, h.lineNumber])).toEqual([[SESSION, lines.length + 1]]);
    await store.close();
  });

  it('lets one ingest write at a time: a second fails with IngestBusy, or waits with `wait`', async () => {
    const store = await engine.create();
    const other = await engine.reopen();
    const writer = await store.beginIngest();
    await expect(other.beginIngest()).rejects.toMatchObject({ code: 'INGEST_BUSY', message: expect.stringContaining(`pid ${process.pid}`) });
    const waiting = other.beginIngest({ wait: true, waitTimeoutMs: 20_000 });
    setTimeout(() => void writer.release(), 300);
    const second = await waiting;
    await second.release();
    await store.close();
    await other.close();
  });

  it('searches words, phrases and prefixes, and takes operators as text', async () => {
    const store = await engine.create();
    await ingestPaths(store, [copyFixture('claude-code')]);
    const search = (terms: { kind: 'word' | 'phrase' | 'prefix'; text: string }[]) =>
      store.searchMessages({ terms, limit: 500, offset: 0 }).then((r) => r.total);
    const word = await search([{ kind: 'word', text: 'server' }]);
    expect(word).toBeGreaterThan(0);
    expect(await search([{ kind: 'prefix', text: 'serv' }])).toBeGreaterThanOrEqual(word);
    expect(await search([{ kind: 'phrase', text: 'phx server' }])).toBeGreaterThan(0);
    expect(await search([{ kind: 'phrase', text: 'server phx' }])).toBeLessThan(word);
    expect(await search([{ kind: 'word', text: "a & b | !c:* ') OR 1=1 --" }])).toBe(0);
    await store.close();
  });

  it('gives each stored line\'s length and hash (grep\'s live check) as the line itself hashes, without inflating', async () => {
    const store = await engine.create();
    await ingestPaths(store, [copyFixture('claude-code'), copyFixture('control-plane/normal')]);
    const files = new Map<number, number>();
    for (const s of (await store.listSessions({ limit: 500, offset: 0 })).sessions) {
      for (const l of await store.sessionLedgers(s.id)) for (const f of l.files) files.set(f.fileId, f.lines);
    }
    for (const root of await store.listRoots()) for (const l of await store.rootLedgers(root.path)) for (const f of l.files) files.set(f.fileId, f.lines);
    expect(files.size).toBeGreaterThan(3);
    // Every 7th line of every file, a line past each file's end, and an unknown file: in the order asked.
    const refs = [...files].flatMap(([fileId, n]) => [...Array.from({ length: Math.ceil(n / 7) }, (_, i) => ({ fileId, lineNumber: 1 + i * 7 })), { fileId, lineNumber: n + 1 }]);
    refs.push({ fileId: 999_999, lineNumber: 1 });
    const lines = await store.evidenceLines(refs);
    const hashes = await store.evidenceLineHashes!(refs);
    expect(lines.length).toBeGreaterThan(50);
    expect(hashes.map((h) => ({ fileId: h.fileId, lineNumber: h.lineNumber, length: h.length, hash: h.hash.toString('hex') }))).toEqual(
      lines.map((l) => ({ fileId: l.fileId, lineNumber: l.lineNumber, length: l.raw.length, hash: lineHash(l.raw).toString('hex') })),
    );
    await store.close();
  });

  it('reads ledger entries with their lines as ledgerEntries and evidenceLines do, page by page', async () => {
    const store = await engine.create();
    await ingestPaths(store, [copyFixture('claude-code'), copyFixture('control-plane/normal')]);
    const ledgers = new Map<string, number[]>();
    for (const s of (await store.listSessions({ limit: 500, offset: 0 })).sessions) {
      for (const l of await store.sessionLedgers(s.id)) ledgers.set(l.files.map((f) => f.fileId).join(','), l.files.map((f) => f.fileId));
    }
    for (const root of await store.listRoots()) for (const l of await store.rootLedgers(root.path)) ledgers.set(l.files.map((f) => f.fileId).join(','), l.files.map((f) => f.fileId));
    expect([...ledgers.values()].some((ids) => ids.length > 1)).toBe(true); // a rotated ledger: several files
    let compared = 0;
    for (const fileIds of ledgers.values()) {
      const types = (await store.ledgerEventTypes(fileIds)).map((t) => t.type);
      for (const type of [undefined, types[0]]) {
        const { total } = await store.ledgerEntries({ fileIds, type, offset: 0, limit: 0 });
        for (const [offset, limit] of [[0, 4], [Math.floor(total * 0.9), 10], [total, 5]]) {
          const q = { fileIds, type, offset: offset!, limit: limit! };
          const { entries } = await store.ledgerEntries(q);
          const lines = await store.evidenceLines(entries.map((e) => ({ fileId: e.fileId, lineNumber: e.lineNumber })));
          const expected = { total, entries: entries.map((e, i) => ({ ...e, raw: lines[i]!.raw.toString('utf8') })) };
          const got = await store.ledgerEntryLines!(q);
          expect({ ...got, entries: got.entries.map((e) => ({ ...e, raw: e.raw?.toString('utf8') })) }).toEqual(expected);
          compared += entries.length;
        }
      }
    }
    expect(compared).toBeGreaterThan(50);
    await store.close();
  });
});

describe.skipIf(unavailable !== null)('SQLite and PostgreSQL after sources change', () => {
  it('agree after appends, rewrites and re-ingests of the same files', async () => {
    const [sqlite, postgres] = engines as [Engine, Engine];
    const a = await sqlite.create();
    const b = await postgres.create();
    const root = copyFixture('claude-code');
    const file = join(root, PROJECT, `${SESSION}.jsonl`);
    const both = async () => {
      await ingestPaths(a, [root]);
      await ingestPaths(b, [root]);
    };
    const compare = async () => {
      expect(firstDifference(await snapshot(a), await snapshot(b))).toBeNull();
      for (const [tool, args] of [
        ['sources', { section: 'files', limit: 500 }],
        ['sources', { limit: 500 }],
        ['raw_lines', { session_id: SESSION, generation: 1, limit: 20 }],
        ['reconstruct_session', { session_id: SESSION, limit: 200 }],
        ['search_sessions', { query: 'the', scope: 'transcript', limit: 500, max_bytes: 10_000_000 }],
        ['search_sessions', { query: 'half* done', limit: 500 }],
      ] as const) {
        const [ra, rb] = [await runTool(findTool(tool)!, args, { store: a }), await runTool(findTool(tool)!, args, { store: b })];
        expect(ra.status, `${tool} ${JSON.stringify(args)}: ${JSON.stringify(ra).slice(0, 200)}`).toBe('ok');
        expect(firstDifference(ra, rb)).toBeNull();
      }
    };
    await both();
    const original = readFileSync(file, 'utf8');
    // An incomplete last line (held back), then completed.
    appendFileSync(file, '{"type":"user","timestamp":"2030-01-01T00:00:00Z","message":{"role":"user","content":"half');
    await both();
    await compare();
    appendFileSync(file, ' done"}}\n');
    await both();
    await compare();
    // A rewrite: the history is cut and a different line written (a new generation).
    writeFileSync(file, `${original.split('\n').slice(0, 3).join('\n')}\n{"type":"summary","summary":"rewritten"}\n`);
    await both();
    await compare();
    expect((await b.listDefects({ kind: 'rewritten_source', limit: 10, offset: 0 })).total).toBe(1);
    await a.close();
    await b.close();
  });

  it('agree after a Control Plane ledger rotates between ingests', async () => {
    const [sqlite, postgres] = engines as [Engine, Engine];
    const a = await sqlite.create();
    const b = await postgres.create();
    const final = copyFixture('control-plane/edge');
    const plane = join(tempDir(), 'plane');
    const segments: [string, string][] = [
      ['HO1/ledger', 'ho1m-20260214-200232.jsonl'],
      ['HO2/ledger', 'ho2m-20260214-200318.jsonl'],
      ['HOT/ledger', 'governance-20260214-200318.jsonl'],
    ];
    const active = (name: string) => `${name.split('-')[0]}.jsonl`;
    for (const [dir, name] of segments) {
      mkdirSync(join(plane, dir), { recursive: true });
      writeFileSync(join(plane, dir, active(name)), readFileSync(join(final, dir, name)));
    }
    await ingestPaths(a, [plane]);
    await ingestPaths(b, [plane]);
    for (const [dir, name] of segments) {
      renameSync(join(plane, dir, active(name)), join(plane, dir, name));
      writeFileSync(join(plane, dir, active(name)), readFileSync(join(final, dir, active(name))));
    }
    await ingestPaths(a, [plane]);
    await ingestPaths(b, [plane]);
    expect((await b.listDefects({ kind: 'rotated', limit: 10, offset: 0 })).total).toBe(3);
    expect(firstDifference(await snapshot(a), await snapshot(b))).toBeNull();
    for (const ledger of ['governance', 'ho2m', 'ho1m']) {
      for (const [tool, args] of [
        ['verify_ledger', { root: plane, ledger }],
        ['query_ledger_full', { root: plane, ledger, max_entries: 50 }],
        ['grep_jsonl', { root: plane, ledger, pattern: 'SESSION' }],
      ] as const) {
        const t = findTool(tool)!;
        const [ra, rb] = [await runTool(t, args, { store: a }), await runTool(t, args, { store: b })];
        expect(ra.status).toBe('ok');
        expect(firstDifference(ra, rb)).toBeNull();
      }
    }
    await a.close();
    await b.close();
  });
});

describe.skipIf(unavailable !== null)('SQLite and PostgreSQL on copies and in-place edits', () => {
  it('agree on a copied root (counted once), a same-size edit and duplicates found across appends', async () => {
    const [sqlite, postgres] = engines as [Engine, Engine];
    const a = await sqlite.create();
    const b = await postgres.create();
    const root = copyFixture('claude-code');
    const copy = join(tempDir(), 'copy');
    cpSync(root, copy, { recursive: true });
    const both = async (paths: string[]) => {
      await ingestPaths(a, paths);
      await ingestPaths(b, paths);
    };
    await both([root]);
    const once = (await b.totals()).events;
    await both([root, copy]);
    expect((await b.totals()).events).toBe(once);
    expect((await b.listDefects({ kind: 'duplicate_source', limit: 100, offset: 0 })).total).toBeGreaterThan(0);
    // A same-size edit in the middle of the main transcript, then an append repeating a line.
    const file = join(root, PROJECT, `${SESSION}.jsonl`);
    const lines = readFileSync(file, 'utf8').split('\n');
    const middle = Math.floor(lines.length / 2);
    lines[middle] = lines[middle]!.replace(/[a-z]/, (c) => (c === 'a' ? 'b' : 'a'));
    writeFileSync(file, lines.join('\n'));
    utimesSync(file, new Date(Date.now() + 5000), new Date(Date.now() + 5000));
    await both([root, copy]);
    expect((await b.listDefects({ kind: 'rewritten_source', limit: 10, offset: 0 })).total).toBe(1);
    appendFileSync(file, `${lines[0]}\n`);
    await both([root, copy]);
    expect(firstDifference(await snapshot(a), await snapshot(b))).toBeNull();
    for (const [tool, args] of [
      ['sources', { limit: 500 }],
      ['list_sessions', { limit: 500, top_level_only: false }],
      ['usage_report', { group_by: 'session', limit: 500 }],
      ['raw_lines', { session_id: SESSION, generation: 1, limit: 20 }],
    ] as const) {
      const t = findTool(tool)!;
      const [ra, rb] = [await runTool(t, args, { store: a }), await runTool(t, args, { store: b })];
      expect(ra.status).toBe('ok');
      expect(firstDifference(ra, rb)).toBeNull();
    }
    await a.close();
    await b.close();
  });
});
