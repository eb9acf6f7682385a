// The recorder on its own: the file it writes, resume, a SIGKILL mid-step (a real child process),
// a store that cannot be opened, and sync() making a step visible to the tools at once.

import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO, tempDir } from '../../../test/helpers.js';
import { steppingClock } from '../../../test/runtime-session.js';
import { hindsightFormat } from '../../formats/hindsight/index.js';
import { runImporter } from '../../ingest/harness.js';
import { SqliteStore } from '../../store/sqlite/sqlite-store.js';
import { findTool } from '../../tools/registry.js';
import { runTool } from '../../tools/tool.js';
import { createRecorder, type RecordEntry } from './recorder.js';

type Obj = Record<string, any>;

const START: RecordEntry = { type: 'session_start', mode: 'ask', provider: 'anthropic-messages', model: 'claude-sonnet-4-5', cwd: '/work/demo', agent: 'default', tools_allowed: [], hindsight_version: '0.4.0' };
const stores: SqliteStore[] = [];
afterAll(() => stores.forEach((s) => s.close()));

function newStore(): SqliteStore {
  const store = new SqliteStore(join(tempDir('hs-rec-db-'), 'h.db'));
  stores.push(store);
  return store;
}

const lines = (path: string) => readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Obj);

describe('the session file', () => {
  it('is <root>/YYYY/MM/DD/<uuid>.jsonl, one record a line with session_id, seq and ts', async () => {
    const root = tempDir('hs-rec-');
    const rec = createRecorder({ sessionsRoot: root, clock: () => new Date('2026-05-11T23:59:59.500Z'), store: null });
    expect(rec.sessionId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(rec.path).toBe(join(root, '2026', '05', '11', `${rec.sessionId}.jsonl`));
    rec.record(START);
    rec.record({ type: 'message', role: 'user', content: 'hello', turn: 1 });
    await rec.close();
    expect(lines(rec.path)).toEqual([
      { type: 'session_start', session_id: rec.sessionId, seq: 0, ts: '2026-05-11T23:59:59.500Z', mode: 'ask', provider: 'anthropic-messages', model: 'claude-sonnet-4-5', cwd: '/work/demo', agent: 'default', tools_allowed: [], hindsight_version: '0.4.0' },
      { type: 'message', session_id: rec.sessionId, seq: 1, ts: '2026-05-11T23:59:59.500Z', role: 'user', content: 'hello', turn: 1 },
    ]);
    expect(() => rec.record({ type: 'message', role: 'user', content: 'late', turn: 2 })).toThrow(/closed/);
  });

  it('resumes a session in its own file: numbering goes on, a cut last line is closed off first', async () => {
    const root = tempDir('hs-rec-');
    const first = createRecorder({ sessionsRoot: root, clock: steppingClock('2026-05-10T08:00:00Z'), store: null });
    first.record(START);
    first.record({ type: 'message', role: 'user', content: 'first', turn: 1 });
    await first.close();
    writeFileSync(first.path, '{"type":"message","role":"assis', { flag: 'a' }); // a writer killed mid-line
    const again = createRecorder({ sessionsRoot: root, sessionId: first.sessionId, clock: steppingClock('2026-05-12T08:00:00Z'), store: null });
    expect(again.path).toBe(first.path);
    again.record({ type: 'message', role: 'user', content: 'second', turn: 2 });
    await again.close();
    const text = readFileSync(first.path, 'utf8').split('\n');
    expect(text[2]).toBe('{"type":"message","role":"assis');
    expect(JSON.parse(text[3]!)).toMatchObject({ seq: 3, content: 'second' });
    const parsed = await runImporter(hindsightFormat, root);
    expect(parsed.defects.filter((d) => d.severity === 'error').map((d) => [d.kind, d.line])).toEqual([['malformed_json', 3]]);
    expect(parsed.sessions.get(first.sessionId)!.summary.turnCount).toBe(2);
  });
});

describe('a SIGKILL mid-step', () => {
  it('loses at most the line being written: every earlier line parses, seqs run unbroken', async () => {
    const root = tempDir('hs-kill-');
    const id = '0b6c2a4e-1f3d-4c5b-8a9e-7d6f5e4c3b2a';
    const child = spawn(join(REPO, 'node_modules', '.bin', 'vite-node'), [join(REPO, 'src', 'runtime', 'recording', 'test-kill-child.ts'), root, id], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += String(d)));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d) => String(d).includes('ready') && resolve());
      child.on('exit', (code) => reject(new Error(`child exited (${code}) before it was ready: ${stderr}`)));
    });
    // Let it write on for a moment, then kill it without warning.
    await new Promise((r) => setTimeout(r, 150));
    const exited = new Promise((r) => child.on('exit', (_code, signal) => r(signal)));
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const parsed = await runImporter(hindsightFormat, root);
    const [file] = parsed.files;
    const counts = parsed.lines.get(file!.relPath)!;
    expect(counts.bad).toBe(0);
    expect(counts.incomplete).toBeLessThanOrEqual(1);
    // Nothing but the line in flight is missing: the complete lines are seq 0…n-1 without a gap.
    const raw = readFileSync(file!.path, 'utf8');
    const complete = raw.slice(0, raw.lastIndexOf('\n') + 1).split('\n').filter(Boolean).map((l) => JSON.parse(l) as Obj);
    expect(complete.length).toBeGreaterThan(17); // session_start, the prompt and five steps at least
    expect(complete.map((l) => l.seq)).toEqual(complete.map((_, i) => i));
    expect(parsed.defects.filter((d) => d.severity === 'error')).toEqual([]);
    const session = parsed.sessions.get(id)!;
    expect(session.summary.status).toBe('active');
    expect(session.calls.length).toBe(complete.filter((l) => l.type === 'model_call').length);
  }, 60_000);
});

