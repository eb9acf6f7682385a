// The built `hindsight` command driven end to end: ingest, tools, tool, exit codes, the lock.

import { cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FORMATS } from '../../src/formats/registry.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { FIXTURES, REPO, runCli, tempDir } from '../helpers.js';

describe('hindsight CLI', () => {
  const db = join(tempDir('hs-cli-'), 'h.db');

  it('ingests every fixture set with a JSON summary', () => {
    const res = runCli([
      'ingest',
      join(FIXTURES, 'claude-code'),
      join(FIXTURES, 'amplifier', 'normal'),
      join(FIXTURES, 'amplifier', 'edge'),
      join(FIXTURES, 'amplifier', 'real'),
      join(FIXTURES, 'control-plane', 'normal'),
      join(FIXTURES, 'control-plane', 'edge'),
      '--db',
      db,
      '--json',
    ]);
    expect(res.status).toBe(0);
    const summary = JSON.parse(res.stdout) as Record<string, unknown> & { roots: { format: string }[] };
    expect(summary.status).toBe('ok');
    expect(summary.roots.map((r) => r.format)).toEqual(['claude-code', 'amplifier', 'amplifier', 'amplifier', 'control-plane', 'control-plane']);
    for (const key of ['files', 'sessions', 'events', 'badLines', 'bytes', 'seconds']) expect(typeof summary[key]).toBe('number');
    // 10 Claude Code sessions (6 + 2 sub-agent files + 2 inline sidechains), 8 + 13 + 3 Amplifier, 12 + 6 Control Plane.
    expect(summary.sessions).toBe(10 + 24 + 18);
  });

  it('prints a human summary and skips unchanged files on a second run', () => {
    const res = runCli(['ingest', join(FIXTURES, 'control-plane', 'normal'), '--db', db]);
    expect(res.status).toBe(0);
    expect(res.stdout).toMatch(/3 files \(0 read, 3 unchanged\)/);
  });

  it('lists tools with JSON schemas in the admin_config shape', () => {
    const res = runCli(['tools', '--json']);
    expect(res.status).toBe(0);
    const { tools } = JSON.parse(res.stdout) as { tools: { tool_id: string; description: string; parameters: { type: string }; output: object }[] };
    expect(tools.map((t) => t.tool_id)).toEqual(expect.arrayContaining(['list_sessions', 'raw_lines', 'sources']));
    for (const t of tools) {
      expect(t.parameters.type).toBe('object');
      expect(t.description.length).toBeGreaterThan(20);
      expect(t.output).toBeTruthy();
    }
  });

  it('runs a tool and exits 0 on ok', () => {
    const res = runCli(['tool', 'list_sessions', '{"format":"control-plane","limit":3}', '--db', db]);
    expect(res.status).toBe(0);
    const body = JSON.parse(res.stdout) as { status: string; count: number; returned: number; has_more: boolean; next_offset: number };
    expect(body).toMatchObject({ status: 'ok', count: 18, returned: 3, has_more: true, next_offset: 3 });
  });

  it('exits 1 with an error envelope for arguments the tool rejects', () => {
    const res = runCli(['tool', 'list_sessions', '{"limit":0}', '--db', db]);
    expect(res.status).toBe(1);
    const body = JSON.parse(res.stdout) as { status: string; error: string; code: string };
    expect(body.status).toBe('error');
    expect(body.code).toBe('INVALID_ARGUMENTS');
    expect(body.error).toMatch(/limit must be from 1 to 500/);
  });

  it('exits 1 for an unknown session', () => {
    const res = runCli(['tool', 'raw_lines', '{"session_id":"SES-NOPE"}', '--db', db]);
    expect(res.status).toBe(1);
    expect(JSON.parse(res.stdout)).toMatchObject({ status: 'error', code: 'SESSION_NOT_FOUND' });
  });

  it('exits 2 for an unknown tool or arguments that are not JSON', () => {
    const unknown = runCli(['tool', 'no_such_tool', '{}', '--db', db]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/unknown tool "no_such_tool"/);
    const notJson = runCli(['tool', 'list_sessions', '{limit:', '--db', db]);
    expect(notJson.status).toBe(2);
    expect(notJson.stderr).toMatch(/not JSON/);
  });

  it('ingests a single session file with its sub-agents', () => {
    const other = join(tempDir(), 'h.db');
    const file = join(FIXTURES, 'claude-code', 'projects', '-home-USER-projects-spotter-worktrees-spotter-fum', '8463c716-a2ea-4c14-9efa-87158ebd9f20.jsonl');
    const res = runCli(['ingest', file, '--db', other, '--json']);
    expect(res.status).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ sessions: 3, files: 3 });
    const amp = join(FIXTURES, 'amplifier', 'normal', 'projects', '-home-maya-src-acme-billing', 'sessions', 'f31d2334-3e59-4fd1-8a90-ee46c04cd0c2', 'events.jsonl');
    const res2 = runCli(['ingest', amp, '--db', other, '--json']);
    expect(res2.status).toBe(0);
    expect(JSON.parse(res2.stdout)).toMatchObject({ files: 3 }); // metadata, transcript, events of that session
    const shown = runCli(['session', 'f31d2334-3e59-4fd1-8a90-ee46c04cd0c2', '--db', other]);
    expect(shown.stdout).toMatch(/3 turns/);
  });

  it('refuses a file that is not a session, and a session file whose folder is no known layout', () => {
    const dir = tempDir();
    const slug = join(dir, 'projects', '-tmp-x');
    mkdirSync(slug, { recursive: true });
    writeFileSync(join(slug, 'aaaaaaaa-0000-4000-8000-000000000009.jsonl'), '{"type":"user"}\n');
    writeFileSync(join(slug, 'notes.txt'), 'not a session\n');
    const notSession = runCli(['ingest', join(slug, 'notes.txt'), '--db', join(dir, 'h.db')]);
    expect(notSession.status).toBe(1);
    expect(notSession.stdout).toMatch(/notes\.txt is not a session file of claude-code/);
    const loose = join(tempDir(), 'loose.jsonl');
    writeFileSync(loose, '{"a":1}\n');
    const unknown = runCli(['ingest', loose, '--db', join(dir, 'h.db')]);
    expect(unknown.status).toBe(1);
    expect(unknown.stdout).toMatch(/Could not tell which agent wrote .*loose\.jsonl/);
    // Every format this build reads is named, with the --format value that picks it.
    const named = /Pass --format \(([^)]*)\)/.exec(unknown.stdout)?.[1]?.split(', ');
    expect(named?.sort()).toEqual([...FORMATS].sort());
  });

  it('reports a path that does not exist and ingests the others', () => {
    const other = join(tempDir(), 'h.db');
    const res = runCli(['ingest', '/nonexistent/place', join(FIXTURES, 'control-plane', 'normal'), '--db', other]);
    expect(res.status).toBe(1);
    expect(res.stdout).toMatch(/✗ \/nonexistent\/place: No such file or folder/);
    expect(res.stdout).toMatch(/12 sessions/);
  });

  it('ingests the default locations when no path is given, and says which', () => {
    const home = tempDir('hs-home-');
    const claude = join(home, '.claude');
    mkdirSync(claude, { recursive: true });
    cpSync(join(FIXTURES, 'claude-code', 'projects'), join(claude, 'projects'), { recursive: true });
    const res = runCli(['ingest', '--db', join(home, 'h.db')], { HOME: home, CLAUDE_CONFIG_DIR: '', HINDSIGHT_CP_ROOT: '' });
    expect(res.status).toBe(0);
    expect(res.stdout).toMatch(/No path given; ingested the default locations:/);
    expect(res.stdout).toContain(claude);
  });

  it('refuses a second concurrent ingest with a clear message', async () => {
    const other = join(tempDir(), 'h.db');
    const store = new SqliteStore(other);
    const writer = await store.beginIngest();
    try {
      const res = runCli(['ingest', join(FIXTURES, 'control-plane', 'normal'), '--db', other]);
      expect(res.status).toBe(1);
      expect(res.stderr).toMatch(/Another hindsight ingest \(pid \d+\) is writing to/);
    } finally {
      await writer.release();
      await store.close();
    }
  });

  it('shows sessions and one session as text', () => {
    const table = runCli(['sessions', '--db', db, '--limit', '5']);
    expect(table.status).toBe(0);
    expect(table.stdout).toMatch(/^SESSION\s+FORMAT\s+KIND\s+STATUS/);
    const top = runCli(['sessions', '--db', db, '--top-level', '--format', 'claude-code']);
    expect(top.stdout).toMatch(/^6 sessions$/m);
    const one = runCli(['session', '8463c716-a2ea-4c14-9efa-87158ebd9f20', '--db', db]);
    expect(one.status).toBe(0);
    expect(one.stdout).toMatch(/children \(2\)/);
    expect(one.stdout).toMatch(/ledgers: transcript/);
    const missing = runCli(['session', 'NOPE', '--db', db]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/No session has the id "NOPE"/);
  });

  it('says clearly when the store cannot be opened', () => {
    const res = runCli(['tool', 'sources', '{}', '--db', tempDir()]);
    expect(res.status).toBe(1);
    expect(res.stderr).toMatch(/Cannot open the store at .* \(it is a folder\)\. Pass a writable file path with --db/);
    expect(res.stderr).not.toMatch(/at new /); // no stack trace
    const notDb = join(tempDir(), 'notes.db');
    writeFileSync(notDb, 'these are notes, not a database\n'.repeat(200));
    const other = runCli(['sessions', '--db', notDb]);
    expect(other.status).toBe(1);
    expect(other.stderr).toMatch(/Cannot open the store at .*notes\.db \(it is not a SQLite database\)/);
    expect(other.stderr).not.toMatch(/SqliteError|at new /);
  });

  it('ingest writes a usable file for a new --db path in a folder that does not exist yet; reads never create one', () => {
    const nested = join(tempDir(), 'a', 'b', 'h.db');
    const read = runCli(['tool', 'sources', '{}', '--db', nested]);
    expect(read.status).toBe(1);
    expect(read.stderr).toMatch(/no store exists there/);
    expect(existsSync(nested)).toBe(false);
    expect(runCli(['ingest', join(FIXTURES, 'claude-code'), '--db', nested]).status).toBe(0);
    const res = runCli(['tool', 'sources', '{}', '--db', nested]);
    expect(res.status).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ status: 'ok' });
  });
});

