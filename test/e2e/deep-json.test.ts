// Issue 12 item 4 through the built CLI: a line nested 100,000 levels deep gives clean exits and
// JSON output, never exit 70 with a stack trace.

import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEEP_CC_SESSION, DEEP_CP_SESSION, writeDeepRoots } from '../deep-roots.js';
import { runCli, tempDir } from '../helpers.js';

let db: string;

beforeAll(() => {
  const { claude, plane } = writeDeepRoots(100_000);
  db = join(tempDir('hs-deep-cli-'), 'h.db');
  const res = runCli(['ingest', claude, plane, '--db', db]);
  expect(res.status, res.stderr).toBe(0);
});

describe('the CLI on a 100,000-level line', () => {
  it.each([
    ['query_ledger_full', { ledger: 'ho2m' }],
    ['query_ledger_full', { ledger: 'ho2m', redact: false }],
    ['reconstruct_session', { session_id: DEEP_CC_SESSION, verbosity: 'full', include_tool_payloads: true }],
    ['reconstruct_session', { session_id: DEEP_CP_SESSION, verbosity: 'full' }],
    ['get_events', { session_id: DEEP_CC_SESSION, fields: ['toolUseResult'] }],
    ['export_session', { session_id: DEEP_CC_SESSION, format: 'jsonl' }],
    ['export_session', { session_id: DEEP_CP_SESSION, format: 'replay' }],
  ])('hindsight tool %s %j exits 0 with JSON', (name, args) => {
    const res = runCli(['tool', name, JSON.stringify(args), '--db', db]);
    expect(res.stderr).not.toMatch(/RangeError|Maximum call stack/);
    expect(res.status, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ status: 'ok' });
  });

  it.each([
    ['timeline', DEEP_CC_SESSION, '--full', '--json'],
    ['timeline', DEEP_CC_SESSION, '--full', '--raw'],
    ['ledger', '--ledger', 'ho2m', '--json'],
    ['ledger', '--ledger', 'ho2m'],
    ['export', DEEP_CC_SESSION, '--as', 'jsonl'],
    ['export', DEEP_CP_SESSION, '--as', 'markdown'],
  ])('hindsight %s … exits 0', (...args) => {
    const res = runCli([...args, '--db', db]);
    expect(res.stderr).not.toMatch(/RangeError|Maximum call stack|    at /);
    expect(res.status, res.stderr).toBe(0);
  });
});
