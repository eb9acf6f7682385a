// `hindsight serve` built and run as a real process: real fetches on loopback against a store with
// real fixtures, the same answers as `hindsight tool`, tokens, refusals and clean shutdown.

import { spawn, type ChildProcess } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, copyFixture, runCli, tempDir } from '../helpers.js';

const CC_SESSION = '8463c716-a2ea-4c14-9efa-87158ebd9f20';
const CP_SESSION = 'SES-5078F5F8';

interface Served {
  child: ChildProcess;
  url: string;
  stderr: () => string;
  exit: Promise<number | null>;
}

function spawnServe(args: string[], env: NodeJS.ProcessEnv = {}) {
  const child = spawn(process.execPath, [BIN, 'serve', ...args], {
    env: { ...process.env, TZ: 'UTC', HINDSIGHT_TOKEN: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stderr: () => stderr, exit };
}

/** Start `hindsight serve` and wait for the line that names its URL. */
async function serve(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Served> {
  const s = spawnServe(args, env);
  const url = await new Promise<string>((resolve, reject) => {
    const check = () => {
      const m = /Hindsight is serving .* at (http:\/\/\S+?)\/\n/.exec(s.stderr());
      if (m) resolve(m[1]!);
    };
    s.child.stderr!.on('data', check);
    void s.exit.then((code) => reject(new Error(`serve exited with ${code}: ${s.stderr()}`)));
  });
  return { ...s, url };
}

async function stop(s: Served, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  s.child.kill(signal);
  return s.exit;
}

type Json = Record<string, any>;
const json = (url: string, init: RequestInit = {}) => fetch(url, init).then(async (r) => ({ res: r, body: (await r.json()) as Json }));
const postJson = (url: string, args: unknown, headers: Record<string, string> = {}) =>
  json(url, { method: 'POST', body: JSON.stringify(args), headers: { 'content-type': 'application/json', ...headers } });
const cliTool = (db: string, name: string, args: unknown) => JSON.parse(runCli(['tool', name, JSON.stringify(args), '--db', db]).stdout);

let db: string;
let server: Served;

beforeAll(async () => {
  db = join(tempDir('hs-e2e-http-'), 'h.db');
  const ingest = runCli(['ingest', copyFixture('claude-code'), copyFixture('control-plane/normal'), '--db', db]);
  expect(ingest.status, ingest.stderr).toBe(0);
  server = await serve(['--db', db, '--port', '0']);
});
afterAll(async () => {
  if (server.child.exitCode === null) await stop(server);
});

describe('hindsight serve', () => {
  it('says what it serves and where, on loopback', () => {
    expect(server.stderr()).toContain(`Hindsight is serving ${db} at ${server.url}/`);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('answers POST /api/tools/<name> exactly as `hindsight tool` does', async () => {
    const cases: [string, Record<string, unknown>][] = [
      ['list_sessions', { limit: 5 }],
      ['session_overview', { session_id: CC_SESSION }],
      ['reconstruct_session', { session_id: CP_SESSION, limit: 30 }],
      ['grep_jsonl', { pattern: 'DEGRADATION', ledger: 'ho2m' }],
      ['usage_report', { group_by: 'daily' }],
    ];
    for (const [name, args] of cases) {
      const { res, body } = await postJson(`${server.url}/api/tools/${name}`, args);
      expect(res.status, name).toBe(200);
      expect(body, name).toEqual(cliTool(db, name, args));
    }
  });

  it('serves the GET views, the registry and the OpenAPI document', async () => {
    const overview = await json(`${server.url}/api/sessions/${CC_SESSION}`);
    expect(overview.body).toEqual(cliTool(db, 'session_overview', { session_id: CC_SESSION }));
    const page = await json(`${server.url}/api/sessions/${CC_SESSION}/timeline?limit=10&offset=5`);
    expect(page.body).toEqual(cliTool(db, 'reconstruct_session', { session_id: CC_SESSION, limit: 10, offset: 5 }));
    const tools = JSON.parse(runCli(['tools', '--json']).stdout) as { tools: { tool_id: string }[] };
    const { body: openapi } = await json(`${server.url}/api/openapi.json`);
    expect(openapi.openapi).toBe('3.1.0');
    for (const t of tools.tools) expect(Object.keys(openapi.paths)).toContain(`/api/tools/${t.tool_id}`);
    const { body: registry } = await json(`${server.url}/api/tools`);
    expect(registry).toEqual(tools);
  });

  it('maps tool errors to statuses with the same envelope', async () => {
    const { res, body } = await postJson(`${server.url}/api/tools/session_overview`, { session_id: 'nope' });
    expect(res.status).toBe(404);
    expect(body).toEqual(cliTool(db, 'session_overview', { session_id: 'nope' }));
    const bad = await fetch(`${server.url}/api/tools/list_sessions`, { method: 'POST', body: '{oops', headers: { 'content-type': 'application/json' } });
    expect([bad.status, ((await bad.json()) as { code: string }).code]).toEqual([400, 'MALFORMED_JSON']);
    const big = await fetch(`${server.url}/api/tools/search_sessions`, {
      method: 'POST',
      body: JSON.stringify({ query: 'x'.repeat(2 * 1024 * 1024) }),
      headers: { 'content-type': 'application/json' },
    });
    expect([big.status, ((await big.json()) as { code: string }).code]).toEqual([413, 'BODY_TOO_LARGE']);
  });

  it('serves the viewer at / with the security headers and no CORS', async () => {
    const res = await fetch(`${server.url}/`, { headers: { origin: 'https://evil.example' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const api = await fetch(`${server.url}/api/sessions`, { headers: { origin: 'https://evil.example' } });
    expect(api.headers.get('cache-control')).toBe('no-store');
    for (const r of [res, api]) for (const [name] of r.headers) expect(name).not.toMatch(/^access-control-/);
  });

  it('refuses a Host header that is not a loopback name', async () => {
    const port = new URL(server.url).port;
    const res = await new Promise<number>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write(`GET /api/sessions HTTP/1.1\r\nHost: rebound.example:${port}\r\nConnection: close\r\n\r\n`);
      });
      let data = '';
      socket.on('data', (d: Buffer) => (data += d.toString()));
      socket.on('end', () => resolve(Number(/^HTTP\/1\.1 (\d+)/.exec(data)?.[1])));
      socket.on('error', reject);
    });
    expect(res).toBe(403);
  });

  it('answers many requests at once', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => postJson(`${server.url}/api/tools/list_sessions`, { limit: 1, offset: i % 5 })),
    );
    expect(answers.every((a) => a.res.status === 200 && a.body.status === 'ok')).toBe(true);
  });

  it('sees what an ingest in another process adds while it serves', async () => {
    const fresh = join(tempDir('hs-e2e-http-live-'), 'h.db');
    const s = await serve(['--db', fresh, '--port', '0']);
    try {
      expect((await json(`${s.url}/api/sessions`)).body.count).toBe(0);
      const ingest = runCli(['ingest', copyFixture('control-plane/normal'), '--db', fresh]);
      expect(ingest.status, ingest.stderr).toBe(0);
      expect((await json(`${s.url}/api/sessions`)).body.count).toBe(12);
    } finally {
      await stop(s);
    }
  });

  it('stops cleanly on SIGINT and on SIGTERM', async () => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      const s = await serve(['--db', db, '--port', '0']);
      await fetch(`${s.url}/api/sessions?limit=1`); // a keep-alive connection must not hold it open
      expect(await stop(s, signal), signal).toBe(0);
      expect(s.stderr()).toContain('Hindsight stopped serving.');
    }
  });
});

