// get_session: metadata with source files, events summary, a bounded transcript page, prefixes
// and bad input — over the shared fixtures and a built Claude Code transcript.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, FIXTURES, tempDir } from '../../../test/helpers.js';
import { assistantLine, makeConfigDir, SID, SLUG, text, userLine } from '../../formats/claude-code/test-lines.js';
import { ingestPaths } from '../../ingest/ingest.js';
import { SqliteStore } from '../../store/sqlite/sqlite-store.js';
import { runTool } from '../tool.js';
import { getSession } from './index.js';

type Result = Record<string, any>;

const PARENT = '8463c716-a2ea-4c14-9efa-87158ebd9f20';
const SECRET = 'sk-ant-api03-Zx81bQv0LmTn4Kd7Wq2Rs9Hc6Yf3Ja5E';

let store: SqliteStore;
const call = (args: unknown) => runTool(getSession, args, { store }) as Promise<Result>;

function longPromptDir(): string {
  return makeConfigDir({
    [`${SLUG}/${SID}.jsonl`]: [
      userLine('u1', null, 1, `key ${SECRET} then ${'long words '.repeat(1_000)}`),
      assistantLine('a1', 'u1', 2, { msg: 'm1', req: 'r1' }, [text('short answer')], { input_tokens: 10, output_tokens: 5 }),
      userLine('u2', 'a1', 3, 'second prompt'),
      assistantLine('a2', 'u2', 4, { msg: 'm2', req: 'r2' }, [text('second answer')], { input_tokens: 20, output_tokens: 7 }),
    ],
  });
}

beforeAll(async () => {
  store = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
  await ingestPaths(store, [copyFixture('control-plane/normal'), copyFixture('claude-code'), copyFixture('amplifier/normal'), longPromptDir()]);
});
afterAll(() => store.close());

describe('metadata', () => {
  it('gives the list_sessions fields, project path, source path, ledgers with line counts, children and tokens', async () => {
    const r = await call({ session_id: PARENT });
    expect(r.status).toBe('ok');
    const row = (await store.getSession(PARENT))!;
    expect(r).toMatchObject({
      session_id: PARENT,
      format: 'claude-code',
      session_status: row.status,
      turn_count: row.turnCount,
      project_path: row.projectPath,
      source: 'local',
      children_count: 2,
      models: row.models,
    });
    expect(r.children_ids).toEqual([`${PARENT}:a7be2f0`, `${PARENT}:acompact-f46190`]);
    expect(r.tokens.own.total).toBe(row.tokensOwn.input + row.tokensOwn.output + row.tokensOwn.cacheWrite + row.tokensOwn.cacheRead);
    expect(r.tokens.total.input).toBe(row.tokensTotal.input);
    expect(r.path).toMatch(new RegExp(`${PARENT}\\.jsonl$`, 'u'));
    // Line counts of every source file agree with the fixture's expected.json.
    const expected = JSON.parse(readFileSync(join(FIXTURES, 'claude-code', 'expected.json'), 'utf8')).sessions[PARENT].files as { path: string; lines: number }[];
    const files = r.ledgers.flatMap((l: Result) => l.files);
    for (const want of expected) expect(files.find((f: Result) => f.rel_path === want.path)?.lines, want.path).toBe(want.lines);
  });

  it('works for Control Plane and Amplifier sessions (ledgers of the plane root; Amplifier metadata facts)', async () => {
    const cp = await call({ session_id: 'SES-8ACD6A79' });
    expect(cp.ledgers.map((l: Result) => l.ledger).sort()).toEqual(['governance', 'ho1m', 'ho2m']);
    expect(cp.path).toMatch(/HO2\/ledger\/ho2m\.jsonl$/u);
    const amp = (await store.listSessions({ format: 'amplifier', limit: 1, offset: 0 })).sessions[0]!;
    const a = await call({ session_id: amp.id });
    expect(a.status).toBe('ok');
    expect(a.ledgers.map((l: Result) => l.ledger)).toContain('events');
    expect(typeof a.metadata).toBe('object');
  });

  it('events summary when asked: counts by type and kind, first/last, errors; null by default (the seed: default false)', async () => {
    const r = await call({ session_id: 'SES-28917E0E', include_events_summary: true });
    expect(r.events_summary.total_events).toBe((await store.getSession('SES-28917E0E'))!.eventCount);
    expect(r.events_summary.event_types.DEGRADATION).toBeGreaterThan(0);
    expect(r.events_summary.first_errors[0]).toMatchObject({ event: 'DEGRADATION', ledger: expect.any(String), line_number: expect.any(Number) });
    expect(r.transcript).toBeNull();
    const off = await call({ session_id: 'SES-28917E0E' });
    expect(off.events_summary).toBeNull();
  });
});

