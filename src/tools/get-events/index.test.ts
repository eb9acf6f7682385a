// get_events: safe by default (no payloads), fields projected from the raw lines and bounded,
// filters, paging and bad input — over the shared fixtures and a built Claude Code transcript.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, tempDir } from '../../../test/helpers.js';
import { assistantLine, makeConfigDir, SID, SLUG, text, toolResult, toolUse, userLine } from '../../formats/claude-code/test-lines.js';
import { ingestPaths } from '../../ingest/ingest.js';
import { SqliteStore } from '../../store/sqlite/sqlite-store.js';
import { runTool } from '../tool.js';
import { capText, capValue, groupDigits } from '../../analysis/text-cap.js';
import { getEvents } from './index.js';

type Result = Record<string, any>;

const CC = '491e126e-1e71-469c-ade2-fcc8af567c74';
const SECRET = 'sk-ant-api03-Zx81bQv0LmTn4Kd7Wq2Rs9Hc6Yf3Ja5E';
const BASE_KEYS = ['index', 'seq', 'ts', 'event', 'timestamp', 'type', 'kind', 'turn', 'is_error', 'ledger', 'file', 'line_number'].sort();

let store: SqliteStore;
let ccRoot: string;
const call = (args: unknown) => runTool(getEvents, args, { store }) as Promise<Result>;

/** A session whose one tool result is 100 KB, and whose prompt holds a secret. */
function bigResultDir(): string {
  return makeConfigDir({
    [`${SLUG}/${SID}.jsonl`]: [
      userLine('u1', null, 1, `run it with ${SECRET}`),
      assistantLine('a1', 'u1', 2, { msg: 'm1', req: 'r1' }, [toolUse('t1', 'Bash', { command: 'cat big' })], { input_tokens: 10, output_tokens: 5 }),
      userLine('u2', 'a1', 3, [toolResult('t1', 'x'.repeat(100_000))]),
      assistantLine('a2', 'u2', 4, { msg: 'm2', req: 'r2' }, [text('done')], { input_tokens: 20, output_tokens: 7 }),
    ],
  });
}

beforeAll(async () => {
  store = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
  ccRoot = copyFixture('claude-code');
  await ingestPaths(store, [copyFixture('control-plane/normal'), ccRoot, copyFixture('amplifier/normal'), bigResultDir()]);
});
afterAll(() => store.close());

describe('safe by default', () => {
  it('get_events default has no payload fields: only time, type, turn, error flag and place', async () => {
    const r = await call({ session_id: CC, limit: 2000, max_bytes: 10_000_000 });
    expect(r.status).toBe('ok');
    expect(r.total_count).toBe(r.count);
    expect(r.events).toHaveLength(r.total_count);
    for (const e of r.events) expect(Object.keys(e).sort()).toEqual(BASE_KEYS);
  });

  it('pages with limit/offset; index is the position in the session timeline', async () => {
    const r = await call({ session_id: CC, limit: 3, offset: 5 });
    expect(r).toMatchObject({ count: r.total_count, returned: 3, has_more: true, next_offset: 8 });
    expect(r.events.map((e: Result) => e.index)).toEqual([5, 6, 7]);
  });
});

