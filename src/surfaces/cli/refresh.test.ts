// Reports refresh the default store (issue 17, target 2): a first `usage` answers from the usage
// pass with the numbers a full ingest gives, then ingests; a second run parses nothing; --db,
// $HINDSIGHT_DB and --no-refresh read the store as it is.

import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { copyFixture, REPO, tempDir } from '../../../test/helpers.js';
import { defaultDbPath, openStore } from '../../store/open.js';
import { painter } from './colour.js';
import { main } from './main.js';
import { refreshes } from './refresh-flag.js';
import { runWithRefresh, type RefreshRun } from './refresh.js';
import { stampPath } from './refresh-stamp.js';
import { prepareToolCommand, runPrepared } from './tool-command.js';
import { toolByName } from './tool-lookup.js';
import type { CommandOutput } from './tool-views.js';

const paint = painter({ isTTY: false } as NodeJS.WriteStream, {}, true);

interface Machine {
  env: NodeJS.ProcessEnv;
  home: string;
  config: string;
}

/** A machine whose only agent logs are a copy of the Claude Code fixtures, and no store yet. */
function machine(): Machine {
  const home = tempDir('hs-home-');
  const config = copyFixture('claude-code');
  const env = { XDG_DATA_HOME: join(home, 'data'), CLAUDE_CONFIG_DIR: config, HOME: home, TZ: 'UTC' };
  return { env, home, config };
}

async function prepared(command: string, positionals: string[], given: Record<string, unknown>) {
  const tool = await toolByName(command === 'usage' ? 'usage_report' : 'list_sessions');
  return prepareToolCommand(tool!, positionals, given);
}

/** A report run as the CLI runs it on the default store, refreshing. */
async function report(m: Machine, positionals: string[], given: Record<string, unknown> = { json: true }, command = 'usage'): Promise<{ run: RefreshRun; out: CommandOutput[] }> {
  const out: CommandOutput[] = [];
  const run = await runWithRefresh(await prepared(command, positionals, given), { env: m.env, home: m.home, err: { isTTY: false, write: () => true }, paint, print: (r) => out.push(r) });
  return { run, out };
}

/** The same report read from the default store as it is (no refresh). */
async function fromStore(m: Machine, positionals: string[], given: Record<string, unknown> = { json: true }): Promise<string> {
  const store = await openStore({ env: m.env, mustExist: true });
  try {
    return (await runPrepared(await prepared('usage', positionals, given), store, paint)).stdout;
  } finally {
    await store.close();
  }
}

describe('which command lines refresh', () => {
  it('the reports on the default store, unless --no-refresh, --db or $HINDSIGHT_DB', () => {
    for (const command of ['usage', 'sessions', 'inspect']) expect(refreshes(command, undefined, false, {}), command).toBe(true);
    expect(refreshes('show', undefined, false, {})).toBe(false);
    expect(refreshes('usage', undefined, true, {})).toBe(false);
    expect(refreshes('usage', '/tmp/a.db', false, {})).toBe(false);
    expect(refreshes('usage', undefined, false, { HINDSIGHT_DB: '/tmp/a.db' })).toBe(false);
  });
});