describe('a store that cannot be opened', () => {
  it('recording goes on, and the warning is given once', async () => {
    const root = tempDir('hs-rec-');
    // A folder that cannot be made (a file stands where it should be): refused even to root.
    const blocker = join(tempDir('hs-ro-'), 'not-a-folder');
    writeFileSync(blocker, '');
    const warnings: string[] = [];
    const rec = createRecorder({ sessionsRoot: root, db: join(blocker, 'store', 'h.db'), onStoreWarning: (m) => warnings.push(m) });
    rec.record(START);
    await rec.sync();
    rec.record({ type: 'message', role: 'user', content: 'still recorded', turn: 1 });
    await rec.sync();
    await rec.sync();
    rec.record({ type: 'turn_end', turn: 1, terminal_state: 'completed', steps: 0, tool_calls: 0, content: null });
    await rec.close();
    expect(lines(rec.path).map((l) => l.seq)).toEqual([0, 1, 2]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(rec.path);
    expect(warnings[0]).toContain('cannot be opened');
    expect(warnings[0]).toContain('hindsight ingest');
  });

  it('a store that opens but cannot be written warns once too, and recording goes on', async () => {
    const store = newStore();
    await store.close();
    const warnings: string[] = [];
    const rec = createRecorder({ sessionsRoot: tempDir('hs-rec-'), store, onStoreWarning: (m) => warnings.push(m) });
    for (let i = 0; i < 3; i++) {
      rec.record(i === 0 ? START : { type: 'message', role: 'user', content: `prompt ${i}`, turn: i });
      await rec.sync();
    }
    await rec.close();
    expect(lines(rec.path)).toHaveLength(3);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('could not be brought up to date');
  });
});

describe('sync()', () => {
  it('makes each step visible to list_sessions and get_events as soon as it returns', async () => {
    const store = newStore();
    const rec = createRecorder({ sessionsRoot: tempDir('hs-rec-'), store, clock: steppingClock(), onStoreWarning: (m) => expect.fail(m) });
    const tool = (name: string, args: Obj) => runTool(findTool(name)!, args, { store }) as Promise<Obj>;
    rec.record(START);
    rec.record({ type: 'message', role: 'user', content: 'what is in the box?', turn: 1 });
    await rec.sync();
    const listed = await tool('list_sessions', {});
    expect(listed.sessions).toEqual([expect.objectContaining({ session_id: rec.sessionId, format: 'hindsight', status: 'active', title: 'what is in the box?' })]);

    rec.record({ type: 'model_call', turn: 1, step: 1, provider: 'anthropic-messages', model: 'claude-sonnet-4-5', usage: { input_tokens: 50, output_tokens: 7, cache_read_tokens: 0, cache_creation_tokens: 0, reasoning_tokens: 0 }, usage_source: 'provider', finish_reason: 'end_turn', response_id: 'msg_1', duration_ms: 300, cost_usd: 0.00026 });
    rec.record({ type: 'message', role: 'assistant', content: 'A cat.', turn: 1, step: 1 });
    rec.record({ type: 'turn_end', turn: 1, terminal_state: 'completed', steps: 1, tool_calls: 0, content: 'A cat.' });
    await rec.sync();
    const events = await tool('get_events', { session_id: rec.sessionId });
    expect((events.events as Obj[]).map((e) => e.kind)).toEqual(['session_start', 'user_message', 'llm_call', 'assistant_message', 'system']);
    const after = await tool('list_sessions', {});
    expect(after.sessions[0]).toMatchObject({ status: 'completed', last_response_preview: 'A cat.', tokens: { input: 50, output: 7 } });
    await rec.close();
    // Nothing new: a sync after close reads nothing and the store is unchanged.
    expect((await tool('get_events', { session_id: rec.sessionId })).count).toBe(5);
  });

  it('a parent and its handoff child syncing at once take turns on the store', async () => {
    const store = newStore();
    const warnings: string[] = [];
    const root = tempDir('hs-rec-');
    const parent = createRecorder({ sessionsRoot: root, store, onStoreWarning: (m) => warnings.push(m) });
    const child = createRecorder({ sessionsRoot: root, store, onStoreWarning: (m) => warnings.push(m) });
    parent.record(START);
    child.record({ ...START, parent_session_id: parent.sessionId } as RecordEntry);
    await Promise.all([parent.sync(), child.sync()]);
    await Promise.all([parent.close(), child.close()]);
    expect(warnings).toEqual([]);
    const listed = (await runTool(findTool('list_sessions')!, { top_level_only: false }, { store })) as Obj;
    expect(listed.sessions.find((s: Obj) => s.session_id === child.sessionId)).toMatchObject({ parent_id: parent.sessionId, kind: 'subagent' });
  });
});

describe('sync() called without waiting', () => {
  it('coalesces: calls made while one runs share the next, and every step ends up in the store', async () => {
    const store = newStore();
    const rec = createRecorder({ sessionsRoot: tempDir('hs-rec-'), store, clock: steppingClock(), onStoreWarning: (m) => expect.fail(m) });
    rec.record(START);
    const pending: Promise<void>[] = [];
    for (let turn = 1; turn <= 5; turn++) {
      rec.record({ type: 'message', role: 'user', content: `prompt ${turn}`, turn });
      pending.push(rec.sync());
    }
    await Promise.all(pending);
    const events = (await runTool(findTool('get_events')!, { session_id: rec.sessionId }, { store })) as Obj;
    expect(events.count).toBe(6);
    await rec.close();
  });
});
