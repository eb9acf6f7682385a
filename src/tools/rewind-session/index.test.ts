import { appendFileSync, readdirSync, readFileSync, statSync, utimesSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyFixture, tempDir } from '../../../test/helpers.js';
import { ingestPaths } from '../../ingest/ingest.js';
import { SqliteStore } from '../../store/sqlite/sqlite-store.js';
import { findTool } from '../registry.js';
import { runTool } from '../tool.js';
import { backupStamp } from './apply.js';
import { rewindSession } from './index.js';

const CC_SUB = '491e126e-1e71-469c-ade2-fcc8af567c74';
const CC_SHORT = '55604662-cf2a-4331-851a-ec234028f8ca';
const AMP = 'ffe1fc2a-7f03-488a-a918-7e4d085b8270';
const CC_DIR = 'projects/-home-marco-projects-spotter';
const AMP_DIR = 'projects/-Users-jonas.weber-code-storefront-web/sessions/ffe1fc2a-7f03-488a-a918-7e4d085b8270';

type R = Record<string, any>;

/** Every file's mtime an hour back, so the 60-second live guard only fires when a test wants it. */
function ageFiles(dir: string): void {
  const past = new Date(Date.now() - 3_600_000);
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) utimesSync(join(e.parentPath, e.name), past, past);
  }
}

async function setup(rel: string): Promise<{ root: string; store: SqliteStore; call: (args: unknown) => Promise<R> }> {
  const root = copyFixture(rel);
  ageFiles(root);
  const store = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
  await ingestPaths(store, [root]);
  return { root, store, call: (args) => runTool(rewindSession, args, { store }) as Promise<R> };
}

const jsonLines = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as R);

/** Claude Code resume check: every tool_use id has a tool_result with its tool_use_id. */
function unansweredClaude(path: string): string[] {
  const calls: string[] = [];
  const results = new Set<string>();
  for (const o of jsonLines(path)) {
    const content = o.message?.content;
    if (!Array.isArray(content)) continue;
    for (const b of content) {
      if (b.type === 'tool_use') calls.push(b.id);
      if (b.type === 'tool_result') results.add(b.tool_use_id);
    }
  }
  return calls.filter((id) => !results.has(id));
}

/** Amplifier resume check: every assistant tool_call id has a tool message with its tool_call_id. */
function unansweredAmplifier(path: string): string[] {
  const calls: string[] = [];
  const results = new Set<string>();
  for (const o of jsonLines(path)) {
    if (o.role === 'tool') results.add(o.tool_call_id);
    if (o.role === 'assistant' && Array.isArray(o.content)) for (const b of o.content) if (b.type === 'tool_call') calls.push(b.id);
  }
  return calls.filter((id) => !results.has(id));
}