describe('first usage report on a machine with no store', () => {
  const groupings: [string[], Record<string, unknown>][] = [
    [['daily'], { json: true }],
    [['daily'], { json: true, breakdown: true }],
    [['weekly'], { json: true }],
    [['monthly'], { json: true, breakdown: true }],
    [['session'], { json: true, breakdown: true }],
    [['project'], { json: true }],
  ];
  let m: Machine;
  let first: { run: RefreshRun; out: CommandOutput[] };
  beforeAll(async () => {
    m = machine();
    first = await report(m, ['daily'], { json: true });
  });

  it('answers from the usage pass, then leaves the full ingest in the default store', () => {
    expect(first.run.answeredFrom).toBe('usage-pass');
    expect(first.out).toHaveLength(1);
    expect(first.run.code).toBe(0);
    expect(existsSync(defaultDbPath(m.env))).toBe(true);
    expect(first.run.ingest!.filesRead).toBeGreaterThan(0);
    expect(first.run.ingest!.roots.map((r) => r.path)).toEqual([m.config]);
  });

  it.each(groupings)('gives the numbers of the full ingest: usage %j %j', async (positionals, given) => {
    // Each grouping from a fresh machine's pass, against the same report from an ingested store.
    const fresh = machine();
    const pass = await report(fresh, positionals, given);
    expect(pass.run.answeredFrom).toBe('usage-pass');
    const passed = JSON.parse(pass.out[0]!.stdout) as { rows: unknown[] };
    expect(passed.rows.length).toBeGreaterThan(0);
    expect(passed).toEqual(JSON.parse(await fromStore(fresh, positionals, given)));
  });

  it('the daily answer equals ccusage 20 daily, day by day and kind by kind', () => {
    const cc = spawnSync(join(REPO, 'node_modules', '.bin', 'ccusage'), ['daily', '--json', '--offline'], {
      encoding: 'utf8',
      env: { ...process.env, CLAUDE_CONFIG_DIR: m.config, TZ: 'UTC' },
    });
    expect(cc.status, cc.stderr).toBe(0);
    type Theirs = { period?: string; date?: string; inputTokens: number; outputTokens: number; cacheCreationTokens: number; cacheReadTokens: number };
    const theirs = (JSON.parse(cc.stdout) as { daily: Theirs[] }).daily.map((d) => [d.period ?? d.date, d.inputTokens, d.outputTokens, d.cacheCreationTokens, d.cacheReadTokens]);
    type Ours = { key: string; tokens: { input: number; output: number; cache_write: number; cache_read: number } };
    const ours = (JSON.parse(first.out[0]!.stdout) as { rows: Ours[] }).rows.map((r) => [r.key, r.tokens.input, r.tokens.output, r.tokens.cache_write, r.tokens.cache_read]);
    expect(ours).toEqual(theirs);
  });

  it('a second report ingests nothing: the stamp of the last refresh still holds', async () => {
    expect(existsSync(stampPath(defaultDbPath(m.env)))).toBe(true);
    const again = await report(m, ['daily'], { json: true });
    expect(again.run.answeredFrom).toBe('store');
    expect(again.run.ingest).toBeUndefined();
    expect(JSON.parse(again.out[0]!.stdout)).toEqual(JSON.parse(first.out[0]!.stdout));
  });

  it('without the stamp, the refresh stats every file and parses nothing, then stamps again', async () => {
    rmSync(stampPath(defaultDbPath(m.env)));
    const again = await report(m, ['daily'], { json: true });
    expect(again.run.answeredFrom).toBe('refreshed-store');
    expect(again.run.ingest).toMatchObject({ filesRead: 0, events: 0, lines: 0, bytes: 0 });
    expect(again.run.ingest!.filesUnchanged).toBe(again.run.ingest!.files);
    expect(JSON.parse(again.out[0]!.stdout)).toEqual(JSON.parse(first.out[0]!.stdout));
    expect(existsSync(stampPath(defaultDbPath(m.env)))).toBe(true);
    expect((await report(m, ['daily'], { json: true })).run.answeredFrom).toBe('store');
  });

  it('a damaged stamp (cut short, wrong shapes, a list where a path goes) means a refresh, never a crash', async () => {
    const path = stampPath(defaultDbPath(m.env));
    const good = readFileSync(path, 'utf8');
    const stamp = JSON.parse(good) as { dirs: unknown[][]; files: unknown[][] };
    for (const bad of [
      good.slice(0, good.length >> 1),
      JSON.stringify({ ...stamp, dirs: [[['/etc'], stamp.dirs[0]![1]], ...stamp.dirs.slice(1)] }),
      JSON.stringify({ ...stamp, files: [[stamp.files[0]![0], '12', 3], ...stamp.files.slice(1)] }),
      JSON.stringify({ ...stamp, files: null }),
      'null',
    ]) {
      writeFileSync(path, bad);
      const again = await report(m, ['daily'], { json: true });
      expect(again.run.answeredFrom).toBe('refreshed-store');
      expect(JSON.parse(again.out[0]!.stdout)).toEqual(JSON.parse(first.out[0]!.stdout));
    }
    expect((await report(m, ['daily'], { json: true })).run.answeredFrom).toBe('store');
  });

  it('a line appended since is read by the next report, and only that file', async () => {
    const slug = join(m.config, 'projects', '-path-to-Demo');
    const transcript = join(slug, readdirSync(slug).find((n) => n.endsWith('.jsonl'))!);
    appendFileSync(
      transcript,
      `${JSON.stringify({ type: 'assistant', sessionId: 'x', timestamp: '2026-03-01T10:00:00.000Z', requestId: 'req_new', message: { id: 'msg_new', model: 'claude-sonnet-4-5-20250929', role: 'assistant', content: [{ type: 'text', text: 'hi' }], usage: { input_tokens: 7, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 } } })}\n`,
    );
    const next = await report(m, ['daily'], { json: true });
    expect(next.run.answeredFrom).toBe('refreshed-store');
    expect(next.run.ingest).toMatchObject({ filesRead: 1 });
    const rows = (JSON.parse(next.out[0]!.stdout) as { rows: { key: string; tokens: { input: number } }[] }).rows;
    expect(rows.find((r) => r.key === '2026-03-01')?.tokens.input).toBe(7);
    expect((await report(m, ['daily'], { json: true })).run.answeredFrom).toBe('store');
  });

  it('a session file written in a new project folder since is read by the next report', async () => {
    const slug = join(m.config, 'projects', '-path-to-Fresh');
    mkdirSync(slug);
    const line = { type: 'assistant', sessionId: 'fresh-1', cwd: '/path/to/Fresh', timestamp: '2026-03-02T10:00:00.000Z', requestId: 'req_f', message: { id: 'msg_f', model: 'claude-sonnet-4-5-20250929', role: 'assistant', content: [{ type: 'text', text: 'hi' }], usage: { input_tokens: 11, output_tokens: 3, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 } } };
    writeFileSync(join(slug, 'fresh-1.jsonl'), `${JSON.stringify(line)}\n`);
    const next = await report(m, ['daily'], { json: true });
    expect(next.run.answeredFrom).toBe('refreshed-store');
    const rows = (JSON.parse(next.out[0]!.stdout) as { rows: { key: string; tokens: { input: number } }[] }).rows;
    expect(rows.find((r) => r.key === '2026-03-02')?.tokens.input).toBe(11);
  });

  it('a file rewritten in place with the same size is read again (its mtime moved)', async () => {
    const slug = join(m.config, 'projects', '-path-to-Fresh');
    const file = join(slug, 'fresh-1.jsonl');
    const text = readFileSync(file, 'utf8').replace('"input_tokens":11', '"input_tokens":12');
    writeFileSync(file, text);
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    const next = await report(m, ['daily'], { json: true });
    expect(next.run.answeredFrom).toBe('refreshed-store');
    const rows = (JSON.parse(next.out[0]!.stdout) as { rows: { key: string; tokens: { input: number } }[] }).rows;
    expect(rows.find((r) => r.key === '2026-03-02')?.tokens.input).toBe(12);
  });

  it('a stamped folder that has become a file: the next report refreshes instead of failing', async () => {
    const slug = join(m.config, 'projects', '-path-to-Fresh');
    rmSync(slug, { recursive: true });
    writeFileSync(slug, 'not a folder any more\n');
    // The stamp lists files below that folder: stat of <file>/fresh-1.jsonl is ENOTDIR, not ENOENT.
    const next = await report(m, ['daily'], { json: true });
    expect(next.run.answeredFrom).toBe('refreshed-store');
    expect(next.out[0]!.code).toBe(0);
    expect((await report(m, ['daily'], { json: true })).run.answeredFrom).toBe('store');
  });

  it('a stamped file replaced by a symbolic link loop: the next report refreshes instead of failing', async () => {
    const slug = join(m.config, 'projects', '-path-to-Loop');
    mkdirSync(slug);
    const file = join(slug, 'loop-1.jsonl');
    writeFileSync(file, `${JSON.stringify({ type: 'user', sessionId: 'loop-1', timestamp: '2026-03-03T10:00:00.000Z', message: { role: 'user', content: 'hi' } })}\n`);
    expect((await report(m, ['daily'], { json: true })).run.answeredFrom).toBe('refreshed-store');
    rmSync(file);
    symlinkSync(file, file);
    // stat of the stamped path now fails with ELOOP (not ENOENT): that is a change, not a crash.
    const next = await report(m, ['daily'], { json: true });
    expect(next.run.answeredFrom).toBe('refreshed-store');
    expect(next.out[0]!.code).toBe(0);
    rmSync(slug, { recursive: true });
  });

  it('sessions refreshes too (no usage pass: it reads the store after the ingest)', async () => {
    const fresh = machine();
    const listed = await report(fresh, [], { json: true }, 'sessions');
    expect(listed.run.answeredFrom).toBe('refreshed-store');
    expect((JSON.parse(listed.out[0]!.stdout) as { sessions: unknown[] }).sessions.length).toBeGreaterThan(0);
  });

  it('with runtime (hindsight) sessions beside: the pass reads both formats, with the full ingest\'s numbers', async () => {
    for (const [positionals, given] of [[['daily'], { json: true, breakdown: true }], [['session'], { json: true }], [['project'], { json: true }]] as const) {
      const fresh = machine();
      const day = join(fresh.home, 'data', 'hindsight', 'sessions', '2026', '05', '11');
      mkdirSync(day, { recursive: true });
      const id = '11111111-2222-4333-8444-555555555555';
      const records = [
        { type: 'session_start', ts: '2026-05-11T09:00:00.000Z', mode: 'chat', provider: 'openai-compatible', model: 'gpt-4o', cwd: '/srv/app', hindsight_version: '0.4.0' },
        { type: 'message', ts: '2026-05-11T09:00:01.000Z', role: 'user', content: 'hello', turn: 1 },
        { type: 'model_call', ts: '2026-05-11T09:00:02.000Z', turn: 1, step: 1, model: 'gpt-4o', usage: { input_tokens: 40, output_tokens: 9, cache_read_tokens: 3, cache_creation_tokens: 0 } },
      ];
      writeFileSync(join(day, `${id}.jsonl`), records.map((r, seq) => JSON.stringify({ session_id: id, seq, ...r })).join('\n') + '\n');
      const pass = await report(fresh, [...positionals], { ...given });
      expect(pass.run.passDeclined).toBeUndefined();
      expect(pass.run.answeredFrom).toBe('usage-pass');
      expect(pass.run.ingest!.roots.map((r) => r.format).sort()).toEqual(['claude-code', 'hindsight']);
      expect(pass.out[0]!.stdout).toContain('gpt-4o');
      expect(JSON.parse(pass.out[0]!.stdout)).toEqual(JSON.parse(await fromStore(fresh, [...positionals], { ...given })));
    }
  });

  it('links named like transcripts that lead nowhere (dangling, a loop): the pass answers with the ingest\'s numbers', async () => {
    const fresh = machine();
    const slug = join(fresh.config, 'projects', '-path-to-Links');
    mkdirSync(slug);
    symlinkSync(join(fresh.home, 'gone', 'x.jsonl'), join(slug, 'dangling-1.jsonl'));
    symlinkSync(join(slug, 'loop-1.jsonl'), join(slug, 'loop-1.jsonl'));
    const pass = await report(fresh, ['daily'], { json: true });
    expect(pass.run.code).toBe(0);
    expect(pass.run.answeredFrom).toBe('usage-pass');
    expect(pass.out[0]!.stdout).toBe(await fromStore(fresh, ['daily'], { json: true }));
    expect((await report(fresh, ['daily'], { json: true })).run.answeredFrom).toBe('store');
  });

  it('a zone that is UTC under another name (Etc/UTC, GMT) is answered by the pass, with the store\'s numbers', async () => {
    for (const timezone of ['Etc/UTC', 'GMT']) {
      const fresh = machine();
      const pass = await report(fresh, ['daily'], { json: true, timezone });
      expect(pass.run.answeredFrom).toBe('usage-pass');
      expect(pass.out[0]!.stdout).toBe(await fromStore(fresh, ['daily'], { json: true, timezone }));
    }
  });

  it('blocks and other time zones ingest first, then answer from the store', async () => {
    const fresh = machine();
    const zoned = await report(fresh, ['daily'], { json: true, timezone: 'Europe/Berlin' });
    expect(zoned.run.answeredFrom).toBe('refreshed-store');
    expect(zoned.out[0]!.stdout).toBe(await fromStore(fresh, ['daily'], { json: true, timezone: 'Europe/Berlin' }));
  });
});

