// The seed contracts, field by field (issue 12): every operation is called through runTool and its
// parameters and result fields are checked under the seed's names, types and defaults — always
// present, null when unknown — beside Hindsight's own names. Seeds: session-analyst-tool-design.md
// (list, get, search, get_events, rewind), session-replay-format.md (the replay header),
// control-plane-classify-fix-and-admin-tools.md (list_files). Also: an Amplifier session's ledgers
// are its own files (children are listed, never merged), for every tool that reads by session_id.

import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, FIXTURES, tempDir } from '../../test/helpers.js';
import { ingestPaths } from '../ingest/ingest.js';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';
import { inventory } from '../sync/inventory.js';
import { findTool } from './registry.js';
import { runTool, type AnyTool } from './tool.js';

type R = Record<string, any>;

const AMP_PARENT = 'ffe1fc2a-7f03-488a-a918-7e4d085b8270';
const AMP_FORK = '1f45687d-5ac6-4823-9740-b81f44827d01';
const AMP_DIR = 'projects/-Users-jonas.weber-code-storefront-web/sessions';
const AMP_ROOT_A = 'f31d2334-3e59-4fd1-8a90-ee46c04cd0c2';
const AMP_ZEN = '0000000000000000-72a41438bce83941_foundation-zen-architect';
const CC_BIG = '8463c716-a2ea-4c14-9efa-87158ebd9f20';
const CC_SHORT = '55604662-cf2a-4331-851a-ec234028f8ca';
const CC_DIR = 'projects/-home-marco-projects-spotter';

let store: SqliteStore;
let root: string;
let ampRoot: string;

const tool = (name: string): AnyTool => findTool(name)!;
const call = (name: string, args: unknown, workspaceRoot?: string) =>
  runTool(tool(name), args, { store, ...(workspaceRoot !== undefined && { workspaceRoot }) }) as Promise<R>;
/** The defaults a tool's schema gives when only `required` is passed. */
const defaults = (name: string, required: R = {}) => tool(name).input.parse(required) as R;

type Kind = 'string' | 'number' | 'boolean' | 'object' | 'array';
/** The field is present under its seed name, of its type, or null when `nullable`. */
function expectField(obj: R, name: string, kind: Kind, nullable = false): void {
  expect(obj, `field ${name}`).toHaveProperty(name);
  const v = obj[name];
  if (v === null) {
    expect(nullable, `${name} is null`).toBe(true);
    return;
  }
  const actual = Array.isArray(v) ? 'array' : typeof v;
  expect(actual, `type of ${name}`).toBe(kind);
}

/** Every file's mtime an hour back, so rewind's 60-second live guard stays quiet. */
function ageFiles(dir: string): void {
  const past = new Date(Date.now() - 3_600_000);
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) if (e.isFile()) utimesSync(join(e.parentPath, e.name), past, past);
}

beforeAll(async () => {
  store = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
  ampRoot = copyFixture('amplifier/normal');
  root = copyFixture('claude-code');
  ageFiles(root);
  await ingestPaths(store, [ampRoot, root, copyFixture('control-plane/normal')]);
});
afterAll(() => store.close());

describe('list (list_sessions)', () => {
  it('takes project, date_range, top_level_only (default true), include_cloud, limit', () => {
    const d = defaults('list_sessions');
    expect(d.top_level_only).toBe(true);
    expect(typeof d.limit).toBe('number');
    expect(tool('list_sessions').input.safeParse({ project: 'x', date_range: 'today', include_cloud: true, limit: 5 }).success).toBe(true);
  });

  it('returns session_id, project, created, modified, bundle, model, turn_count, source, name beside started_at/title/models', async () => {
    const r = await call('list_sessions', { top_level_only: false, limit: 500 });
    expect(r.status).toBe('ok');
    for (const s of r.sessions as R[]) {
      expectField(s, 'session_id', 'string');
      expectField(s, 'project', 'string', true);
      expectField(s, 'created', 'string', true);
      expectField(s, 'modified', 'string', true);
      expectField(s, 'bundle', 'string', true);
      expectField(s, 'model', 'string', true);
      expectField(s, 'turn_count', 'number');
      expectField(s, 'name', 'string', true);
      expect(['local', 'cloud', 'both']).toContain(s.source);
      // Today's names stay beside the seed's.
      expect(s.created).toBe(s.started_at);
      expect(s.name).toBe(s.title);
      expect(s.modified).toBe(s.ended_at ?? s.started_at);
      if (s.model !== null && s.format !== 'amplifier') expect(s.models).toContain(s.model);
    }
    const amp = (r.sessions as R[]).find((s) => s.session_id === AMP_PARENT)!;
    // From metadata.json: bundle and model as written.
    expect(amp).toMatchObject({ bundle: 'bundle:amplifier-dev', model: 'claude-opus-4-8', name: 'Deploy Fails With 401 Unauthorized —' });
    const cc = (r.sessions as R[]).find((s) => s.session_id === CC_BIG)!;
    expect(cc.bundle).toBeNull();
    expect(cc.model).toBe(cc.models[0]);
  });
});

