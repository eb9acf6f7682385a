// Issue 14, "Commands that behave" (items 7–11), through the built CLI: flags are never ignored,
// ids and prefixes work everywhere, hints keep the flags given, bad input ends in one sentence,
// and formats are detected by content.

import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, runCli, tempDir } from '../helpers.js';

const dir = tempDir('hs-behave-');
const db = join(dir, 'h.db');
const PARENT = '8463c716-a2ea-4c14-9efa-87158ebd9f20'; // the Claude Code session with sub-agent files
const DEMO = join(FIXTURES, 'claude-code', 'projects', '-path-to-Demo');

beforeAll(() => {
  expect(runCli(['ingest', join(FIXTURES, 'claude-code'), '--db', db]).status).toBe(0);
});

describe('flags are never ignored (item 7)', () => {
  it('sessions honours --project and --json; --limit 0 is a usage error', () => {
    const all = runCli(['sessions', '--db', db]);
    const demo = runCli(['sessions', '--project=-path-to-Demo', '--db', db]);
    expect(demo.status).toBe(0);
    expect(demo.stdout.trim().split('\n').length).toBeLessThan(all.stdout.trim().split('\n').length);
    expect(demo.stdout).not.toContain(PARENT);
    const json = runCli(['sessions', '--json', '--top-level', '--db', db]);
    expect(json.status).toBe(0);
    const body = JSON.parse(json.stdout) as { status: string; count: number; sessions: { session_id: string }[] };
    expect(body.status).toBe('ok');
    expect(body.sessions.length).toBe(body.count);
    const zero = runCli(['sessions', '--limit', '0', '--db', db]);
    expect(zero.status).toBe(2);
    expect(zero.stderr).toMatch(/--limit must be between 1 and 500/);
  });

  it('a flag the command does not take is a usage error naming what it takes', () => {
    for (const args of [['show', PARENT, '--full'], ['sessions', '--session', 'x'], ['tools', '--db', db], ['export', PARENT, '--json']]) {
      const res = runCli(args[0] === 'tools' ? args : [...args, '--db', db]);
      expect(res.status, args.join(' ')).toBe(2);
      expect(res.stderr).toMatch(new RegExp(`hindsight ${args[0]} does not take --\\w+; it takes`));
    }
  });
});

describe('ids (item 8)', () => {
  it('a prefix works in show, session, timeline and export', () => {
    const prefix = PARENT.slice(0, 8);
    expect(runCli(['show', prefix, '--db', db]).stdout).toContain(`Session ${PARENT}`);
    expect(runCli(['session', prefix, '--db', db]).stdout).toContain(`Session ${PARENT}`);
    expect(runCli(['timeline', prefix, '--limit', '5', '--db', db]).status).toBe(0);
    const replay = runCli(['export', prefix, '--db', db]);
    expect(replay.status).toBe(0);
    expect(JSON.parse(replay.stdout.split('\n')[0]!)).toMatchObject({ session: PARENT });
  });

  it('an ambiguous prefix is refused with the candidates, in every command that takes an id', () => {
    // Two copies of one real transcript under ids that share their first 8 characters.
    const source = join(DEMO, '1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl');
    const home = join(tempDir('hs-ambiguous-'), 'projects', '-twins');
    mkdirSync(home, { recursive: true });
    const twins = ['abcd1234-0000-4000-8000-000000000001', 'abcd1234-0000-4000-8000-000000000002'];
    const text = readFileSync(source, 'utf8');
    for (const id of twins) writeFileSync(join(home, `${id}.jsonl`), text.replaceAll('1af7fc5e-8455-4414-9ccd-011d40f70b2a', id));
    const twinDb = join(tempDir('hs-ambiguous-db-'), 'h.db');
    expect(runCli(['ingest', home, '--format', 'claude-code', '--db', twinDb]).status).toBe(0);
    for (const command of ['show', 'session', 'timeline', 'export']) {
      const amb = runCli([command, 'abcd1234', '--db', twinDb]);
      expect(amb.status, command).toBe(1);
      expect(amb.stderr).toContain('"abcd1234" is the start of 2 session ids');
      for (const id of twins) expect(amb.stderr).toContain(id);
    }
    expect(runCli(['show', twins[1]!.slice(0, 36), '--db', twinDb]).stdout).toContain(`Session ${twins[1]}`);
  });

  it('the sessions table prints child ids whole', () => {
    const res = runCli(['sessions', '--limit', '500', '--db', db]);
    const children = res.stdout.split('\n').filter((l) => l.startsWith(`${PARENT}:`));
    expect(children.length).toBeGreaterThan(1);
    for (const row of children) expect(row.split(/\s+/)[0]).not.toContain('…');
    expect(new Set(children.map((r) => r.split(/\s+/)[0])).size).toBe(children.length);
  });
});

