// The built CLI's views for people — show, timeline, grep, ledger — end to end over the shared
// fixtures, and the agent tool list an admin configuration consumes.

import { readFileSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, FIXTURES, runCli, tempDir } from '../helpers.js';

const db = join(tempDir('hs-views-'), 'h.db');
const PARENT = '8463c716-a2ea-4c14-9efa-87158ebd9f20'; // the Claude Code session with sub-agent files
const plane = join(FIXTURES, 'control-plane', 'normal');
const ESC = '\u001b[';

beforeAll(() => {
  const res = runCli(['ingest', join(FIXTURES, 'claude-code'), plane, '--db', db]);
  expect(res.status).toBe(0);
});

describe('hindsight views', () => {
  it('show: the about paragraph, tokens and tools of a session; --json is the tool envelope', () => {
    const text = runCli(['show', PARENT, '--db', db]);
    expect(text.status).toBe(0);
    expect(text.stdout).toContain(`Session ${PARENT}`);
    expect(text.stdout).toMatch(/Tokens: .* in, .* out/);
    expect(text.stdout).toMatch(/Sub-agents \(\d+\)/);
    const json = runCli(['show', PARENT, '--json', '--db', db]);
    expect(json.status).toBe(0);
    const body = JSON.parse(json.stdout) as { status: string; summary: { about: string } };
    expect(body.status).toBe('ok');
    expect(text.stdout).toContain(body.summary.about.slice(0, 60));
  });

  it('timeline: the conversation in order with sub-agent rows marked, hooks hidden and counted, and a next-page hint', () => {
    const res = runCli(['timeline', PARENT, '--limit', '400', '--db', db]);
    expect(res.status).toBe(0);
    expect(res.stdout).toMatch(/^User {2}2026-02-11/m);
    expect(res.stdout).toMatch(/\[sub-agent [\w-]+\]/);
    expect(res.stdout).not.toMatch(/hook PreToolUse/);
    expect(res.stdout).toMatch(/400 of \d+ events; \d+ hook events hidden \(--kind all shows every event\); next page: hindsight timeline .* --offset 400/);
  });

  it('grep: rg-style file:line:offset: text around the match, from the stored evidence', () => {
    const res = runCli(['grep', 'DEGRADATION', '--ledger', 'ho2m', '--root', plane, '--db', db]);
    expect(res.status).toBe(0);
    const lines = res.stdout.trim().split('\n');
    // file:line:byte offset of the match: the text around it, the match marked (no colour in a pipe).
    expect(lines[0]).toMatch(/^HO2\/ledger\/ho2m\.jsonl:\d+:\d+: \{.*»DEGRADATION«/);
    expect(lines.at(-1)).toMatch(/of \d+ matches in ho2m/);
  });

  it('ledger: entries of one type with their place in the file', () => {
    const res = runCli(['ledger', '--ledger', 'ho2m', '--type', 'TURN_RECORDED', '--root', plane, '--limit', '3', '--db', db]);
    expect(res.status).toBe(0);
    expect(res.stdout).toMatch(/HO2\/ledger\/ho2m\.jsonl:\d+\s+TURN_RECORDED/);
    expect(res.stdout).toMatch(/3 of \d+ entries in ho2m; next page/);
  });

  it('plain text when not a terminal, colour when forced, none with --no-color', () => {
    expect(runCli(['sessions', '--db', db]).stdout).not.toContain(ESC);
    expect(runCli(['sessions', '--db', db], { FORCE_COLOR: '1' }).stdout).toContain(ESC);
    expect(runCli(['sessions', '--no-color', '--db', db], { FORCE_COLOR: '1' }).stdout).not.toContain(ESC);
  });

  it('an unknown session is a one-sentence error and exit code 1; a missing argument is exit code 2', () => {
    const res = runCli(['show', 'no-such-session', '--db', db]);
    expect(res.status).toBe(1);
    expect(res.stderr).toMatch(/no-such-session/);
    expect(res.stdout).toBe('');
    expect(runCli(['timeline', '--db', db]).status).toBe(2);
    const bad = runCli(['grep', '(a)\\1', '--root', plane, '--db', db]);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/backreference/i);
  });

  it('export: a replay file written whole, raw JSONL to stdout, and a clear error for an unknown session', () => {
    const out = join(tempDir('hs-export-'), 'replay.jsonl');
    const res = runCli(['export', PARENT, '--out', out, '--db', db]);
    expect(res.status).toBe(0);
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    expect(JSON.parse(lines[0]!)).toMatchObject({ v: 1, session: PARENT, format: 'claude-code' });
    expect(lines.length).toBeGreaterThan(50);
    const jsonl = runCli(['export', PARENT, '--as', 'jsonl', '--no-subagents', '--raw', '--db', db]);
    expect(jsonl.status).toBe(0);
    const source = readFileSync(join(FIXTURES, 'claude-code', 'projects', '-home-USER-projects-spotter-worktrees-spotter-fum', `${PARENT}.jsonl`), 'utf8');
    expect(jsonl.stdout).toBe(source);
    const missing = runCli(['export', 'no-such-session', '--out', join(tempDir('hs-export-'), 'x'), '--db', db]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/no-such-session/);
  });

  it('usage: a ccusage-style table by session with totals, and the envelope with --json', () => {
    const res = runCli(['usage', 'session', '--format', 'claude-code', '--db', db]);
    expect(res.status).toBe(0);
    expect(res.stdout.split('\n')[0]).toMatch(/^SESSION\s+CALLS\s+INPUT\s+OUTPUT/);
    expect(res.stdout).toMatch(/^TOTAL\s+\d+/m);
    const json = JSON.parse(runCli(['usage', 'session', '--format', 'claude-code', '--json', '--db', db]).stdout) as {
      status: string;
      rows: { session_id: string; tokens: { total: number } }[];
    };
    expect(json.status).toBe('ok');
    expect(json.rows.map((r) => r.session_id)).toContain(PARENT);
    expect(runCli(['usage', 'daily', '--since', '2026-13-01', '--db', db]).status).toBe(1);
  });

  it('rewind: a dry run by default, then --apply with a backup and the next step', () => {
    const root = copyFixture('claude-code');
    const id = '491e126e-1e71-469c-ade2-fcc8af567c74';
    const file = join(root, 'projects', '-home-marco-projects-spotter', `${id}.jsonl`);
    const past = new Date(Date.now() - 3600_000);
    utimesSync(file, past, past); // not live: written an hour ago
    const rdb = join(tempDir('hs-rewind-'), 'h.db');
    expect(runCli(['ingest', root, '--db', rdb]).status).toBe(0);
    const before = readFileSync(file);
    const dry = runCli(['rewind', id, '--to-turn', '1', '--db', rdb]);
    expect(dry.status).toBe(0);
    expect(dry.stdout).toMatch(/^Dry run/);
    expect(dry.stdout).toMatch(/Turns \d+ → 1/);
    expect(readFileSync(file).equals(before)).toBe(true);
    const applied = runCli(['rewind', id, '--to-turn', '1', '--apply', '--db', rdb]);
    expect(applied.status).toBe(0);
    expect(applied.stdout).toMatch(/^Rewound/);
    expect(applied.stdout).toMatch(/Next: hindsight ingest/);
    expect(readFileSync(file).length).toBeLessThan(before.length);
    const backup = /backup: (\S+)/.exec(applied.stdout)![1]!;
    expect(readFileSync(backup).equals(before)).toBe(true);
    expect(runCli(['rewind', id, '--db', rdb]).status).toBe(1); // no target: the tool says which ones exist
  });

  it('search: matches with their session and an excerpt; operator-like queries are plain text', () => {
    const res = runCli(['search', 'spotter', '--db', db]);
    expect(res.status).toBe(0);
    expect(res.stdout).toMatch(/of \d+ matches/);
    expect(runCli(['search', 'NEAR(', '"unbalanced', '--db', db]).status).toBe(0);
    expect(runCli(['search', '--db', db]).status).toBe(2);
  });

  it('inspect --metrics: the recent table, one session turn by turn, the stats; --json is the envelope; bad flags exit 2', () => {
    const table = runCli(['inspect', '--metrics', '--db', db]);
    expect(table.status).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^DATE\s+FORMAT\s+MODEL\s+STEPS\s+TOOL CALLS\s+STATUS\s+FILES\s+SESSION/);
    expect(table.stdout).toContain(PARENT.slice(0, 8));
    const one = runCli(['inspect', '--metrics', '--session', PARENT, '--db', db]);
    expect(one.status).toBe(0);
    expect(one.stdout).toMatch(/11 files changed, 2 sub-agents/);
    expect(one.stdout).toMatch(/^TURN\s+USER AT\s+TOOK\s+STEPS\s+TOOLS\s+TOKENS\s+COST/m);
    const stats = runCli(['inspect', '--metrics', '--stats', '--until', '2026-12-31', '--days', '3660', '--json', '--db', db]);
    expect(stats.status).toBe(0);
    const body = JSON.parse(stats.stdout) as { status: string; view: string; sessions: number };
    expect(body).toMatchObject({ status: 'ok', view: 'stats' });
    expect(body.sessions).toBeGreaterThan(10);
    expect(runCli(['inspect', '--db', db]).status).toBe(2);
    expect(runCli(['inspect', '--metrics', '--stats', '--session', PARENT, '--db', db]).status).toBe(2);
    expect(runCli(['inspect', '--metrics', '--session', 'no-such-session', '--db', db]).status).toBe(1);
  });

  it('test_all_forensic_tools_in_config: the agent tool list has every forensic and admin tool with its schema', () => {
    const res = runCli(['tools', '--json']);
    const { tools } = JSON.parse(res.stdout) as { tools: { tool_id: string; parameters: { properties: Record<string, unknown> } }[] };
    const ids = tools.map((t) => t.tool_id);
    for (const id of ['list_sessions', 'session_overview', 'reconstruct_session', 'query_ledger_full', 'grep_jsonl', 'query_ledger', 'list_files', 'read_file']) {
      expect(ids).toContain(id);
    }
    const queryLedger = tools.find((t) => t.tool_id === 'query_ledger')!;
    expect(Object.keys(queryLedger.parameters.properties)).toEqual(expect.arrayContaining(['ledger', 'event_type', 'max_entries']));
  });
});