describe('rewind_session dry run', () => {
  it('Claude Code to_turn 1 cuts before the prompt of turn 2 and changes nothing', async () => {
    const { root, call } = await setup('claude-code');
    const path = join(root, CC_DIR, `${CC_SUB}.jsonl`);
    const before = readFileSync(path);
    const r = await call({ session_id: CC_SUB, to_turn: 1 });
    expect(r).toMatchObject({
      status: 'ok',
      format: 'claude-code',
      applied: false,
      nothing_to_remove: false,
      target: { kind: 'turn', requested: 1, ledger: 'transcript', line_number: 71, timestamp: '2026-02-10T22:01:14.815Z', adjusted: false },
      removed: { messages: 5, events: 26, tool_calls: 4 },
      turn_count_before: 2,
      turn_count_after: 1,
      message_count_before: 16,
      message_count_after: 11,
    });
    const kept = Buffer.byteLength(before.toString('utf8').split('\n').slice(0, 70).join('\n')) + 1;
    expect(r.files).toEqual([
      { ledger: 'transcript', file: `${CC_DIR}/${CC_SUB}.jsonl`, path, lines_before: 96, lines_after: 70, bytes_before: before.length, bytes_after: kept },
    ]);
    expect(readFileSync(path).equals(before)).toBe(true);
    expect(JSON.stringify(await call({ session_id: CC_SUB, to_turn: 1 }))).toBe(JSON.stringify(r));
  });

  it('moves a cut that falls between a tool call and its result before the call (and to its message start)', async () => {
    const { call } = await setup('claude-code');
    // 21:55:11.344 first reaches line 20, a hook line between the Bash call (19) and its result (21).
    const r = await call({ session_id: CC_SUB, before: '2026-02-10T21:55:11.344Z' });
    expect(r.target).toMatchObject({ kind: 'time', line_number: 17, adjusted: true, moved_before_tool_calls: ['toolu_01MumzJGYTo26Ds3LsuSkd5Z'] });
    // The Task call that started sub-agent afb92ff is cut away: reported, its (absent) file untouched.
    expect(r.subagents_left_in_place).toEqual([{ session_id: `${CC_SUB}:afb92ff`, kind: 'subagent', files: [] }]);
    const short = await setup('claude-code');
    const s = await short.call({ session_id: CC_SHORT, to_message: 2 });
    expect(s).toMatchObject({ target: { line_number: 13 }, removed: { messages: 1, events: 3, tool_calls: 0 }, message_count_before: 3 });
  });

  it('Amplifier to_turn 1 cuts transcript and events consistently and reports the stale metadata turn_count', async () => {
    const { call } = await setup('amplifier/normal');
    const r = await call({ session_id: AMP, to_turn: 1 });
    expect(r).toMatchObject({
      status: 'ok',
      format: 'amplifier',
      target: { line_number: 9, timestamp: '2026-06-10T16:07:38.335Z' },
      turn_count_before: 4,
      turn_count_after: 1,
      removed: { messages: 9, tool_calls: 3, events: 121 },
      metadata: { file: `${AMP_DIR}/metadata.json`, turn_count: 4, stale: true },
    });
    expect(r.files.map((f: R) => [f.ledger, f.lines_before, f.lines_after])).toEqual([
      ['transcript', 20, 8],
      ['events', 167, 64], // up to cleanup:store_end of turn 1; line 65 is turn 2's prompt:submit
    ]);
    expect(r.warnings.join(' ')).toMatch(/turn_count 4/);
  });

  it('rewinding to the last turn removes nothing', async () => {
    const { call } = await setup('claude-code');
    expect(await call({ session_id: CC_SUB, to_turn: 2 })).toMatchObject({ status: 'ok', nothing_to_remove: true, removed: { messages: 0, events: 0 } });
    expect(await call({ session_id: CC_SUB, to_turn: 2, apply: true })).toMatchObject({ status: 'ok', applied: false });
  });
});

