// One test table generated from the registry: every example of every tool (its definition's
// `examples`) run on the example store on every surface — directly, over MCP (the SDK's client on
// an in-memory transport, every tool listed) and over HTTP (POST /api/tools/<name>) — answering the
// status the example states, the same envelope everywhere. A new tool is covered by its examples.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_INTERRUPTED_SESSION, EXAMPLE_PLANE_SESSION, EXAMPLE_SESSION, EXAMPLE_WORKSPACE_FILE } from '../tools/example-store.js';
import { TOOLS } from '../tools/registry.js';
import { runTool, type AnyTool, type ToolExample, type ToolResult } from '../tools/tool.js';
import { createHttpApp } from './http/app.js';
import { statusForCode } from './http/status-map.js';
import { CC_INTERRUPTED, CC_SESSION, CP_SESSION, fixtureStore, type TestStore } from './http/test-store.js';
import { buildServer } from './mcp/server.js';
import { mcpTools } from './mcp/tool-list.js';

let fx: TestStore;
let app: ReturnType<typeof createHttpApp>;
let client: Client;

beforeAll(async () => {
  fx = await fixtureStore();
  app = createHttpApp({ store: fx.store, workspaceRoot: fx.workspace });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await buildServer({ store: fx.store, workspaceRoot: fx.workspace, tools: TOOLS, fullListing: true }).connect(serverSide);
  client = new Client({ name: 'hindsight-examples', version: '1.0.0' });
  await client.connect(clientSide);
});

afterAll(async () => {
  await client.close();
  await fx.store.close();
});

const TABLE: [string, number, AnyTool, ToolExample][] = TOOLS.flatMap((tool) => tool.examples.map((e, i) => [tool.name, i + 1, tool, e] as [string, number, AnyTool, ToolExample]));

/** What an example expects of an envelope: ok, or an error with its code. */
function expectAnswer(result: ToolResult, e: ToolExample, where: string): void {
  const seen = result.status === 'ok' ? 'ok' : `error ${String(result.code)}`;
  const wanted = e.status === 'ok' ? 'ok' : `error ${e.code}`;
  expect(seen, `${where}: ${JSON.stringify(result).slice(0, 300)}`).toBe(wanted);
}

describe('the example store', () => {
  it('is the store the HTTP and MCP tests build (same fixture sessions and workspace file)', () => {
    expect([EXAMPLE_SESSION, EXAMPLE_INTERRUPTED_SESSION, EXAMPLE_PLANE_SESSION]).toEqual([CC_SESSION, CC_INTERRUPTED, CP_SESSION]);
    expect(EXAMPLE_WORKSPACE_FILE).toBe('notes.txt');
  });
});

describe.each(TABLE)('%s example %i', (name, _n, tool, example) => {
  let direct: ToolResult;
  beforeAll(async () => {
    direct = await runTool(tool, example.args, { store: fx.store, workspaceRoot: fx.workspace });
  });

  it(`directly: ${example.about}`, () => {
    expect(tool.input.safeParse(example.args).success, 'the example arguments are valid').toBe(true);
    expectAnswer(direct, example, 'direct');
  });

  it('over HTTP: the same envelope with the status its code maps to', async () => {
    const res = await app.request(`/api/tools/${name}`, { method: 'POST', body: JSON.stringify(example.args), headers: { 'content-type': 'application/json' } });
    const body = (await res.json()) as ToolResult;
    expectAnswer(body, example, 'HTTP');
    expect(res.status).toBe(body.status === 'ok' ? 200 : statusForCode(String(body.code)));
    expect(body).toEqual(direct);
  });

  it('over MCP: structuredContent on success, isError with the sentence and code otherwise', async () => {
    const result = (await client.callTool({ name, arguments: example.args })) as CallToolResult;
    if (example.status === 'ok') {
      expect(result.isError, JSON.stringify(result.content).slice(0, 300)).toBeFalsy();
      expect(result.structuredContent).toEqual(direct);
    } else {
      expect(result.isError).toBe(true);
      expect(result._meta?.['hindsight/code']).toBe(example.code);
      expect(result.content).toEqual([{ type: 'text', text: direct.status === 'error' ? direct.error : '' }]);
    }
  });
});

describe('examples', () => {
  it('every tool has at least one example that answers ok', () => {
    for (const tool of TOOLS) expect(tool.examples.some((e) => e.status === 'ok'), tool.name).toBe(true);
  });

  it('are never listed over MCP: they would cost every agent context on every session', () => {
    for (const full of [false, true]) {
      const listing = JSON.stringify(mcpTools({ tools: TOOLS, full }));
      expect(listing).not.toContain('"examples"');
    }
  });
});