describe('get (get_session)', () => {
  it('takes session_id, include_transcript (default false), include_events_summary (default false)', () => {
    const d = defaults('get_session', { session_id: 'x' });
    expect(d.include_transcript).toBe(false);
    expect(d.include_events_summary).toBe(false);
  });

  it('returns session_id, project, metadata, transcript, events_summary, source, path; the optional parts null unless asked', async () => {
    const r = await call('get_session', { session_id: AMP_PARENT });
    expect(r.status).toBe('ok');
    expectField(r, 'session_id', 'string');
    expectField(r, 'project', 'string');
    expectField(r, 'metadata', 'object');
    expectField(r, 'source', 'string');
    expectField(r, 'path', 'string');
    expect(r.transcript).toBeNull();
    expect(r.events_summary).toBeNull();
    const full = await call('get_session', { session_id: AMP_PARENT, include_transcript: true, include_events_summary: true });
    expectField(full, 'transcript', 'object');
    expectField(full, 'events_summary', 'object');
  });

  it('metadata is the metadata.json content exactly as written (redacted by default); derived facts are elsewhere', async () => {
    const written = JSON.parse(readFileSync(join(ampRoot, AMP_DIR, AMP_PARENT, 'metadata.json'), 'utf8')) as R;
    const r = await call('get_session', { session_id: AMP_PARENT, redact: false });
    expect(r.metadata).toEqual(written);
    // name, session_id, working_dir and description_updated_at kept, name_generated_at not renamed.
    expect(Object.keys(r.metadata)).toEqual(Object.keys(written));
    expect(r.metadata).toHaveProperty('name_generated_at');
    expect(r.metadata).not.toHaveProperty('nameGeneratedAt');
    expect(r.metadata_file).toBe(`${AMP_DIR}/${AMP_PARENT}/metadata.json`);
    expect(r.facts).toMatchObject({ bundle: 'bundle:amplifier-dev', nameGeneratedAt: written.name_generated_at });
    // The description holds an API key: redacted by default, the keys unchanged.
    const redacted = await call('get_session', { session_id: AMP_PARENT });
    expect(Object.keys(redacted.metadata)).toEqual(Object.keys(written));
    expect(redacted.metadata.description).not.toBe(written.description);
    expect(redacted.metadata.description).toContain('[REDACTED');
  });

  it('metadata is null for formats without a metadata document', async () => {
    const cc = await call('get_session', { session_id: CC_BIG });
    expect(cc.metadata).toBeNull();
    expect(cc.metadata_note).toBeNull();
    const cp = await call('get_session', { session_id: 'SES-8ACD6A79' });
    expect(cp.metadata).toBeNull();
  });
});