describe('rewind_session apply', () => {
  it('Claude Code: backup equals the original, the cut file parses and pairs every call, re-ingest keeps the old generation', async () => {
    const { root, store, call } = await setup('claude-code');
    const path = join(root, CC_DIR, `${CC_SUB}.jsonl`);
    const original = readFileSync(path);
    const r = await call({ session_id: CC_SUB, to_turn: 1, apply: true });
    expect(r).toMatchObject({ status: 'ok', applied: true, recorded: true, next: `hindsight ingest ${root}` });
    expect(r.backups).toHaveLength(1);
    expect(r.backups[0].backup).toMatch(new RegExp(`${CC_SUB}\\.jsonl\\.bak-pre-rewind-\\d{8}T\\d{6}Z$`));
    expect(readFileSync(r.backups[0].backup).equals(original)).toBe(true);
    expect(statSync(path).size).toBe(r.files[0].bytes_after);
    expect(jsonLines(path)).toHaveLength(70);
    expect(unansweredClaude(path)).toEqual([]);

    await ingestPaths(store, [root]);
    expect((await store.getSession(CC_SUB))!.turnCount).toBe(1);
    const { defects } = await store.listDefects({ sessionId: CC_SUB, limit: 50, offset: 0 });
    expect(defects.filter((d) => d.kind === 'rewritten_source').map((d) => d.file)).toEqual([`${CC_DIR}/${CC_SUB}.jsonl`]);
    // The REWIND entry of the session's rewind ledger, recorded by the ingest.
    expect(defects.filter((d) => d.kind === 'rewind')).toMatchObject([{ severity: 'info', file: `${CC_DIR}/${CC_SUB}/hindsight-rewinds.jsonl`, line: 1 }]);
    const old = (await runTool(findTool('raw_lines')!, { session_id: CC_SUB, generation: 1, from_line: 71, limit: 100 }, { store })) as R;
    const originalLines = original.toString('utf8').split('\n');
    expect(old.lines.map((l: R) => l.raw)).toEqual(originalLines.slice(70, 96));
  });

  it('Claude Code short session to_message 2: cut keeps the answered calls', async () => {
    const { root, store, call } = await setup('claude-code');
    const path = join(root, CC_DIR, `${CC_SHORT}.jsonl`);
    const r = await call({ session_id: CC_SHORT, to_message: 2, apply: true });
    expect(r).toMatchObject({ status: 'ok', applied: true });
    expect(jsonLines(path)).toHaveLength(12);
    expect(unansweredClaude(path)).toEqual([]);
    await ingestPaths(store, [root]);
    expect((await store.getSession(CC_SHORT))!.turnCount).toBe(1);
  });

  it('Amplifier: both files cut and backed up, metadata.json untouched, re-ingest gives the new turn count', async () => {
    const { root, store, call } = await setup('amplifier/normal');
    const dir = join(root, AMP_DIR);
    const originals = Object.fromEntries(['transcript.jsonl', 'events.jsonl', 'metadata.json'].map((f) => [f, readFileSync(join(dir, f))]));
    const r = await call({ session_id: AMP, to_turn: 2, apply: true });
    expect(r).toMatchObject({ status: 'ok', applied: true, turn_count_after: 2 });
    expect(r.backups.map((b: R) => b.file)).toEqual([`${AMP_DIR}/transcript.jsonl`, `${AMP_DIR}/events.jsonl`]);
    for (const b of r.backups) expect(readFileSync(b.backup).equals(originals[b.file.split('/').pop()!]!)).toBe(true);
    expect(readFileSync(join(dir, 'metadata.json')).equals(originals['metadata.json']!)).toBe(true);
    expect(jsonLines(join(dir, 'transcript.jsonl'))).toHaveLength(14);
    expect(unansweredAmplifier(join(dir, 'transcript.jsonl'))).toEqual([]);
    const events = jsonLines(join(dir, 'events.jsonl'));
    expect(events.at(-1)!.event).toBe('cleanup:store_end');
    expect(events.filter((e) => e.event === 'prompt:submit')).toHaveLength(2);

    await ingestPaths(store, [root]);
    const s = (await store.getSession(AMP))!;
    expect(s.turnCount).toBe(2);
    expect(s.status).toBe('completed');
    const { defects } = await store.listDefects({ sessionId: AMP, limit: 50, offset: 0 });
    expect(defects.map((d) => d.kind)).not.toContain('transcript_shorter_than_events');
    expect(defects.filter((d) => d.kind === 'rewritten_source')).toHaveLength(2);
    const old = (await runTool(findTool('raw_lines')!, { session_id: AMP, ledger: 'events', generation: 1, limit: 2000 }, { store })) as R;
    expect(old.lines.every((l: R) => l.file === `${AMP_DIR}/events.jsonl`)).toBe(true); // its own file only, not its fork's
    const removed = old.lines.filter((l: R) => l.line_number >= 112);
    expect(removed.map((l: R) => l.raw)).toEqual(originals['events.jsonl']!.toString('utf8').split('\n').slice(111, 167));
  });

  it('refuses a session written in the last 60 seconds unless force', async () => {
    const { root, store, call } = await setup('claude-code');
    const path = join(root, CC_DIR, `${CC_SHORT}.jsonl`);
    const now = new Date();
    utimesSync(path, now, now);
    await ingestPaths(store, [root]); // the store is up to date: only the live guard can refuse
    const before = readFileSync(path);
    const r = await call({ session_id: CC_SHORT, to_message: 2, apply: true });
    expect(r).toMatchObject({ status: 'error', code: 'SESSION_LIVE' });
    expect(r.error).toMatch(/60 seconds.*force/);
    expect(readFileSync(path).equals(before)).toBe(true);
    expect(readdirSync(dirname(path)).filter((n) => n.includes('bak-pre-rewind'))).toEqual([]);
    expect(await call({ session_id: CC_SHORT, to_message: 2, apply: true, force: true })).toMatchObject({ status: 'ok', applied: true });
  });

  it('refuses a file changed since ingest and says to re-ingest first', async () => {
    const { root, call } = await setup('claude-code');
    const path = join(root, CC_DIR, `${CC_SUB}.jsonl`);
    appendFileSync(path, '{"type":"user"}\n');
    const past = new Date(Date.now() - 3_600_000);
    utimesSync(path, past, past);
    const r = await call({ session_id: CC_SUB, to_turn: 1, apply: true, force: true });
    expect(r).toMatchObject({ status: 'error', code: 'SOURCE_CHANGED' });
    expect(r.error).toContain(`hindsight ingest ${root}`);
    expect(readdirSync(dirname(path)).filter((n) => n.includes('bak-pre-rewind'))).toEqual([]);
  });
});