describe('the command line', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  /** Run main() in this process with `env` over the test's environment; returns exit code and stdout. */
  async function cli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
    for (const [k, v] of Object.entries(env)) vi.stubEnv(k, v);
    let stdout = '';
    let stderr = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((s) => ((stdout += String(s)), true));
    vi.spyOn(process.stderr, 'write').mockImplementation((s) => ((stderr += String(s)), true));
    const code = await main(args);
    vi.restoreAllMocks();
    return { code, stdout, stderr };
  }

  it('--no-refresh reads the default store as it is (none: an error, nothing created)', async () => {
    const m = machine();
    const res = await cli(['usage', 'daily', '--json', '--no-refresh'], { ...m.env, HINDSIGHT_DB: '' });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/no store exists/);
    expect(existsSync(defaultDbPath(m.env))).toBe(false);
  });

  it('with $HINDSIGHT_DB the store is read as it is: new logs are not ingested', async () => {
    const m = machine();
    const db = join(tempDir(), 'named.db');
    // An empty store made by ingesting an empty folder: the fixture copy is never read into it.
    const empty = tempDir('hs-empty-');
    const made = await cli(['ingest', empty, '--format', 'claude-code', '--db', db, '--json'], {});
    expect(made.code).toBe(0);
    const res = await cli(['usage', 'daily', '--json'], { ...m.env, HINDSIGHT_DB: db });
    expect(res.code).toBe(0);
    expect((JSON.parse(res.stdout) as { rows: unknown[] }).rows).toEqual([]);
    const withFlag = await cli(['usage', 'daily', '--json', '--db', db], { ...m.env, HINDSIGHT_DB: '' });
    expect((JSON.parse(withFlag.stdout) as { rows: unknown[] }).rows).toEqual([]);
    expect(existsSync(defaultDbPath(m.env))).toBe(false);
  });

  it('on the default store, usage answers on a machine where nothing was ingested', async () => {
    const m = machine();
    const res = await cli(['usage', 'monthly', '--json'], { ...m.env, HINDSIGHT_DB: '' });
    expect(res.code).toBe(0);
    expect((JSON.parse(res.stdout) as { rows: unknown[] }).rows.length).toBeGreaterThan(0);
    expect(existsSync(defaultDbPath(m.env))).toBe(true);
  });
});