describe('an Amplifier session with forks or sub-agents: its ledgers are its own files, children listed', () => {
  const own = (id: string) => `${AMP_DIR}/${id}/`;

  it('get_session: path is its own transcript, every ledger file is its own, the fork is in children_ids', async () => {
    const r = await call('get_session', { session_id: AMP_PARENT });
    expect(r.path).toBe(join(ampRoot, AMP_DIR, AMP_PARENT, 'transcript.jsonl'));
    const files = (r.ledgers as R[]).flatMap((l) => l.files as R[]);
    expect(files.map((f) => f.rel_path).every((p: string) => p.startsWith(own(AMP_PARENT)))).toBe(true);
    const transcript = (r.ledgers as R[]).find((l) => l.ledger === 'transcript')!;
    expect(transcript.files).toHaveLength(1);
    expect(transcript.files[0].lines).toBe(20);
    expect(r.children_ids).toEqual([AMP_FORK]);
    // A two-level sub-agent chain: each level keeps its own files.
    const zen = await call('get_session', { session_id: AMP_ZEN });
    expect(zen.path).toContain(`/sessions/${AMP_ZEN}/transcript.jsonl`);
    const top = await call('get_session', { session_id: AMP_ROOT_A });
    expect((top.ledgers as R[]).flatMap((l) => l.files as R[]).every((f) => f.rel_path.includes(`/sessions/${AMP_ROOT_A}/`))).toBe(true);
    expect(top.children_ids).toEqual([AMP_ZEN]);
  });

  it('query_ledger_full, grep_jsonl and raw_lines by session_id read its own transcript only (20 entries, not 42)', async () => {
    const q = await call('query_ledger_full', { session_id: AMP_PARENT, ledger: 'transcript', max_entries: 100 });
    expect(q.status).toBe('ok');
    expect(q.count).toBe(20);
    const raw = await call('raw_lines', { session_id: AMP_PARENT, limit: 100 });
    expect(raw.lines).toHaveLength(20);
    expect((raw.lines as R[]).every((l) => l.file === `${own(AMP_PARENT)}transcript.jsonl`)).toBe(true);
    expect(raw.lines.map((l: R) => l.raw)).toEqual(readFileSync(join(ampRoot, AMP_DIR, AMP_PARENT, 'transcript.jsonl'), 'utf8').split('\n').slice(0, 20));
    const g = await call('grep_jsonl', { session_id: AMP_PARENT, ledger: 'transcript', pattern: '"role"', limit: 100 });
    expect(g.status).toBe('ok');
    expect(g.count).toBe(20);
    expect((g.entries as R[]).every((e) => e.file.startsWith(own(AMP_PARENT)))).toBe(true);
    const fork = await call('raw_lines', { session_id: AMP_FORK, limit: 100 });
    expect(fork.lines).toHaveLength(22);
  });
});

describe('search (search_sessions)', () => {
  it('takes query, scope (default all), project, date_range, limit (default 20), context_lines (default 2)', () => {
    const d = defaults('search_sessions', { query: 'x' });
    expect(d).toMatchObject({ scope: 'all', limit: 20, context_lines: 2 });
    expect(tool('search_sessions').input.safeParse({ query: 'x', project: 'p', date_range: 'today' }).success).toBe(true);
  });

  it('returns matches with session_id, project, created, match_type exactly metadata or transcript, excerpt, line_number', async () => {
    const r = await call('search_sessions', { query: 'deploy', limit: 500, max_bytes: 10_000_000 });
    expect(r.status).toBe('ok');
    const types = new Set<string>();
    for (const m of r.matches as R[]) {
      expectField(m, 'session_id', 'string');
      expectField(m, 'project', 'string', true);
      expectField(m, 'created', 'string', true);
      expectField(m, 'excerpt', 'string');
      expect(['metadata', 'transcript']).toContain(m.match_type);
      types.add(m.match_type);
      expect(m.created).toBe(m.started_at);
      if (m.match_type === 'transcript') {
        expectField(m, 'line_number', 'number');
        expect(m.match_field).toBeNull();
      } else {
        expect(m.line_number).toBeNull();
        expect(['title', 'first_user_message', 'id', 'agent_name', 'project', 'project_path']).toContain(m.match_field);
      }
    }
    expect([...types].sort()).toEqual(['metadata', 'transcript']);
  });
});

describe('get_events', () => {
  it('takes session_id, event_types, fields, limit (default 100), offset (default 0), errors_only (default false)', () => {
    expect(defaults('get_events', { session_id: 'x' })).toMatchObject({ limit: 100, offset: 0, errors_only: false });
    expect(tool('get_events').input.safeParse({ session_id: 'x', event_types: ['a'], fields: ['b'] }).success).toBe(true);
  });

  it('returns events with ts and event beside timestamp and type, total_count and has_more', async () => {
    const r = await call('get_events', { session_id: AMP_PARENT, limit: 5 });
    expectField(r, 'total_count', 'number');
    expectField(r, 'has_more', 'boolean');
    expect(r.has_more).toBe(true);
    for (const e of r.events as R[]) {
      expectField(e, 'ts', 'string', true);
      expectField(e, 'event', 'string');
      expect(e.ts).toBe(e.timestamp);
      expect(e.event).toBe(e.type);
      expect(e).not.toHaveProperty('data');
    }
  });
});

