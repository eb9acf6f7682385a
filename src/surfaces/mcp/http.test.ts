// startMcpHttpServer on loopback with the SDK's own Streamable HTTP client: tools listed and
// called, the bearer token enforced, DNS-rebinding Hosts refused, non-loopback without a token
// refused; a client's session reused for its calls, ended by DELETE or when idle; raw calls
// without a session still answered; idle connections kept for calls seconds apart.

import { request as httpRequest } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOLS } from '../../tools/registry.js';
import type { Store } from '../../store/store.js';
import { KEEP_ALIVE_MS, startMcpHttpServer, type McpHttpServer } from './http.js';
import { CC_SESSION, fixtureStore } from './test-store.js';

let store: Store;
let open: McpHttpServer;
let guarded: McpHttpServer;
const TOKEN = 'test-token-0123456789';

async function connect(url: string, token?: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: token ? { headers: { authorization: `Bearer ${token}` } } : undefined,
  });
  const client = new Client({ name: 'hindsight-http-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

const CALL = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'list_sessions', arguments: { limit: 1 } } });

/** A raw POST with full control of the headers (fetch will not send a forged Host). */
function post(url: string, headers: Record<string, string>, method = 'POST', body: string | undefined = method === 'POST' ? INIT : undefined): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

beforeAll(async () => {
  let root: string;
  ({ store, root } = await fixtureStore());
  open = await startMcpHttpServer({ store, port: 0, workspaceRoot: root, tools: TOOLS });
  guarded = await startMcpHttpServer({ store, port: 0, token: TOKEN });
});

afterAll(async () => {
  await open.close();
  await guarded.close();
  await store.close();
});

describe('startMcpHttpServer', () => {
  it('serves the chosen tools (here every tool) at http://127.0.0.1:PORT/mcp to the SDK client', async () => {
    expect(open.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = await connect(open.url);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
      const list = (await client.callTool({ name: 'list_sessions', arguments: { limit: 3 } })) as CallToolResult;
      expect(list.isError).toBeFalsy();
      expect(list.structuredContent).toMatchObject({ status: 'ok', returned: 3 });
      const overview = (await client.callTool({ name: 'session_overview', arguments: { session_id: CC_SESSION } })) as CallToolResult;
      expect(overview.structuredContent).toMatchObject({ status: 'ok' });
      expect(overview.content[0]).toMatchObject({ type: 'text' });
      const file = (await client.callTool({ name: 'read_file', arguments: { path: 'README.md', limit: 2 } })) as CallToolResult;
      expect(file.structuredContent).toMatchObject({ status: 'ok' });
      const bad = (await client.callTool({ name: 'get_session', arguments: { session_id: 'nope' } })) as CallToolResult;
      expect(bad.isError).toBe(true);
      expect(bad.content[0]).toMatchObject({ type: 'text', text: expect.stringMatching(/^No session .*"nope".*list_sessions/) });
    } finally {
      await client.close();
    }
  });

  it('answers 401 without the bearer token, and serves with it', async () => {
    const none = await post(guarded.url, {});
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(JSON.parse(none.body).error.message).toMatch(/needs a token/);
    expect((await post(guarded.url, { authorization: 'Bearer wrong' })).status).toBe(401);
    await expect(connect(guarded.url)).rejects.toThrow();
    const client = await connect(guarded.url, TOKEN);
    try {
      const r = (await client.callTool({ name: 'list_sessions', arguments: { limit: 1 } })) as CallToolResult;
      expect(r.structuredContent).toMatchObject({ status: 'ok', returned: 1 });
    } finally {
      await client.close();
    }
  });

  it('refuses a request addressed to another Host name (DNS rebinding), other paths and GET', async () => {
    const port = new URL(open.url).port;
    const rebound = await post(open.url, { host: `attacker.example:${port}` });
    expect(rebound.status).toBe(403);
    expect((await post(open.url, { host: `localhost:${port}` })).status).toBe(200);
    expect((await post(open.url.replace('/mcp', '/other'), {})).status).toBe(404);
    const get = await post(open.url, {}, 'GET');
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe('POST');
  });

  it('keeps an idle connection open for KEEP_ALIVE_MS, so calls seconds apart reuse it', async () => {
    const init = await post(open.url, {});
    expect(init.headers['keep-alive']).toBe(`timeout=${KEEP_ALIVE_MS / 1000}`);
    expect(KEEP_ALIVE_MS).toBeGreaterThanOrEqual(60_000);
  });

  it('refuses to listen on a non-loopback host without a token', async () => {
    await expect(startMcpHttpServer({ store, host: '0.0.0.0', port: 0 })).rejects.toThrow(/without a token.*--token/);
  });

  it('gives an initializing client a session and answers its later calls on it, until DELETE ends it', async () => {
    const init = await post(open.url, {});
    expect(init.status).toBe(200);
    const session = init.headers['mcp-session-id'];
    expect(session).toEqual(expect.stringMatching(/^[0-9a-f-]{36}$/));
    const headers = { 'mcp-session-id': session as string, 'mcp-protocol-version': '2025-06-18' };
    await post(open.url, headers, 'POST', JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    for (const id of [2, 3]) {
      const call = await post(open.url, headers, 'POST', CALL(id));
      expect(call.status).toBe(200);
      expect(JSON.parse(call.body)).toMatchObject({ id, result: { structuredContent: { status: 'ok', returned: 1 } } });
    }
    expect((await post(open.url, headers, 'DELETE')).status).toBe(200);
    const after = await post(open.url, headers, 'POST', CALL(4));
    expect(after.status).toBe(404);
    expect(JSON.parse(after.body).error.message).toMatch(/initialize a new one/);
  });

  it('keeps the SDK client on one session for all its calls', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(open.url));
    const client = new Client({ name: 'hindsight-http-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const first = transport.sessionId;
      expect(first).toBeTruthy();
      for (let i = 0; i < 3; i++) {
        const r = (await client.callTool({ name: 'list_sessions', arguments: { limit: 1 } })) as CallToolResult;
        expect(r.structuredContent).toMatchObject({ status: 'ok' });
      }
      expect(transport.sessionId).toBe(first);
    } finally {
      await client.close();
    }
  });

  it('still answers a raw tools/call without initialize or session (stateless)', async () => {
    const call = await post(open.url, {}, 'POST', CALL(7));
    expect(call.status).toBe(200);
    expect(call.headers['mcp-session-id']).toBeUndefined();
    expect(JSON.parse(call.body)).toMatchObject({ id: 7, result: { structuredContent: { status: 'ok', returned: 1 } } });
  });

  it('closes a session left idle, and refuses its id to a request of another principal', async () => {
    const short = await startMcpHttpServer({ store, port: 0, sessionIdleMs: 30 });
    const withToken = await startMcpHttpServer({ store, port: 0, token: TOKEN });
    try {
      const init = await post(short.url, {});
      const headers = { 'mcp-session-id': init.headers['mcp-session-id'] as string };
      await new Promise((r) => setTimeout(r, 120));
      expect((await post(short.url, headers, 'POST', CALL(2))).status).toBe(404);
      // A session opened by the admin token is not found for a request without it (401 first).
      const admin = await post(withToken.url, { authorization: `Bearer ${TOKEN}` });
      const id = admin.headers['mcp-session-id'] as string;
      expect((await post(withToken.url, { 'mcp-session-id': id }, 'POST', CALL(2))).status).toBe(401);
      expect((await post(withToken.url, { 'mcp-session-id': id, authorization: `Bearer ${TOKEN}` }, 'POST', CALL(2))).status).toBe(200);
    } finally {
      await short.close();
      await withToken.close();
    }
  });
});