describe('hints, errors, counts (item 9)', () => {
  it('the next-page hint is the command as typed, --db kept', () => {
    const res = runCli(['timeline', PARENT, '--limit', '5', '--db', db]);
    expect(res.stdout).toContain(`next page: hindsight timeline ${PARENT} --limit 5 --db ${db} --offset 5`);
  });

  it('errors name CLI commands, and the table says what it counts', () => {
    const res = runCli(['show', 'zzzz-no-such', '--db', db]);
    expect(res.status).toBe(1);
    expect(res.stderr).toContain('hindsight sessions');
    expect(res.stderr).not.toContain('list_sessions');
    const top = (JSON.parse(runCli(['sessions', '--json', '--top-level', '--db', db]).stdout) as { count: number }).count;
    const table = runCli(['sessions', '--limit', '500', '--db', db]);
    expect(table.stdout).toMatch(new RegExp(`\\b${top} sessions \\(\\d+ with sub-agents, forks and sidechains\\)`));
  });

  it('the see-findings hint after ingest keeps --db', () => {
    const d = tempDir('hs-behave-bad-');
    const bad = join(d, 'bad.jsonl');
    writeFileSync(bad, 'not json\n');
    const res = runCli(['ingest', bad, '--format', 'claude-code', '--db', join(d, 'h.db')]);
    expect(res.stdout).toContain(`See findings with: hindsight tool sources '{"section":"defects"}' --db ${join(d, 'h.db')}`);
  });
});

describe('bad input (item 10)', () => {
  it('a file that is not SQLite as --db: one sentence, exit 1', () => {
    const notDb = join(tempDir('hs-behave-'), 'picture.png');
    writeFileSync(notDb, Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'));
    const res = runCli(['sessions', '--db', notDb]);
    expect(res.status).toBe(1);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).toMatch(/not a SQLite database/);
  });

  it('a mistyped --db on a read command creates nothing', () => {
    const d = tempDir('hs-behave-');
    const typo = join(d, 'no', 'such', 'h.db');
    for (const cmd of [['sessions'], ['show', PARENT], ['usage']]) {
      const res = runCli([...cmd, '--db', typo]);
      expect(res.status).toBe(1);
      expect(res.stderr).toMatch(/no store exists there/);
    }
    expect(readdirSync(d)).toEqual([]);
  });

  it('a PNG ingested as claude-code is bad lines, not a session', () => {
    const d = tempDir('hs-behave-png-');
    const png = join(d, 'shot.jsonl');
    writeFileSync(png, Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(200, 7), Buffer.from('\n\u0000\u0001garbage\n')]));
    const res = runCli(['ingest', png, '--format', 'claude-code', '--db', join(d, 'h.db')]);
    expect(res.stdout).toMatch(/0 sessions .* [1-9]\d* bad lines?/);
    expect(runCli(['sessions', '--db', join(d, 'h.db')]).stdout).toMatch(/^No sessions/);
  });
});

describe('detection by content (item 11)', () => {
  const original = readdirSync(DEMO).find((n) => n.endsWith('.jsonl'))!;
  const sessionId = original.slice(0, -'.jsonl'.length);

  it('a transcript outside projects/ under another name is ingested with the id inside it', () => {
    const d = tempDir('hs-behave-loose-');
    copyFileSync(join(DEMO, original), join(d, 'my-session.jsonl'));
    for (const extra of [[], ['--format', 'claude-code']]) {
      const store = join(d, `h${extra.length}.db`);
      const res = runCli(['ingest', join(d, 'my-session.jsonl'), ...extra, '--db', store]);
      expect(res.status, res.stdout + res.stderr).toBe(0);
      const ids = (JSON.parse(runCli(['sessions', '--json', '--db', store]).stdout) as { sessions: { session_id: string }[] }).sessions.map((s) => s.session_id);
      expect(ids).toEqual([sessionId]);
    }
  });

  it('a folder holding several homes is searched, each home ingested as its own root', () => {
    const d = tempDir('hs-behave-homes-');
    mkdirSync(join(d, 'laptop'));
    cpSync(join(FIXTURES, 'claude-code'), join(d, 'laptop', '.claude'), { recursive: true });
    cpSync(join(FIXTURES, 'amplifier', 'normal'), join(d, 'desk-amplifier'), { recursive: true });
    const res = runCli(['ingest', d, '--db', join(d, 'h.db'), '--json']);
    expect(res.status, res.stderr).toBe(0);
    const roots = (JSON.parse(res.stdout) as { roots: { path: string; format: string }[] }).roots;
    expect(roots.map((r) => r.format).sort()).toEqual(['amplifier', 'claude-code']);
    expect(existsSync(join(d, 'h.db'))).toBe(true);
  });
});

describe('a reader that stops early', () => {
  it('ends the output quietly: exit 0 and no stack trace when the pipe closes (`hindsight tools --json | true`)', async () => {
    const { spawnSync } = await import('node:child_process');
    const { BIN } = await import('../helpers.js');
    // `true` exits without reading, so every write after it is EPIPE.
    const res = spawnSync('bash', ['-c', `set -o pipefail; "${process.execPath}" "${BIN}" tools --json | true`], { encoding: 'utf8' });
    expect(res.stderr).toBe('');
    expect(res.status).toBe(0);
  });
});