describe('list_files (admin seed)', () => {
  it('takes path (default .), max_depth (default 3), glob (default *); count is the total found past the 500 cut', async () => {
    expect(defaults('list_files')).toMatchObject({ path: '.', max_depth: 3, glob: '*' });
    const ws = tempDir('hs-ws-');
    mkdirSync(join(ws, 'many'));
    for (let i = 0; i < 520; i++) writeFileSync(join(ws, 'many', `f${String(i).padStart(3, '0')}.py`), 'x');
    const r = await call('list_files', { path: 'many', glob: '*.py' }, ws);
    expect(r).toMatchObject({ status: 'ok', root: 'many', count: 520, truncated: true });
    expect(r.files).toHaveLength(500);
    for (const f of r.files as R[]) {
      expectField(f, 'path', 'string');
      expectField(f, 'type', 'string');
      expectField(f, 'size', 'number');
    }
  });
});

describe('replay export header (session-replay-format.md)', () => {
  const header = async (session_id: string) => {
    const r = await call('export_session', { session_id, format: 'replay', redact: false });
    expect(r.status).toBe('ok');
    return JSON.parse((r.content as string).split('\n')[0]!) as R;
  };

  it('has v, session, cwd, branch and started — branch is the Claude Code gitBranch', async () => {
    const h = await header(CC_BIG);
    expect(h).toMatchObject({ v: 1, session: CC_BIG, cwd: '/home/USER/projects/spotter-worktrees/spotter-fum', branch: 'spotter-fum' });
    expect(h.started).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    for (const [name, kind] of [['v', 'number'], ['session', 'string'], ['cwd', 'string'], ['branch', 'string'], ['started', 'string']] as const) expectField(h, name, kind);
  });

  it('keeps every seed field present, null when the format does not say (Amplifier has no branch)', async () => {
    const h = await header(AMP_PARENT);
    expect(h).toMatchObject({ v: 1, session: AMP_PARENT, cwd: '/Users/jonas.weber/code/storefront-web', branch: null });
    expectField(h, 'started', 'string');
  });
});