describe('rewind_session refusals and bad input', () => {
  it('refuses Control Plane sessions: ledgers are append-only and hash-chained', async () => {
    const { store, call } = await setup('control-plane/normal');
    const { sessions } = await store.listSessions({ limit: 1, offset: 0 });
    const r = await call({ session_id: sessions[0]!.id, to_turn: 1 });
    expect(r).toMatchObject({ status: 'error', code: 'REWIND_REFUSED' });
    expect(r.error).toMatch(/append-only and hash-chained/);
  });

  it('refuses a Claude Code sub-agent (its Task result lives in the parent)', async () => {
    const { call } = await setup('claude-code');
    const r = await call({ session_id: '8463c716-a2ea-4c14-9efa-87158ebd9f20:a7be2f0', to_message: 1 });
    expect(r).toMatchObject({ status: 'error', code: 'REWIND_REFUSED' });
  });

  it('rejects out-of-range targets naming the valid range', async () => {
    const { call } = await setup('claude-code');
    for (const to_turn of [0, -1, 3]) {
      const r = await call({ session_id: CC_SUB, to_turn });
      expect(r).toMatchObject({ status: 'error', code: 'INVALID_ARGUMENTS' });
      expect(r.error).toContain('between 1 and 2');
    }
    for (const to_message of [0, 17]) expect((await call({ session_id: CC_SUB, to_message })).error).toContain('between 1 and 16');
    const early = await call({ session_id: CC_SUB, before: '2026-02-10T21:00:00Z' });
    expect(early).toMatchObject({ code: 'INVALID_ARGUMENTS' });
    expect(early.error).toContain('after 2026-02-10T21:54:53.186Z');
    expect((await call({ session_id: CC_SUB, before: 'yesterday' })).error).toMatch(/ISO-8601/);
    expect(await call({ session_id: CC_SUB, to_turn: 1.5 })).toMatchObject({ code: 'INVALID_ARGUMENTS' });
  });

  it('needs exactly one target', async () => {
    const { call } = await setup('claude-code');
    expect((await call({ session_id: CC_SUB })).error).toMatch(/exactly one of to_turn, to_message or before_timestamp \(alias before\) \(got 0\)/);
    expect((await call({ session_id: CC_SUB, to_turn: 1, to_message: 2 })).error).toMatch(/\(got 2\)/);
  });

  it('unknown session → SESSION_NOT_FOUND', async () => {
    const { call } = await setup('claude-code');
    expect(await call({ session_id: 'nope-nope', to_turn: 1 })).toMatchObject({ status: 'error', code: 'SESSION_NOT_FOUND' });
  });

  it('backup stamps are UTC YYYYMMDDTHHMMSSZ', () => {
    expect(backupStamp(Date.UTC(2026, 1, 10, 22, 3, 14, 999))).toBe('20260210T220314Z');
  });
});
