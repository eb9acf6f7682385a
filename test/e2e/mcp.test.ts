// The built `hindsight mcp` end to end with the SDK's own Client: over stdio (the CLI spawned by
// the client) and over Streamable HTTP (the CLI listening on a free loopback port).

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOLS } from '../../src/tools/registry.js';
import { BIN, copyFixture, runCli, tempDir } from '../helpers.js';

const db = join(tempDir('hs-mcp-e2e-'), 'h.db');
const CC_SESSION = '8463c716-a2ea-4c14-9efa-87158ebd9f20';
const children: ChildProcess[] = [];

beforeAll(() => {
  const res = runCli(['ingest', copyFixture('claude-code'), copyFixture('control-plane/normal'), '--db', db]);
  expect(res.status, res.stderr).toBe(0);
});

afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
});

const text = (r: CallToolResult): string => (r.content[0]?.type === 'text' ? r.content[0].text : '');

/** What every transport must show (started with --tools all --output-schemas): the registry, hints, results, errors and max_bytes. */
async function exercise(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
  for (const t of tools) {
    expect(t.inputSchema.type).toBe('object');
    expect(t.outputSchema?.type).toBe('object');
    expect(t.annotations?.readOnlyHint, t.name).toBe(t.name !== 'rewind_session');
  }
  expect(tools.find((t) => t.name === 'rewind_session')?.annotations?.destructiveHint).toBe(true);

  const list = (await client.callTool({ name: 'list_sessions', arguments: { limit: 5 } })) as CallToolResult;
  expect(list.isError).toBeFalsy();
  expect(list.structuredContent).toMatchObject({ status: 'ok', returned: 5 });
  expect(JSON.parse(text(list))).toEqual(list.structuredContent);

  const overview = (await client.callTool({ name: 'session_overview', arguments: { session_id: CC_SESSION } })) as CallToolResult;
  expect(overview.structuredContent).toMatchObject({ status: 'ok' });
  expect(text(overview)).toContain('"status":"ok"');

  const bad = (await client.callTool({ name: 'list_sessions', arguments: { limit: 'many' } })) as CallToolResult;
  expect(bad.isError).toBe(true);
  expect(text(bad)).toMatch(/^Invalid arguments for list_sessions: limit: limit must be a whole number from 1 to 500\.$/);

  const missing = (await client.callTool({ name: 'session_overview', arguments: { session_id: 'no-such-session' } })) as CallToolResult;
  expect(missing.isError).toBe(true);
  expect(text(missing)).toMatch(/^No session .*"no-such-session".*list_sessions/);

  const capped = (await client.callTool({ name: 'list_sessions', arguments: { top_level_only: false, limit: 100, max_bytes: 1200 } })) as CallToolResult;
  expect(capped.structuredContent).toMatchObject({ status: 'ok', truncated: true });
  expect(Buffer.byteLength(text(capped))).toBeLessThanOrEqual(1200);
}

/** Start `hindsight mcp --http …` and wait for the URL it prints on stderr. */
function startHttp(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [BIN, 'mcp', '--http', '--port', '0', '--db', db, ...args], {
    env: { ...process.env, TZ: 'UTC', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      stderr += chunk;
      const url = /(http:\/\/\S+\/mcp)/.exec(stderr)?.[1];
      if (url) resolve({ child, url });
    });
    child.once('exit', (code) => reject(new Error(`hindsight mcp --http exited ${code}: ${stderr}`)));
  });
}

function exited(child: ChildProcess): Promise<number | null> {
  return child.exitCode !== null ? Promise.resolve(child.exitCode) : new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

describe('hindsight mcp (stdio)', () => {
  it('serves the registry to the SDK client spawning the CLI', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--tools', 'all', '--output-schemas', '--db', db], stderr: 'pipe' });
    const client = new Client({ name: 'hindsight-e2e', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect(client.getServerVersion()).toMatchObject({ name: 'hindsight' });
      await exercise(client);
    } finally {
      await client.close();
    }
  });

  it('writes nothing but JSON-RPC on stdout, answers what it read, and exits 0 when stdin ends', () => {
    const input = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'sh', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_sessions', arguments: { limit: 2 } } },
    ]
      .map((m) => JSON.stringify(m))
      .join('\n');
    const res = spawnSync(process.execPath, [BIN, 'mcp', '--db', db], { input: `${input}\n`, encoding: 'utf8', timeout: 60_000 });
    expect(res.status, res.stderr).toBe(0);
    const lines = res.stdout.trim().split('\n').map((l) => JSON.parse(l) as { id: number; result: { structuredContent?: { returned: number } } });
    expect(lines.map((l) => l.id)).toEqual([1, 2]);
    expect(lines[1]?.result.structuredContent?.returned).toBe(2);
    expect(res.stderr).toContain('over stdio');
  });

  it('refuses --host, --port and --token without --http (exit 2)', () => {
    const res = runCli(['mcp', '--port', '9999', '--db', db]);
    expect(res.status).toBe(2);
    expect(res.stderr).toMatch(/--port only apply with --http/);
  });
});

describe('hindsight mcp --http', () => {
  it('serves the registry over Streamable HTTP on a free port and stops on SIGTERM', async () => {
    const { child, url } = await startHttp(['--tools', 'all', '--output-schemas']);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = new Client({ name: 'hindsight-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      await exercise(client);
    } finally {
      await client.close();
    }
    child.kill('SIGTERM');
    expect(await exited(child)).toBe(0);
  });

  it('enforces the token (--token, or HINDSIGHT_TOKEN): 401 without it', async () => {
    for (const [args, env] of [[['--token', 'cli-secret'], {}], [[], { HINDSIGHT_TOKEN: 'cli-secret' }]] as const) {
      const { child, url } = await startHttp([...args], env);
      const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
      const denied = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify(init),
      });
      expect(denied.status).toBe(401);
      const client = new Client({ name: 'hindsight-e2e', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: 'Bearer cli-secret' } } }));
      const r = (await client.callTool({ name: 'list_sessions', arguments: { limit: 1 } })) as CallToolResult;
      expect(r.structuredContent).toMatchObject({ status: 'ok', returned: 1 });
      await client.close();
      child.kill('SIGTERM');
      expect(await exited(child)).toBe(0);
    }
  });

  it('refuses a non-loopback host without a token (exit 2), and a malformed port', () => {
    const open = runCli(['mcp', '--http', '--host', '0.0.0.0', '--port', '0', '--db', db], { HINDSIGHT_TOKEN: '' });
    expect(open.status).toBe(2);
    expect(open.stderr).toMatch(/Refusing to serve on 0\.0\.0\.0 without a token.*--token/);
    const port = runCli(['mcp', '--http', '--port', 'eighty', '--db', db]);
    expect(port.status).toBe(2);
    expect(port.stderr).toMatch(/--port must be a whole number from 0 to 65535/);
  });
});
