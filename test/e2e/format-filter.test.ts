// One source-format filter, spelled the same on every report (issue 13): `--format F` keeps the
// sessions of that format in sessions, usage (every grouping, blocks too), search, grep and
// inspect, and refuses an unknown format with the same sentence everywhere. export names its
// output format `--as`; its old `--format replay|markdown|jsonl` still works, with a notice.

import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, runCli, tempDir } from '../helpers.js';

const db = join(tempDir('hs-format-filter-'), 'h.db');
const PARENT = '8463c716-a2ea-4c14-9efa-87158ebd9f20';

function json(args: string[]): Record<string, any> {
  const r = runCli([...args, '--json', '--db', db]);
  expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  return JSON.parse(r.stdout) as Record<string, any>;
}

let amplifierIds: Set<string>;

beforeAll(() => {
  const r = runCli(['ingest', join(FIXTURES, 'claude-code'), join(FIXTURES, 'amplifier', 'edge'), '--db', db]);
  expect(r.status, r.stderr).toBe(0);
  const listed = runCli(['tool', 'list_sessions', JSON.stringify({ format: 'amplifier', top_level_only: false, limit: 500 }), '--db', db]);
  amplifierIds = new Set((JSON.parse(listed.stdout) as { sessions: { session_id: string }[] }).sessions.map((s) => s.session_id));
  expect(amplifierIds.size).toBeGreaterThan(0);
});

describe('--format F on every report', () => {
  it('sessions: only that format, and the two formats add up to the whole list', () => {
    const amp = json(['sessions', '--format', 'amplifier', '--limit', '500']);
    expect(amp.sessions.every((s: any) => s.format === 'amplifier')).toBe(true);
    const cc = json(['sessions', '--format', 'claude-code', '--limit', '500']);
    expect(amp.count + cc.count).toBe(json(['sessions', '--limit', '500']).count);
  });

  it('usage: every grouping, blocks included, counts only that format\'s calls', () => {
    for (const group of ['daily', 'session', 'project', 'blocks']) {
      const all = json(['usage', group]).totals.calls;
      const amp = json(['usage', group, '--format', 'amplifier']);
      const cc = json(['usage', group, '--format', 'claude-code']);
      expect(amp.totals.calls, group).toBeGreaterThan(0);
      expect(amp.totals.calls + cc.totals.calls, group).toBe(all);
    }
    expect(json(['usage', 'session', '--format', 'amplifier']).rows.every((r: any) => r.format === 'amplifier')).toBe(true);
  });

  it('search, grep and inspect: only sessions of that format', () => {
    const search = json(['search', 'the', '--format', 'amplifier']);
    expect(search.matches.length).toBeGreaterThan(0);
    expect(search.matches.every((m: any) => m.format === 'amplifier')).toBe(true);
    const grep = json(['grep', 'error', '--format', 'amplifier']);
    expect(grep.entries.length).toBeGreaterThan(0);
    expect(grep.entries.every((e: any) => amplifierIds.has(e.session_id))).toBe(true);
    const recent = json(['inspect', '--metrics', '--format', 'amplifier']);
    expect(recent.sessions.every((s: any) => s.format === 'amplifier')).toBe(true);
    const stats = json(['inspect', '--metrics', '--stats', '--days', '3650', '--until', '2026-12-31', '--format', 'amplifier']);
    const everything = json(['inspect', '--metrics', '--stats', '--days', '3650', '--until', '2026-12-31']);
    expect(stats.sessions).toBeGreaterThan(0);
    expect(stats.sessions).toBeLessThan(everything.sessions);
  });

  it('an unknown format is the same usage error (exit 2) on every command', () => {
    const commands = [['sessions'], ['usage', 'daily'], ['usage', 'blocks'], ['search', 'the'], ['grep', 'x'], ['inspect', '--metrics'], ['ingest', join(FIXTURES, 'claude-code')]];
    for (const command of commands) {
      const r = runCli([...command, '--format', 'nope', '--db', db]);
      expect(r.status, command.join(' ')).toBe(2);
      expect(r.stderr, command.join(' ')).toMatch(/^hindsight: --format must be one of [a-z-]+(, [a-z-]+)+; got "nope"\n$/);
    }
  });

  it('--help shows [--format F] on every report and says once what it means', () => {
    const help = runCli(['--help']).stdout;
    for (const command of ['sessions', 'grep PATTERN', 'search QUERY...', 'usage [', 'inspect --metrics']) {
      const line = help.split('\n').findIndex((l) => l.startsWith(`  hindsight ${command}`));
      expect(line, command).toBeGreaterThan(-1);
      // A command's synopsis may wrap onto the next lines (usage does).
      expect(help.split('\n').slice(line, line + 3).join(' '), command).toContain('[--format F]');
    }
    expect(help).toMatch(/--format F +only sessions of this source format: [a-z-]+( \| [a-z-]+)+\n/);
    expect(help).toContain('hindsight export ID [--as replay|markdown|jsonl|otlp]');
  });
});

describe('export --as (and its old spelling --format)', () => {
  it('--as picks the output; --format with an output format still works, with a one-line notice on stderr', () => {
    const as = runCli(['export', PARENT, '--as', 'markdown', '--db', db]);
    expect([as.status, as.stderr]).toEqual([0, '']);
    expect(as.stdout).toMatch(/^# /);
    const old = runCli(['export', PARENT, '--format', 'markdown', '--db', db]);
    expect(old.status).toBe(0);
    expect(old.stdout).toBe(as.stdout);
    expect(old.stderr).toBe('hindsight: export --format markdown is deprecated; use --as markdown\n');
    // Without either: the replay, as before.
    expect(JSON.parse(runCli(['export', PARENT, '--db', db]).stdout.split('\n')[0]!)).toMatchObject({ v: 1, session: PARENT });
  });

  it.each([
    [['--as', 'pdf'], /export --as must be one of replay, markdown, jsonl, otlp; got "pdf"/],
    [['--format', 'claude-code'], /export --format is the old spelling of --as \(replay, markdown, jsonl, otlp\); got "claude-code"/],
    [['--as', 'jsonl', '--format', 'jsonl'], /export takes its output format as --as; drop --format/],
  ])('export %j is a usage error (exit 2) that says what to type', (flags, message) => {
    const r = runCli(['export', PARENT, ...flags, '--db', db]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(message);
  });
});
