// Reports are reports: over a store of 510 sessions (more than one 500-row tool page), the CLI's
// usage table and its --json show every row, as ccusage does, and take any --limit; agents still
// get the tool's bounded pages.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers.js';

const SESSIONS = 510;
const work = tempDir('hs-reports-');
const db = join(work, 'h.db');

/** A Claude Code config folder with `n` one-exchange sessions, one a minute, each one LLM call. */
function writeSessions(config: string, n: number): void {
  const project = join(config, 'projects', '-home-dev-reports');
  mkdirSync(project, { recursive: true });
  for (let i = 0; i < n; i++) {
    const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    const at = (s: number) => new Date(Date.UTC(2026, 0, 5, 9) + i * 60_000 + s * 1000).toISOString();
    const user = { type: 'user', sessionId: id, uuid: `u-${i}`, parentUuid: null, timestamp: at(0), cwd: '/home/dev/reports', message: { role: 'user', content: `question ${i}` } };
    const assistant = {
      type: 'assistant',
      sessionId: id,
      uuid: `a-${i}`,
      parentUuid: `u-${i}`,
      timestamp: at(5),
      cwd: '/home/dev/reports',
      requestId: `req_${i}`,
      message: {
        id: `msg_${i}`,
        role: 'assistant',
        model: 'claude-sonnet-4-5-20250929',
        content: [{ type: 'text', text: `answer ${i}` }],
        stop_reason: 'end_turn',
        usage: { input_tokens: 100, output_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      },
    };
    writeFileSync(join(project, `${id}.jsonl`), `${JSON.stringify(user)}\n${JSON.stringify(assistant)}\n`);
  }
}

beforeAll(() => {
  const config = join(work, 'claude');
  writeSessions(config, SESSIONS);
  const res = runCli(['ingest', config, '--db', db]);
  expect(res.status, res.stderr).toBe(0);
});

interface Report {
  status: string;
  count: number;
  returned: number;
  has_more: boolean;
  next_offset: number | null;
  rows: { key: string; calls: number }[];
  totals: { calls: number };
}

describe('hindsight usage over more sessions than one tool page', () => {
  it('--json holds every row, with the page fields saying so', () => {
    const res = runCli(['usage', 'session', '--json', '--db', db]);
    expect(res.status, res.stderr).toBe(0);
    const r = JSON.parse(res.stdout) as Report;
    expect(r.status).toBe('ok');
    expect(r).toMatchObject({ count: SESSIONS, returned: SESSIONS, has_more: false, next_offset: null });
    expect(r.rows).toHaveLength(SESSIONS);
    expect(new Set(r.rows.map((row) => row.key)).size).toBe(SESSIONS);
    expect(r.rows.reduce((n, row) => n + row.calls, 0)).toBe(r.totals.calls);
  });

  it('the table prints every session and the total, with no next-page hint', () => {
    const res = runCli(['usage', 'session', '--db', db]);
    expect(res.status, res.stderr).toBe(0);
    const lines = res.stdout.split('\n');
    expect(lines.filter((l) => l.startsWith('00000000-0000-4000-8000-'))).toHaveLength(SESSIONS);
    expect(lines.some((l) => l.startsWith('TOTAL'))).toBe(true);
    expect(res.stdout).not.toContain('next page');
  });

  it('--limit above 500 is a window like any other, and --offset still pages', () => {
    const big = runCli(['usage', 'session', '--limit', '600', '--json', '--db', db]);
    expect(big.status, big.stderr).toBe(0);
    expect((JSON.parse(big.stdout) as Report).returned).toBe(SESSIONS);

    const tail = runCli(['usage', 'session', '--limit', '3', '--offset', '505', '--json', '--db', db]);
    expect(tail.status, tail.stderr).toBe(0);
    expect(JSON.parse(tail.stdout)).toMatchObject({ count: SESSIONS, offset: 505, returned: 3, has_more: true, next_offset: 508 });

    const text = runCli(['usage', 'session', '--limit', '3', '--offset', '505', '--db', db]);
    // The hint repeats the command as typed (flags and --db kept), with the next offset.
    expect(text.stdout).toMatch(new RegExp(`3 of ${SESSIONS} rows; next page: hindsight usage session --limit 3 --db \\S+ --offset 508`));
  });

  it('a nonsensical window is a usage error that names the flag', () => {
    const res = runCli(['usage', 'session', '--limit', '0', '--db', db]);
    expect(res.status).toBe(2);
    expect(res.stderr).toContain('--limit must be 1 or more');
  });

  it('inspect --metrics takes a --limit above 500 too', () => {
    const res = runCli(['inspect', '--metrics', '--limit', '600', '--json', '--db', db]);
    expect(res.status, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ count: SESSIONS, returned: SESSIONS, has_more: false });
  });

  it('agents keep bounded pages: the tool itself serves at most 500 rows', () => {
    const page = runCli(['tool', 'usage_report', '{"group_by": "session"}', '--db', db]);
    expect(page.status, page.stderr).toBe(0);
    expect(JSON.parse(page.stdout)).toMatchObject({ count: SESSIONS, returned: 100, has_more: true, next_offset: 100 });
    const tooMany = runCli(['tool', 'usage_report', '{"group_by": "session", "limit": 600}', '--db', db]);
    expect(tooMany.status).toBe(1);
    expect(JSON.parse(tooMany.stdout).error).toMatch(/limit must be from 1 to 500/);
  });
});