describe('fields', () => {
  it('fields projection of message.usage.input_tokens on a CC assistant event equals the raw line\'s value', async () => {
    const r = await call({ session_id: CC, event_types: ['assistant'], fields: ['message.usage.input_tokens', 'message.model'], limit: 50 });
    expect(r.events.length).toBeGreaterThan(0);
    const lines = readFileSync(join(ccRoot, r.events[0].file), 'utf8').split('\n');
    for (const e of r.events) {
      const raw = JSON.parse(lines[e.line_number - 1]!);
      expect(e.fields['message.usage.input_tokens']).toBe(raw.message.usage.input_tokens);
      expect(e.fields['message.model']).toBe(raw.message.model);
    }
  });

  it('projects data.usage.input_tokens from Amplifier events and metadata fields from Control Plane entries', async () => {
    const amp = (await store.listSessions({ format: 'amplifier', limit: 1, offset: 0 })).sessions[0]!;
    const a = await call({ session_id: amp.id, event_types: ['llm:response'], fields: ['data.usage.input_tokens'] });
    expect(a.events.length).toBeGreaterThan(0);
    for (const e of a.events) expect(typeof e.fields['data.usage.input_tokens']).toBe('number');
    const cp = await call({ session_id: 'SES-8ACD6A79', event_types: ['TURN_RECORDED'], fields: ['metadata.turn_number'] });
    expect(cp.events.map((e: Result) => e.fields['metadata.turn_number'])).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('a huge value is cut with the marker and the event stays under a few KB (100 KB tool result)', async () => {
    const r = await call({ session_id: SID, event_types: ['tool_result'], fields: ['message.content', 'message.content.0.content', 'toolUseResult'] });
    expect(r.events).toHaveLength(1);
    const e = r.events[0];
    expect(e.fields['message.content.0.content']).toMatch(/^x+…\[cut [\d,]+ chars\]$/u);
    expect(e.fields['message.content']).toMatch(/…\[cut [\d,]+ chars\]$/u);
    expect(Buffer.byteLength(JSON.stringify(e))).toBeLessThan(6_000);
  });

  it('unknown field reported: missing_fields per event and for the page, not an error', async () => {
    const r = await call({ session_id: SID, fields: ['message.usage.output_tokens', 'no.such.path'] });
    expect(r.status).toBe('ok');
    expect(r.missing_fields).toEqual(['no.such.path']);
    for (const e of r.events) expect(e.missing_fields).toContain('no.such.path');
    const usage = r.events.filter((e: Result) => e.fields['message.usage.output_tokens'] !== undefined);
    expect(usage.map((e: Result) => e.fields['message.usage.output_tokens'])).toEqual([5, 7]);
  });

  it('redacts secrets in projected values unless redact is false', async () => {
    const r = await call({ session_id: SID, event_types: ['user_message'], fields: ['message.content'] });
    expect(JSON.stringify(r)).not.toContain(SECRET);
    expect(JSON.stringify(r)).toContain('[REDACTED:api_key]');
    const raw = await call({ session_id: SID, event_types: ['user_message'], fields: ['message.content'], redact: false });
    expect(JSON.stringify(raw)).toContain(SECRET);
  });
});

describe('filters', () => {
  it('errors_only: only error events, counted in total_count', async () => {
    const r = await call({ session_id: '8463c716-a2ea-4c14-9efa-87158ebd9f20', errors_only: true, limit: 2000 });
    expect(r.total_count).toBeGreaterThan(0);
    expect(r.events.every((e: Result) => e.is_error)).toBe(true);
    const all = await call({ session_id: '8463c716-a2ea-4c14-9efa-87158ebd9f20', limit: 2000, max_bytes: 10_000_000 });
    expect(all.returned).toBe(all.total_count);
    expect(r.total_count).toBe(all.events.filter((e: Result) => e.is_error).length);
    const cp = await call({ session_id: 'SES-28917E0E', errors_only: true });
    expect(cp.events.map((e: Result) => e.type)).toContain('DEGRADATION');
  });

  it('event_types matches native types and kinds', async () => {
    const byKind = await call({ session_id: 'SES-8ACD6A79', event_types: ['user_message'] });
    const byType = await call({ session_id: 'SES-8ACD6A79', event_types: ['TURN_RECORDED'] });
    expect(byKind.total_count).toBe(6);
    expect(byType.events).toEqual(byKind.events);
  });
});

describe('bad input', () => {
  it('limit 0, -1 and "x" are errors stating the range', async () => {
    for (const limit of [0, -1, 'x', 2001]) {
      const r = await call({ session_id: CC, limit });
      expect(r).toMatchObject({ status: 'error', code: 'INVALID_ARGUMENTS' });
      expect(r.error).toContain('1 to 2000');
    }
  });

  it('unknown session: SESSION_NOT_FOUND; an id prefix resolves', async () => {
    expect(await call({ session_id: 'no-such-session' })).toMatchObject({ status: 'error', code: 'SESSION_NOT_FOUND' });
    expect(await call({ session_id: 'SES-' })).toMatchObject({ status: 'error', code: 'AMBIGUOUS_SESSION' });
    expect((await call({ session_id: '491e', limit: 1 })).session_id).toBe(CC);
  });

  it('max_bytes smaller than one event gives zero events, truncated', async () => {
    const r = await call({ session_id: CC, max_bytes: 100 });
    expect(r).toMatchObject({ status: 'ok', returned: 0, truncated: true });
  });

  it('determinism: the same call twice gives byte-identical JSON', async () => {
    const args = { session_id: CC, fields: ['message.usage', 'message.content.0.text'], limit: 50 };
    expect(JSON.stringify(await call(args))).toBe(JSON.stringify(await call(args)));
  });
});

describe('caps', () => {
  it('cut markers give the number of characters left out, grouped by thousands', () => {
    expect(groupDigits(98211)).toBe('98,211');
    expect(capText('abcdef', 4)).toEqual({ text: 'abcd…[cut 2 chars]', cut: 2 });
    expect(capValue({ a: 'y'.repeat(50) }, 10, false).value).toMatch(/^\{"a":"yyyy…\[cut 48 chars\]$/u);
    expect(capValue(42, 1, false).value).toBe(42);
  });
});