describe('npm run demo', () => {
  it('generates, ingests and shows sessions of every format without a server', async () => {
    const { spawnSync } = await import('node:child_process');
    const res = spawnSync(process.execPath, [join(REPO, 'dist', 'demo', 'run-demo.js')], { encoding: 'utf8', env: { ...process.env, TZ: 'UTC' } });
    expect(res.status).toBe(0);
    for (const section of ['1. Generating', '2. hindsight ingest', '3. hindsight sessions --top-level', '4. hindsight session', '5. hindsight show', '6. hindsight timeline', '7. hindsight show SES-', '8. hindsight ledger', '9. hindsight grep', '10. hindsight tool raw_lines', '11. hindsight usage session', '12. hindsight inspect --metrics', 'Try next']) {
      expect(res.stdout).toContain(section);
    }
    expect(res.stdout).toMatch(/claude-code/);
    expect(res.stdout).toMatch(/amplifier/);
    expect(res.stdout).toMatch(/control-plane/);
    for (const format of ['codex', 'gemini', 'opencode']) expect(res.stdout).toContain(`(${format})`); // each root ingested as its format
    expect(res.stdout).toMatch(/Re-ingest of the unchanged corpus: (\d+)\/\1 files skipped/);
    expect(res.stdout).toMatch(/The user started with “/); // the about paragraph of show
    expect(res.stdout).toMatch(/\d+ of \d+ events;.* next page: hindsight timeline/);
    expect(res.stdout).toMatch(/HO1\/ledger\/ho1m\.jsonl:\d+\s+TOOL_CALL/);
    expect(res.stdout).toMatch(/^TOTAL\s+\d+\s+.*\$\d+\.\d\d/m); // the usage table's totals, priced
    expect(res.stdout).toMatch(/^DATE\s+FORMAT\s+MODEL\s+STEPS\s+TOOL CALLS\s+STATUS\s+FILES/m);
  });
});
