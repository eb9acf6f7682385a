// JsonHttpTransport behind startMcpHttpServer, with raw HTTP and the SDK's own client: answers
// are one JSON body of known length, batches are answered in order, notifications get 202, and
// the refusals are the SDK transport's (same status, JSON-RPC code and words).

import { request as httpRequest } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../store/store.js';
import { startMcpHttpServer, type McpHttpServer } from './http.js';
import { fixtureStore } from './test-store.js';

let store: Store;
let server: McpHttpServer;

interface Answer {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

function send(method: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(server.url, { method, headers: { ...JSON_HEADERS, ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const post = (body: unknown, headers: Record<string, string> = {}) => send('POST', headers, JSON.stringify(body));

const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
const call = (id: number, limit = 1) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'list_sessions', arguments: { limit } } });
const errorOf = (a: Answer) => (JSON.parse(a.body) as { error: { code: number; message: string } }).error;

/** A new session's headers, its initialize answered and acknowledged. */
async function session(): Promise<Record<string, string>> {
  const init = await post(INIT);
  const headers = { 'mcp-session-id': init.headers['mcp-session-id'] as string, 'mcp-protocol-version': '2025-06-18' };
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
  return headers;
}

beforeAll(async () => {
  ({ store } = await fixtureStore());
  server = await startMcpHttpServer({ store, port: 0 });
});

afterAll(async () => {
  await server.close();
  await store.close();
});

describe('JsonHttpTransport', () => {
  it('answers a call with one JSON body of known length (not chunked), with the session id', async () => {
    const headers = await session();
    const a = await post(call(2, 3), headers);
    expect(a.status).toBe(200);
    expect(a.headers['content-type']).toBe('application/json');
    expect(a.headers['transfer-encoding']).toBeUndefined();
    expect(Number(a.headers['content-length'])).toBe(Buffer.byteLength(a.body));
    expect(a.headers['mcp-session-id']).toBe(headers['mcp-session-id']);
    expect(JSON.parse(a.body)).toMatchObject({ jsonrpc: '2.0', id: 2, result: { structuredContent: { status: 'ok', returned: 3 } } });
  });

  it('answers a batch with every answer, in the order asked, and a notification alone with 202', async () => {
    const headers = await session();
    const batch = await post([call(9, 2), { jsonrpc: '2.0', id: 'b', method: 'tools/list' }, call(8, 1)], headers);
    expect(batch.status).toBe(200);
    const answers = JSON.parse(batch.body) as { id: unknown; result: { structuredContent?: { returned: number }; tools?: unknown[] } }[];
    expect(answers.map((m) => m.id)).toEqual([9, 'b', 8]);
    expect(answers[0]!.result.structuredContent!.returned).toBe(2);
    expect(answers[1]!.result.tools!.length).toBeGreaterThan(0);
    expect(answers[2]!.result.structuredContent!.returned).toBe(1);
    const note = await post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 99 } }, headers);
    expect(note.status).toBe(202);
    expect(note.body).toBe('');
  });

  it('refuses as the SDK transport does: Accept, Content-Type, protocol version, JSON-RPC shape, batch size, a second initialize', async () => {
    const headers = await session();
    const notAcceptable = await post(call(2), { ...headers, accept: 'application/json' });
    expect([notAcceptable.status, errorOf(notAcceptable).code]).toEqual([406, -32000]);
    expect(errorOf(notAcceptable).message).toMatch(/must accept both application\/json and text\/event-stream/);
    const text = await post(call(2), { ...headers, 'content-type': 'text/plain' });
    expect([text.status, errorOf(text).message]).toEqual([415, 'Unsupported Media Type: Content-Type must be application/json']);
    const version = await post(call(2), { ...headers, 'mcp-protocol-version': '1999-01-01' });
    expect(version.status).toBe(400);
    expect(errorOf(version).message).toMatch(/^Bad Request: Unsupported protocol version: 1999-01-01 \(supported versions: .*2025-06-18/);
    const shapeless = await post({ hello: 'world' }, headers);
    expect([shapeless.status, errorOf(shapeless).code, errorOf(shapeless).message]).toEqual([400, -32700, 'Parse error: Invalid JSON-RPC message']);
    const big = await post(Array.from({ length: 101 }, (_, i) => call(i)), headers);
    expect([big.status, errorOf(big).code]).toEqual([400, -32600]);
    const again = await post(INIT, headers);
    expect([again.status, errorOf(again).message]).toEqual([400, 'Invalid Request: Server already initialized']);
    // None of these ended the session.
    expect((await post(call(3), headers)).status).toBe(200);
  });

  it('answers a stateless notification with 202 and no session', async () => {
    const a = await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(a.status).toBe(202);
    expect(a.headers['mcp-session-id']).toBeUndefined();
  });

  it('keeps answering a session after a client hung up before its answer', async () => {
    const headers = await session();
    await new Promise<void>((resolve) => {
      const req = httpRequest(server.url, { method: 'POST', headers: { ...JSON_HEADERS, ...headers } });
      req.on('error', () => resolve());
      req.end(JSON.stringify(call(4, 50)), () => {
        req.destroy();
        resolve();
      });
    });
    const a = await post(call(5), headers);
    expect(a.status).toBe(200);
    expect(JSON.parse(a.body)).toMatchObject({ id: 5 });
  });

  it('serves the SDK client: ping, list and call on one session', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(server.url));
    const client = new Client({ name: 'hindsight-transport-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      await client.ping();
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      const r = (await client.callTool({ name: 'list_sessions', arguments: { limit: 2 } })) as CallToolResult;
      expect(r.structuredContent).toMatchObject({ status: 'ok', returned: 2 });
      expect(transport.sessionId).toEqual(expect.stringMatching(/^[0-9a-f-]{36}$/));
    } finally {
      await client.close();
    }
  });
});
