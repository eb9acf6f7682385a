// The team server end to end, on SQLite and on PostgreSQL: `hindsight token` from the built CLI,
// then `hindsight serve` and `hindsight mcp --http` as real processes, driven over loopback with
// fetch and the MCP SDK Client — scopes, read-only redaction, 401s and revocation at once.

import { spawn, type ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresUnavailable } from '../../src/store/conformance/engines.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import {
  A_SESSION,
  B_SESSION,
  CP_SESSION,
  foreignMarks,
  PLANTED_MARK,
  PROJECT_A,
  teamFixture,
  type TeamFixture,
} from '../../src/surfaces/access/test-team.js';
import { BIN, runCli } from '../helpers.js';

type Json = Record<string, any>;
const unavailable = await postgresUnavailable();
const children: ChildProcess[] = [];

/** Start a server command of the built CLI and wait for the URL it prints on stderr. */
function start(args: string[], pattern: RegExp): Promise<{ child: ChildProcess; url: string; stderr: () => string }> {
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, TZ: 'UTC', HINDSIGHT_TOKEN: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stderr = '';
  return new Promise((resolve, reject) => {
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      stderr += chunk;
      const url = pattern.exec(stderr)?.[1];
      if (url) resolve({ child, url, stderr: () => stderr });
    });
    child.once('exit', (code) => reject(new Error(`hindsight ${args[0]} exited ${code}: ${stderr}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

afterAll(async () => {
  await Promise.all(children.map(stop));
});

/** `hindsight token create`: the token is the last word of the output. */
function createToken(db: string, user: string, projects: string, ...flags: string[]): string {
  const res = runCli(['token', 'create', '--user', user, `--projects=${projects}`, ...flags, '--db', db]);
  expect(res.status, res.stderr).toBe(0);
  const token = res.stdout.trim().split(/\s+/).pop()!;
  expect(token).toMatch(/^hst_tk_[0-9a-f]{10}_[A-Za-z0-9_-]{43}$/);
  return token;
}

async function tokenRows(f: TeamFixture): Promise<Record<string, unknown>[]> {
  if (f.store instanceof SqliteStore) return f.store.db.prepare('SELECT * FROM access_tokens ORDER BY created_at').all() as Record<string, unknown>[];
  return (await (f.store as PostgresStore).pool.query('SELECT * FROM access_tokens ORDER BY created_at')).rows as Record<string, unknown>[];
}

describe.each(['sqlite', 'postgres'] as const)('a team server on %s', (kind) => {
  const skip = kind === 'postgres' && unavailable !== null;
  let f: TeamFixture;
  let ana: string;
  let rita: string;
  let plane: string;
  let api: { url: string; stderr: () => string };
  let mcp: { url: string; stderr: () => string };

  const post = async (name: string, args: Json, token?: string) => {
    const res = await fetch(`${api.url}/api/tools/${name}`, {
      method: 'POST',
      body: JSON.stringify(args),
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
    return { status: res.status, body: (await res.json()) as Json };
  };

  const mcpClient = async (token: string) => {
    const client = new Client({ name: 'hindsight-team-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcp.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    return client;
  };

  beforeAll(async () => {
    if (skip) return;
    f = await teamFixture(kind);
  }, 120_000);
  afterAll(async () => {
    await f?.store.close();
    await f?.engine.dispose();
  });

  it.skipIf(skip)('token create prints the token last; list never shows it; the table holds hashes', async () => {
    ana = createToken(f.db, 'ana', PROJECT_A);
    rita = createToken(f.db, 'rita', PROJECT_A, '--read-only');
    plane = createToken(f.db, 'pat', f.planeRoot);
    const list = runCli(['token', 'list', '--db', f.db]);
    expect(list.status).toBe(0);
    expect(list.stdout).toMatch(/ana\s+read-write, active/);
    expect(list.stdout).toMatch(/rita\s+read-only, active/);
    const listed = JSON.parse(runCli(['token', 'list', '--json', '--db', f.db]).stdout) as Json;
    expect(listed.tokens.map((t: Json) => [t.user, t.projects, t.read_only, t.revoked_at])).toEqual([
      ['ana', [PROJECT_A], false, null],
      ['rita', [PROJECT_A], true, null],
      ['pat', [f.planeRoot], false, null],
    ]);
    const rows = await tokenRows(f);
    expect(rows).toHaveLength(3);
    for (const secret of [ana, rita, plane]) {
      const tail = secret.slice(-43);
      expect(list.stdout).not.toContain(tail);
      expect(JSON.stringify(listed)).not.toContain(tail);
      expect(JSON.stringify(rows)).not.toContain(tail);
    }
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(String(r.token_hash)))).toBe(true);
    const bad = runCli(['token', 'create', '--user', 'x', '--db', f.db]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--projects/);
  });

  it.skipIf(skip)('serve: no token is 401; a token sees its projects only', async () => {
    api = await start(['serve', '--port', '0', '--db', f.db], /Hindsight is serving .* at (http:\/\/\S+?)\/\n/);
    const none = await post('list_sessions', {});
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ status: 'error', code: 'UNAUTHORIZED' });
    expect((await post('list_sessions', {}, 'hst_tk_0123456789_forged')).status).toBe(401);
    const mine = await post('list_sessions', { top_level_only: false, limit: 500 }, ana);
    expect(mine.status).toBe(200);
    expect(mine.body.sessions.map((s: Json) => s.project)).toEqual(Array(3).fill(PROJECT_A));
    const other = await post('get_session', { session_id: B_SESSION }, ana);
    expect(other).toMatchObject({ status: 404, body: { code: 'SESSION_NOT_FOUND' } });
    const grep = await post('grep_jsonl', { pattern: 'SESSION', ledger: 'governance' }, plane);
    expect(grep.status).toBe(200);
    expect(grep.body.count).toBeGreaterThan(0);
    const planeSessions = await post('list_sessions', { limit: 500 }, plane);
    expect(planeSessions.body.sessions.length).toBeGreaterThan(0);
    expect(planeSessions.body.sessions.every((s: Json) => s.format === 'control-plane')).toBe(true);
    const search = await fetch(`${api.url}/api/search?q=spotter&limit=100`, { headers: { authorization: `Bearer ${ana}` } }).then((r) => r.json() as Promise<Json>);
    const text = JSON.stringify(search);
    for (const mark of foreignMarks(f, [PROJECT_A])) expect(text).not.toContain(mark);
    expect(search.count).toBeGreaterThan(0);
    // The viewer's files still load without a token (they hold no data).
    expect((await fetch(`${api.url}/`)).status).toBe(200);
  });

  it.skipIf(skip)('serve: a read-only token gets redacted evidence and no rewind', async () => {
    const raw = await post('raw_lines', { session_id: A_SESSION, limit: 10 }, rita);
    expect(raw.status).toBe(200);
    expect(JSON.stringify(raw.body)).toContain('[REDACTED:api_key]');
    expect(JSON.stringify(raw.body)).not.toContain(PLANTED_MARK);
    expect(JSON.stringify((await post('raw_lines', { session_id: A_SESSION, limit: 10 }, ana)).body)).toContain(PLANTED_MARK);
    const rewind = await post('rewind_session', { session_id: A_SESSION, to_turn: 1 }, rita);
    expect(rewind).toMatchObject({ status: 403, body: { code: 'READ_ONLY_TOKEN' } });
    expect((await post('list_files', {}, ana)).body.code).toBe('MACHINE_TOOL_REFUSED');
  });

  it.skipIf(skip)('mcp --http: the SDK client sees its projects only; no token is 401', async () => {
    mcp = await start(['mcp', '--http', '--port', '0', '--db', f.db], /(http:\/\/\S+\/mcp)/);
    const client = await mcpClient(ana);
    try {
      const list = await client.callTool({ name: 'list_sessions', arguments: { top_level_only: false } });
      expect((list.structuredContent as Json).sessions.map((s: Json) => s.session_id).sort()).toEqual(
        [...f.sessionsByProject.get(PROJECT_A)!].sort(),
      );
      const other = await client.callTool({ name: 'session_overview', arguments: { session_id: CP_SESSION } });
      expect(other.isError).toBe(true);
      expect(other._meta?.['hindsight/code']).toBe('SESSION_NOT_FOUND');
    } finally {
      await client.close();
    }
    const reader = await mcpClient(rita);
    try {
      const grep = await reader.callTool({ name: 'grep_jsonl', arguments: { pattern: 'first ready task', session_id: A_SESSION } });
      expect(JSON.stringify(grep)).not.toContain(PLANTED_MARK);
      expect((grep.structuredContent as Json).count).toBeGreaterThan(0);
    } finally {
      await reader.close();
    }
    const refused = await fetch(mcp.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it.skipIf(skip)('token revoke: both running servers refuse the token from the next request', async () => {
    const listed = JSON.parse(runCli(['token', 'list', '--json', '--db', f.db]).stdout) as Json;
    const id = listed.tokens.find((t: Json) => t.user === 'ana').id as string;
    expect(ana.startsWith(`hst_${id}_`)).toBe(true);
    expect((await post('list_sessions', {}, ana)).status).toBe(200);
    const revoked = runCli(['token', 'revoke', id, '--db', f.db]);
    expect(revoked.status, revoked.stderr).toBe(0);
    expect(revoked.stdout).toContain(`Revoked token ${id}`);
    expect((await post('list_sessions', {}, ana)).status).toBe(401);
    await expect(mcpClient(ana)).rejects.toThrow(/401|not the one|revoked/);
    expect((await post('list_sessions', {}, rita)).status).toBe(200);
    const again = JSON.parse(runCli(['token', 'list', '--json', '--db', f.db]).stdout) as Json;
    expect(again.tokens.find((t: Json) => t.id === id).revoked_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(again.tokens.find((t: Json) => t.user === 'rita').last_used_at).not.toBeNull();
    expect(api.stderr()).toMatch(/This store has team tokens/);
    expect(mcp.stderr()).toMatch(/bearer token required: the admin --token or a team token/);
    const unknown = runCli(['token', 'revoke', 'tk_nope', '--db', f.db]);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toMatch(/No token has the id "tk_nope".*token list/);
  });
});
