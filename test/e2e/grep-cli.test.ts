// `hindsight grep` for a Claude Code user (issue 14, item 3): a store with only Claude Code sessions
// (no Control Plane root) is searched whole; each hit prints the matched text, --json places it.
// Runs the built CLI: `npm run build` first.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, runCli, tempDir } from '../helpers.js';

const PARENT = '8463c716-a2ea-4c14-9efa-87158ebd9f20';
let db: string;

beforeAll(() => {
  const claude = copyFixture('claude-code');
  // A second session whose id starts like 1af7fc5e's, so the prefix "1af7fc5e" is ambiguous.
  const dir = join(claude, 'projects', '-path-to-Demo');
  const original = '1af7fc5e-8455-4414-9ccd-011d40f70b2a';
  const twin = '1af7fc5e-0000-4000-8000-000000000000';
  writeFileSync(join(dir, `${twin}.jsonl`), readFileSync(join(dir, `${original}.jsonl`), 'utf8').replaceAll(original, twin));
  db = join(tempDir('hs-grep-cli-'), 'h.db');
  const ingest = runCli(['ingest', claude, '--db', db]);
  expect(ingest.status, ingest.stderr).toBe(0);
});

describe('hindsight grep on a Claude Code store', () => {
  it('finds the text in every session and prints the match, not the head of the line', () => {
    const r = runCli(['grep', 'Traceback', '--db', db, '--no-color']);
    expect(r.status, r.stderr).toBe(0);
    const [hit] = r.stdout.split('\n');
    expect(hit).toContain(PARENT);
    expect(hit).toContain('»Traceback«');
    expect(hit).toMatch(/\.jsonl:1133:\d+: /);
    expect(r.stdout).toMatch(/1 of 1 matches in 11 sessions/);
  });

  it('--json gives session, ledger, file, line, byte offset and an excerpt holding the match', () => {
    const r = runCli(['grep', 'Traceback', '--json', '--db', db]);
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ status: 'ok', scope: 'all', count: 1 });
    const e = out.entries[0];
    expect(e).toMatchObject({ session_id: PARENT, ledger: 'transcript', line_number: 1133 });
    expect(Buffer.from(e.raw).subarray(e.match_offset, e.match_offset + e.match_length).toString()).toBe('Traceback');
    expect(e.excerpt.slice(e.excerpt_match[0], e.excerpt_match[1])).toBe('Traceback');
    expect(e.excerpt.length).toBeLessThan(260);
  });

  it('takes a session id prefix and the filters', () => {
    const r = runCli(['grep', 'Traceback', '--session', '8463c716', '--json', '--db', db]);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ count: 1, session_id: PARENT });
    const none = runCli(['grep', 'Traceback', '--project', 'Demo', '--db', db, '--no-color']);
    expect(none.status).toBe(0);
    expect(none.stdout).toMatch(/No matches for "Traceback" in \d+ sessions/);
    const since = runCli(['grep', 'Traceback', '--since', '2026-02-12', '--json', '--db', db]);
    expect(JSON.parse(since.stdout)).toMatchObject({ count: 0 });
  });

  it('refuses an ambiguous prefix, listing the candidates', () => {
    const r = runCli(['grep', 'init', '--session', '1af7fc5e', '--db', db]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('1af7fc5e-8455-4414-9ccd-011d40f70b2a');
    expect(r.stderr).toContain('1af7fc5e-0000-4000-8000-000000000000');
    expect(r.stderr).toMatch(/Pass more characters/);
  });
});
