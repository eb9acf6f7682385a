// buildServer with the SDK's own Client over an in-memory linked transport: every tool listed
// once with schemas and hints, every tool's result accepted by the client's output validation,
// tool errors as isError sentences, max_bytes honoured.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOLS } from '../../tools/registry.js';
import type { Store } from '../../store/store.js';
import { openStore } from '../../store/open.js';
import { buildServer, type BuildServerOptions } from './server.js';
import { TOOL_SETS } from './tool-sets.js';
import { CC_SESSION, fixtureStore } from './test-store.js';

let store: Store;
let db: string;
let root: string;
let client: Client;

/** Every tool, fully listed (output schemas included) unless `exposure` says otherwise. */
async function connect(s: Store, workspaceRoot?: string, exposure: Pick<BuildServerOptions, 'tools' | 'fullListing'> = { tools: TOOLS, fullListing: true }): Promise<Client> {
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await buildServer({ store: s, workspaceRoot, ...exposure }).connect(serverSide);
  const c = new Client({ name: 'hindsight-test', version: '1.0.0' });
  await c.connect(clientSide);
  return c;
}

async function call(name: string, args: Record<string, unknown>, c = client): Promise<CallToolResult> {
  return (await c.callTool({ name, arguments: args })) as CallToolResult;
}

function text(r: CallToolResult): string {
  const item = r.content[0];
  if (item?.type !== 'text') throw new Error('expected a text item');
  return item.text;
}

beforeAll(async () => {
  ({ store, db, root } = await fixtureStore());
  client = await connect(store, root);
});

afterAll(async () => {
  await client.close();
  await store.close();
});

