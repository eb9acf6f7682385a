// Failed tool calls in the overview's errors (issue 14, item 1): every format lists each failed
// call once, as tool_error, with what the tool sent back (bounded, redacted) and the line it is on.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, FIXTURES, tempDir } from '../../../test/helpers.js';
import { assistantLine, makeConfigDir, SID, SLUG, text, toolResult, toolUse, userLine } from '../../formats/claude-code/test-lines.js';
import { ingestPaths } from '../../ingest/ingest.js';
import { SqliteStore } from '../../store/sqlite/sqlite-store.js';
import { runTool } from '../tool.js';
import { boundedFailureText, FAILURE_HEAD_CHARS, FAILURE_TAIL_CHARS } from './failure-text.js';
import { sessionOverview } from './index.js';

type Result = Record<string, any>;

let store: SqliteStore;
const call = (args: unknown) => runTool(sessionOverview, args, { store }) as Promise<Result>;
const SETS = ['control-plane/normal', 'claude-code', 'amplifier/normal'];

beforeAll(async () => {
  store = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
  await ingestPaths(store, SETS.map(copyFixture));
});
afterAll(() => store.close());

/** The fixture line an error cites (files are relative to the fixture set's root). */
function citedLine(set: string, e: Result): string {
  return readFileSync(join(FIXTURES, set, e.file), 'utf8').split('\n')[e.line_number - 1]!;
}

describe('failed tool calls are listed in errors', () => {
  it('Claude Code: the 13 failures of 8463c716 are listed, each with its tool, its text and its line', async () => {
    const r = await call({ session_id: '8463c716-a2ea-4c14-9efa-87158ebd9f20' });
    const errors: Result[] = r.summary.errors;
    expect(r.summary.error_count).toBe(13);
    expect(r.diagnostics.tools.failed).toBe(13);
    expect(errors.every((e) => e.type === 'tool_error' && e.source === 'transcript')).toBe(true);
    const byTool: Record<string, number> = {};
    for (const e of errors) byTool[e.tool_name] = (byTool[e.tool_name] ?? 0) + 1;
    expect(byTool).toEqual({ Bash: 11, Read: 1, Skill: 1 });
    for (const e of errors) expect(citedLine('claude-code', e), `${e.file}:${e.line_number}`).toContain(e.tool_call_id);
    expect(errors[0]!.message).toMatch(/^File content \(85812 tokens\) exceeds maximum allowed tokens/);
    // A failed test run says what failed at the end of its output: the end is kept, the middle cut.
    const tests = errors.find((e) => e.line_number === 1091)!;
    expect(tests.message).toMatch(/^Exit code 2\n/);
    expect(tests.message).toContain('chars cut]…');
    expect(tests.message).toMatch(/58 tests, 1 failure$/);
    expect(r.summary.about).toContain('13 tool calls failed (Read, Skill and Bash).');
  });

  it('Amplifier: each failed call once (a tool:error event is not listed twice), beside the other errors', async () => {
    const r = await call({ session_id: '361346c1-3ca5-4fb1-9b7b-c7a4b3daad01', errors_limit: 500 });
    const errors: Result[] = r.summary.errors;
    expect(r.diagnostics.tools.failed).toBe(11);
    const tools = errors.filter((e) => e.tool_name !== null);
    expect(tools).toHaveLength(11);
    expect(new Set(tools.map((e) => e.tool_call_id)).size).toBe(11);
    expect(errors.map((e) => e.type).filter((t) => t !== 'tool_error')).toEqual(['provider_error', 'orchestrator_complete']);
    expect(r.summary.error_count).toBe(13);
    const first = tools[0]!;
    expect(first).toMatchObject({ tool_name: 'read_file', source: 'events', message: 'Path not found: /Users/jonas.weber/code/storefront-web/src/components/PriceTag_old.tsx' });
    expect(citedLine('amplifier/normal', first)).toContain(first.tool_call_id);
  });

  it('Control Plane: a failed TOOL_CALL is listed with the error the executor recorded', async () => {
    const r = await call({ session_id: 'SES-F1F95E35' });
    expect(r.diagnostics.tools.failed).toBe(1);
    expect(r.summary.errors).toEqual([
      expect.objectContaining({
        type: 'tool_error',
        tool_name: 'list_packages',
        message: 'maximum recursion depth exceeded while calling a Python object',
        source: 'ho1m',
      }),
    ]);
    expect(citedLine('control-plane/normal', r.summary.errors[0])).toContain('"event_type": "TOOL_CALL"');
  });

  it('every session lists at least as many tool errors as failed calls', async () => {
    const { sessions } = await store.listSessions({ limit: 500, offset: 0 });
    for (const row of sessions) {
      const r = await call({ session_id: row.id, errors_limit: 500 });
      const listed = r.summary.errors.filter((e: Result) => e.tool_name !== null).length;
      expect(listed, row.id).toBeGreaterThanOrEqual(r.diagnostics.tools.failed);
    }
  });

  it('redacts secrets in a failure text unless redact is false, and bounds long texts', async () => {
    const secret = 'sk-ant-api03-Zx81bQv0LmTn4Kd7Wq2Rs9Hc6Yf3Ja5E';
    const output = `Exit code 1\nconnecting with ${secret}\n${'noise line\n'.repeat(200)}AssertionError: expected 2 to be 3`;
    const dir = makeConfigDir({
      [`${SLUG}/${SID}.jsonl`]: [
        userLine('u1', null, 1, 'run the tests'),
        assistantLine('a1', 'u1', 2, { msg: 'm1', req: 'r1' }, [toolUse('toolu_1', 'Bash', { command: 'npm test' })], { output_tokens: 5 }),
        userLine('u2', 'a1', 3, [toolResult('toolu_1', output, true)]),
        assistantLine('a2', 'u2', 4, { msg: 'm2', req: 'r2' }, [text('The tests fail.')], { output_tokens: 5 }),
      ],
    });
    const own = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
    await ingestPaths(own, [dir]);
    const redacted = (await runTool(sessionOverview, { session_id: SID }, { store: own })) as Result;
    const plain = (await runTool(sessionOverview, { session_id: SID, redact: false }, { store: own })) as Result;
    await own.close();
    const e = redacted.summary.errors[0];
    expect(e).toMatchObject({ type: 'tool_error', tool_name: 'Bash', tool_call_id: 'toolu_1', line_number: 3 });
    expect(e.message).not.toContain(secret);
    expect(e.message).toMatch(/^Exit code 1\nconnecting with /);
    expect(e.message).toMatch(/AssertionError: expected 2 to be 3$/);
    expect(e.message.length).toBeLessThan(FAILURE_HEAD_CHARS + FAILURE_TAIL_CHARS + 40);
    expect(plain.summary.errors[0].message).toContain(secret);
  });

  it('keeps a short text whole and never splits a character when cutting', () => {
    expect(boundedFailureText('  permission denied \n', true)).toBe('permission denied');
    const long = `${'😀'.repeat(FAILURE_HEAD_CHARS + FAILURE_TAIL_CHARS)}x`;
    const cut = boundedFailureText(long, false);
    expect(cut).toContain('…[1 chars cut]…');
    expect(cut).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/u);
  });
});