describe('transcript', () => {
  it('pages user and assistant messages with a bounded text per message and a visible cut marker', async () => {
    const r = await call({ session_id: SID, include_transcript: true });
    expect(r.transcript).toMatchObject({ count: 4, returned: 4, has_more: false });
    expect(r.transcript.messages.map((m: Result) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    const first = r.transcript.messages[0];
    expect(first.chars).toBeGreaterThan(10_000);
    expect(first.text).toMatch(/…\[cut [\d,]+ chars\]$/u);
    expect(first.text.length).toBeLessThan(2_100);
    expect(first.text).not.toContain(SECRET);
    const page = await call({ session_id: SID, include_transcript: true, transcript_offset: 2, transcript_limit: 1 });
    expect(page.transcript).toMatchObject({ count: 4, returned: 1, has_more: true, next_offset: 3 });
    expect(page.transcript.messages[0]).toMatchObject({ index: 2, text: 'second prompt' });
  });

  it('a Control Plane turn is the user message and the response of its TURN_RECORDED', async () => {
    const r = await call({ session_id: 'SES-8ACD6A79', include_transcript: true, transcript_limit: 2 });
    expect(r.transcript.count).toBe(12);
    expect(r.transcript.messages[0]).toMatchObject({ role: 'user', text: '列出会话\n然后总结一下 😀\n\tthanks', type: 'TURN_RECORDED' });
    expect(r.transcript.messages[1].role).toBe('assistant');
  });

  it('max_bytes cuts transcript messages first and says truncated', async () => {
    const r = await call({ session_id: PARENT, include_transcript: true, transcript_limit: 200, max_bytes: 20_000 });
    expect(r.truncated).toBe(true);
    expect(Buffer.byteLength(JSON.stringify(r))).toBeLessThanOrEqual(20_000);
    expect(r.transcript.returned).toBe(r.transcript.messages.length);
    expect(r.transcript.next_offset).toBe(r.transcript.returned);
  });
});

describe('bad input', () => {
  it('prefix resolution: unique prefix, ambiguous prefix (candidates listed), nothing', async () => {
    expect((await call({ session_id: '491e126e' })).session_id).toBe('491e126e-1e71-469c-ade2-fcc8af567c74');
    const amb = await call({ session_id: 'SES-' });
    expect(amb).toMatchObject({ status: 'error', code: 'AMBIGUOUS_SESSION' });
    expect(amb.error).toContain('SES-086A7CB0');
    expect(await call({ session_id: 'zzzz9999' })).toMatchObject({ status: 'error', code: 'SESSION_NOT_FOUND' });
  });

  it('transcript_limit out of range and unknown arguments are errors', async () => {
    for (const transcript_limit of [0, -1, 201, 'x']) {
      const r = await call({ session_id: SID, include_transcript: true, transcript_limit });
      expect(r).toMatchObject({ status: 'error', code: 'INVALID_ARGUMENTS' });
      expect(r.error).toContain('1 to 200');
    }
    expect(await call({ session_id: SID, bogus: 1 })).toMatchObject({ status: 'error', code: 'INVALID_ARGUMENTS' });
  });

  it('determinism: the same call twice gives byte-identical JSON', async () => {
    const args = { session_id: PARENT, include_transcript: true, transcript_limit: 20 };
    expect(JSON.stringify(await call(args))).toBe(JSON.stringify(await call(args)));
  });
});