describe('buildServer', () => {
  it('lists the core set compactly by default: under 20 KB, no output schemas, and refuses tools it does not list', async () => {
    const compact = await connect(store, root, {});
    try {
      const listed = await compact.listTools();
      expect(listed.tools.map((t) => t.name)).toEqual(TOOLS.filter((t) => TOOL_SETS.core!.includes(t.name)).map((t) => t.name));
      expect(Buffer.byteLength(JSON.stringify(listed))).toBeLessThanOrEqual(20_000);
      for (const t of listed.tools) {
        expect(t.outputSchema, t.name).toBeUndefined();
        expect(t.annotations).toEqual({ readOnlyHint: true, openWorldHint: false });
        // Ranges and defaults stay in the schema when the shared words go.
        expect(t.inputSchema.properties?.max_bytes).toMatchObject({ type: 'integer', minimum: 1, maximum: 10_000_000, description: 'Byte cap; truncated: true when items were cut.' });
      }
      const reconstruct = listed.tools.find((t) => t.name === 'reconstruct_session')!;
      expect(reconstruct.inputSchema.properties?.limit).toEqual({ type: 'integer', minimum: 1, maximum: 2000, default: 25 });
      // Without an output schema the client takes structuredContent as it comes.
      const r = await call('session_overview', { session_id: CC_SESSION }, compact);
      expect(r.isError).toBeFalsy();
      expect((r.structuredContent as { status: string }).status).toBe('ok');
      await expect(call('read_file', { path: 'README.md' }, compact)).rejects.toThrow(/Unknown tool "read_file"\. It exists but this server was not started with it: add it with hindsight mcp --tools/);
    } finally {
      await compact.close();
    }
  });

  it('lists every registry tool once, with input and output schemas and hints', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
    for (const t of tools) {
      expect(t.inputSchema.type).toBe('object');
      expect(t.outputSchema?.type).toBe('object');
      expect(t.description).toBeTruthy();
      expect(t.annotations?.readOnlyHint).toBe(t.name !== 'rewind_session');
      expect(t.annotations?.destructiveHint).toBe(t.name === 'rewind_session');
    }
    expect(client.getServerVersion()?.name).toBe('hindsight');
    // Portable spelling: one type per schema node (nullable as anyOf), no draft stamp.
    const typeArrays: string[] = [];
    const walk = (node: unknown, path: string): void => {
      if (!node || typeof node !== 'object') return;
      if (Array.isArray((node as { type?: unknown }).type)) typeArrays.push(path);
      for (const [k, v] of Object.entries(node)) if (k !== 'enum' && k !== 'default') walk(v, `${path}.${k}`);
    };
    for (const t of tools) walk({ input: t.inputSchema, output: t.outputSchema }, t.name);
    expect(typeArrays).toEqual([]);
    expect(tools.every((t) => !('$schema' in t.inputSchema) && !('$schema' in (t.outputSchema ?? {})))).toBe(true);
  });

  it('answers every tool with structuredContent the client validates against its output schema', async () => {
    const cp = (await call('list_sessions', { format: 'control-plane', limit: 1 })).structuredContent as { sessions: { session_id: string }[] };
    const plane = cp.sessions[0]!.session_id;
    const calls: [string, Record<string, unknown>][] = [
      ['list_sessions', { top_level_only: false, limit: 100 }],
      ['session_overview', { session_id: CC_SESSION }],
      ['session_overview', { session_id: plane }],
      ['reconstruct_session', { session_id: CC_SESSION, verbosity: 'full', include_prompts: true, include_tool_payloads: true }],
      ['reconstruct_session', { session_id: plane }],
      ['query_ledger', { ledger: 'ho2m' }],
      ['query_ledger_full', { ledger: 'governance' }],
      ['grep_jsonl', { pattern: 'SESSION', ledger: 'ho2m' }],
      ['grep_jsonl', { pattern: 'tool_use', session_id: CC_SESSION }],
      ['search_sessions', { query: 'budget', scope: 'all' }],
      ['get_session', { session_id: CC_SESSION }],
      ['get_events', { session_id: CC_SESSION, fields: ['message.usage.input_tokens'] }],
      ['analyze_events', { session_id: CC_SESSION, analysis: 'summary' }],
      ['analyze_events', { session_id: CC_SESSION, analysis: 'errors' }],
      ['analyze_events', { session_id: CC_SESSION, analysis: 'timeline' }],
      ['analyze_events', { session_id: CC_SESSION, analysis: 'usage' }],
      ['export_session', { session_id: CC_SESSION, format: 'replay' }],
      ['export_session', { session_id: CC_SESSION, format: 'markdown' }],
      ['export_session', { session_id: CC_SESSION, format: 'jsonl' }],
      ['usage_report', { group_by: 'daily', breakdown: true }],
      ['usage_report', { group_by: 'session' }],
      ['rewind_session', { session_id: CC_SESSION, to_turn: 1 }],
      ['raw_lines', { session_id: CC_SESSION, limit: 3 }],
      ['sources', { section: 'files' }],
      ['sources', { section: 'defects' }],
      ['verify_ledger', { ledger: 'ho2m' }],
      ['list_files', {}],
      ['read_file', { path: 'README.md', limit: 5 }],
      ['parse_tool_calls', { parser: 'hermes', text: '<tool_call>{"name": "f", "arguments": {}}</tool_call>' }],
    ];
    const covered = new Set(calls.map(([n]) => n));
    // Tools added to the registry later still get called (with no arguments) and must not break the client.
    for (const t of TOOLS) if (!covered.has(t.name)) calls.push([t.name, {}]);
    for (const [name, args] of calls) {
      const r = await call(name, args);
      if (!covered.has(name)) continue;
      expect(r.isError, `${name} ${JSON.stringify(args)}: ${text(r)}`).toBeFalsy();
      expect((r.structuredContent as { status: string }).status).toBe('ok');
      expect(JSON.parse(text(r))).toEqual(r.structuredContent);
    }
  });

  it('returns a bad argument as isError with a sentence, not a protocol error', async () => {
    const r = await call('list_sessions', { limit: 0 });
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toBeUndefined();
    expect(text(r)).toMatch(/^Invalid arguments for list_sessions: limit.*1 to 500/);
    expect(r._meta?.['hindsight/code']).toBe('INVALID_ARGUMENTS');
  });

  it('returns an unknown session as isError SESSION_NOT_FOUND', async () => {
    const r = await call('session_overview', { session_id: 'no-such-session' });
    expect(r.isError).toBe(true);
    expect(text(r)).toContain('No session has the id "no-such-session"');
    expect(r._meta?.['hindsight/code']).toBe('SESSION_NOT_FOUND');
  });

  it('keeps both the text and the structured result within max_bytes', async () => {
    const r = await call('list_sessions', { top_level_only: false, limit: 100, max_bytes: 1500 });
    expect(r.isError).toBeFalsy();
    const body = r.structuredContent as { truncated?: boolean; returned: number; count: number };
    expect(body.truncated).toBe(true);
    expect(body.returned).toBeLessThan(body.count);
    expect(Buffer.byteLength(text(r))).toBeLessThanOrEqual(1500);
    expect(Buffer.byteLength(JSON.stringify(r.structuredContent))).toBeLessThanOrEqual(1500);
  });

  it('treats an unknown tool as a protocol error naming the known tools', async () => {
    await expect(client.callTool({ name: 'drop_tables', arguments: {} })).rejects.toThrow(/Unknown tool "drop_tables".*list_sessions/);
  });

  it('turns an unexpected failure inside a tool into an isError result', async () => {
    const closed = await openStore({ db });
    await closed.close();
    const c = await connect(closed);
    try {
      const r = await call('list_sessions', {}, c);
      expect(r.isError).toBe(true);
      expect(text(r)).toMatch(/^Hindsight failed inside list_sessions \(.+\)\. This is a bug/);
    } finally {
      await c.close();
    }
  });
});
