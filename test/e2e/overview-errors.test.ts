// The built CLI shows what failed, not only how many (issue 14, item 1): `show` prints each
// failed tool call with its tool, its text and its line; `--json` lists the same in errors.

import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, runCli, tempDir } from '../helpers.js';

const db = join(tempDir('hs-overview-errors-'), 'h.db');
const SPOTTER = '8463c716-a2ea-4c14-9efa-87158ebd9f20';
const FILE = `projects/-home-USER-projects-spotter-worktrees-spotter-fum/${SPOTTER}.jsonl`;

beforeAll(() => {
  const sets = [join(FIXTURES, 'claude-code'), join(FIXTURES, 'amplifier', 'normal'), join(FIXTURES, 'control-plane', 'normal')];
  const res = runCli(['ingest', ...sets, '--db', db]);
  expect(res.status, res.stderr).toBe(0);
});

describe('failures are shown, not only counted', () => {
  it('show --json lists the 13 failed calls the about paragraph counts', () => {
    const res = runCli(['show', SPOTTER, '--json', '--db', db]);
    expect(res.status).toBe(0);
    const { summary } = JSON.parse(res.stdout);
    expect(summary.about).toContain('13 tool calls failed');
    expect(summary.error_count).toBe(13);
    expect(summary.errors).toHaveLength(13);
    expect(summary.errors[0]).toMatchObject({ type: 'tool_error', tool_name: 'Read', file: FILE, line_number: 69 });
  });

  it('show prints each failure with its tool, its evidence and the end of its text', () => {
    const res = runCli(['show', SPOTTER, '--db', db]);
    expect(res.status).toBe(0);
    expect(res.stdout).toContain('Errors (13):');
    expect(res.stdout).toMatch(new RegExp(`tool_error Bash  ${FILE.replace(/[.]/g, '\\.')}:1091`));
    // The failing test run's last line, which the summary's first 160 characters never reached.
    expect(res.stdout).toContain('58 tests, 1 failure');
    expect(res.stdout).toContain('File content (85812 tokens) exceeds maximum allowed tokens');
  });

  it('the other formats too: Amplifier and Control Plane failures are printed with their text', () => {
    const amp = runCli(['show', '361346c1-3ca5-4fb1-9b7b-c7a4b3daad01', '--db', db]);
    expect(amp.status).toBe(0);
    expect(amp.stdout).toMatch(/Errors \(13\):/);
    expect(amp.stdout).toContain('tool_error read_file');
    expect(amp.stdout).toContain('Path not found: /Users/jonas.weber/code/storefront-web/src/components/PriceTag_old.tsx');
    const plane = runCli(['show', 'SES-F1F95E35', '--db', db]);
    expect(plane.status).toBe(0);
    expect(plane.stdout).toContain('tool_error list_packages  HO1/ledger/ho1m.jsonl:');
    expect(plane.stdout).toContain('maximum recursion depth exceeded while calling a Python object');
  });

  it('says how many are listed when errors_limit leaves some out', () => {
    const res = runCli(['tool', 'session_overview', JSON.stringify({ session_id: SPOTTER, errors_limit: 2 }), '--db', db]);
    expect(res.status).toBe(0);
    const body = JSON.parse(res.stdout);
    expect(body.summary.errors).toHaveLength(2);
    expect(body.summary.error_count).toBe(13);
  });
});