describe('hindsight serve with a token', () => {
  it('refuses a non-loopback host without a token (exit 2)', async () => {
    const s = spawnServe(['--db', db, '--host', '0.0.0.0', '--port', '0']);
    expect(await s.exit).toBe(2);
    expect(s.stderr()).toMatch(/Pass --token T \(or set HINDSIGHT_TOKEN\)/);
  });

  it('serves a non-loopback host with a token, and /api needs it', async () => {
    const s = await serve(['--db', db, '--host', '0.0.0.0', '--port', '0', '--token', 'e2e-secret']);
    try {
      const port = new URL(s.url).port;
      const base = `http://127.0.0.1:${port}`;
      const denied = await postJson(`${base}/api/tools/list_sessions`, { limit: 1 });
      expect([denied.res.status, denied.body.code]).toEqual([401, 'UNAUTHORIZED']);
      const wrong = await postJson(`${base}/api/tools/list_sessions`, { limit: 1 }, { authorization: 'Bearer nope' });
      expect(wrong.res.status).toBe(401);
      const ok = await postJson(`${base}/api/tools/list_sessions`, { limit: 1 }, { authorization: 'Bearer e2e-secret' });
      expect([ok.res.status, ok.body.status]).toEqual([200, 'ok']);
      expect((await fetch(`${base}/`)).status).toBe(200);
    } finally {
      await stop(s);
    }
  });

  it('takes the token from HINDSIGHT_TOKEN on loopback too', async () => {
    const s = await serve(['--db', db, '--port', '0'], { HINDSIGHT_TOKEN: 'from-env' });
    try {
      expect((await fetch(`${s.url}/api/sessions`)).status).toBe(401);
      expect((await fetch(`${s.url}/api/sessions`, { headers: { authorization: 'Bearer from-env' } })).status).toBe(200);
      expect(s.stderr()).not.toContain('from-env');
    } finally {
      await stop(s);
    }
  });
});

describe('hindsight serve refusals', () => {
  it('refuses a port that is not a number (exit 2)', async () => {
    const s = spawnServe(['--db', db, '--port', 'eighty']);
    expect(await s.exit).toBe(2);
    expect(s.stderr()).toMatch(/--port must be a whole number/);
  });

  it('refuses an empty --token (it would lock every request out) with exit 2, for serve and mcp --http', () => {
    for (const args of [['serve', '--token', ''], ['mcp', '--http', '--token', '']]) {
      const res = runCli([...args, '--db', db, '--port', '0']);
      expect(res.status, args.join(' ')).toBe(2);
      expect(res.stderr).toMatch(/--token must not be empty/);
    }
  });

  it('says which port is taken (exit 1)', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const s = spawnServe(['--db', db, '--port', String(port)]);
      expect(await s.exit).toBe(1);
      expect(s.stderr()).toMatch(new RegExp(`port ${port} on 127\\.0\\.0\\.1 is already in use: pass another --port`));
    } finally {
      blocker.close();
    }
  });
});