describe('rewind (rewind_session)', () => {
  it('takes to_turn, to_message, before_timestamp (alias before) and dry_run (default true): a dry run changes nothing', async () => {
    const path = join(root, CC_DIR, `${CC_SHORT}.jsonl`);
    const before = readFileSync(path);
    const r = await call('rewind_session', { session_id: CC_SHORT, to_message: 2 });
    expect(r).toMatchObject({ status: 'ok', dry_run: true, applied: false, backup_created: false });
    expectField(r, 'would_remove', 'object');
    expectField(r.would_remove, 'messages', 'number');
    expectField(r.would_remove, 'events', 'number');
    expectField(r, 'new_turn_count', 'number');
    expect(r.would_remove).toEqual({ messages: r.removed.messages, events: r.removed.events });
    expect(r.new_turn_count).toBe(r.turn_count_after);
    expect(readFileSync(path).equals(before)).toBe(true);
    expect(await call('rewind_session', { session_id: CC_SHORT, to_message: 2, dry_run: true })).toMatchObject({ status: 'ok', applied: false });
    // before_timestamp and its alias give the same plan.
    const at = r.target.timestamp as string;
    const a = await call('rewind_session', { session_id: CC_SHORT, before_timestamp: at });
    const b = await call('rewind_session', { session_id: CC_SHORT, before: at });
    expect(a.status).toBe('ok');
    expect(a).toEqual(b);
    expect(await call('rewind_session', { session_id: CC_SHORT, before: at, before_timestamp: '2020-01-01T00:00:00Z' })).toMatchObject({ code: 'INVALID_ARGUMENTS' });
    expect(await call('rewind_session', { session_id: CC_SHORT, to_message: 2, dry_run: true, apply: true })).toMatchObject({ code: 'INVALID_ARGUMENTS' });
  });

  it('dry_run: false applies: backup_created true, and a REWIND entry in the session ledger that ingest and sync carry', async () => {
    const r = await call('rewind_session', { session_id: CC_SHORT, to_message: 2, dry_run: false });
    expect(r).toMatchObject({ status: 'ok', dry_run: false, applied: true, backup_created: true, recorded: true });
    const ledger = join(root, CC_DIR, CC_SHORT, 'hindsight-rewinds.jsonl');
    expect(r.rewind_ledger).toBe(ledger);
    const [entry, ...rest] = readFileSync(ledger, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as R);
    expect(rest).toEqual([]);
    expect(entry).toMatchObject({
      type: 'REWIND',
      session_id: CC_SHORT,
      target: { kind: 'message', requested: 2 },
      removed: r.removed,
      turn_count_after: r.new_turn_count,
      files: [{ file: `${CC_DIR}/${CC_SHORT}.jsonl`, lines_after: 12 }],
    });
    expect(existsSync(join(dirname(ledger), '..', entry!.files[0].backup))).toBe(true);

    await ingestPaths(store, [root]);
    // The store learns of the cut from the session's own evidence: a `rewinds` ledger and a finding.
    const s = await call('get_session', { session_id: CC_SHORT });
    expect((s.ledgers as R[]).map((l) => l.ledger)).toContain('rewinds');
    const raw = await call('raw_lines', { session_id: CC_SHORT, ledger: 'rewinds' });
    expect(JSON.parse(raw.lines[0].raw)).toMatchObject({ type: 'REWIND' });
    const { defects } = await store.listDefects({ sessionId: CC_SHORT, kind: 'rewind', limit: 10, offset: 0 });
    expect(defects).toMatchObject([{ severity: 'info', file: `${CC_DIR}/${CC_SHORT}/hindsight-rewinds.jsonl`, line: 1 }]);
    expect(defects[0]!.message).toMatch(/session cut by hindsight rewind_session .*\(message 2\)/);
    // Sync pushes what the inventory lists for the session: the rewind ledger is one of its files.
    const files = (await inventory(store)).flatMap((x) => x.files).filter((f) => f.key === CC_SHORT && !f.superseded);
    expect(files.map((f) => f.relPath)).toContain(`${CC_DIR}/${CC_SHORT}/hindsight-rewinds.jsonl`);
  });

  it('an Amplifier rewind writes its REWIND entry into the session folder, picked up as that session\'s ledger', async () => {
    const amp = copyFixture('amplifier/normal');
    ageFiles(amp);
    // A store of its own: the shared one already holds this session from another copy of the fixture.
    const own = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
    try {
      await ingestPaths(own, [amp]);
      const r = (await runTool(tool('rewind_session'), { session_id: AMP_PARENT, to_turn: 2, dry_run: false }, { store: own })) as R;
      expect(r).toMatchObject({ status: 'ok', applied: true, backup_created: true, new_turn_count: 2 });
      expect(r.rewind_ledger).toBe(join(amp, AMP_DIR, AMP_PARENT, 'hindsight-rewinds.jsonl'));
      await ingestPaths(own, [amp]);
      const s = (await runTool(tool('get_session'), { session_id: AMP_PARENT }, { store: own })) as R;
      expect(s.turn_count).toBe(2);
      const rewinds = (s.ledgers as R[]).find((l) => l.ledger === 'rewinds')!;
      expect(rewinds.files.map((f: R) => f.rel_path)).toEqual([`${AMP_DIR}/${AMP_PARENT}/hindsight-rewinds.jsonl`]);
      const { defects } = await own.listDefects({ sessionId: AMP_PARENT, kind: 'rewind', limit: 10, offset: 0 });
      expect(defects).toHaveLength(1);
      // The fork's ledgers do not pick up its parent's rewind.
      const fork = (await runTool(tool('get_session'), { session_id: AMP_FORK }, { store: own })) as R;
      expect((fork.ledgers as R[]).map((l) => l.ledger)).not.toContain('rewinds');
    } finally {
      await own.close();
    }
  });
});

it('FIXTURES are read-only inputs: the tests wrote only to copies', () => {
  expect(existsSync(join(FIXTURES, 'claude-code', CC_DIR, CC_SHORT, 'hindsight-rewinds.jsonl'))).toBe(false);
});
