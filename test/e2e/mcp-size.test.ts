// What an agent pays in context (issue 14, item 12): the built `hindsight mcp` over stdio lists
// the core set in at most 20 KB, `--tools` chooses what is exposed, and a default
// reconstruct_session page stays within 16 KB on the largest real transcript of the fixtures.

import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { TOOLS } from '../../src/tools/registry.js';
import { BIN, copyFixture, runCli, tempDir } from '../helpers.js';

const db = join(tempDir('hs-mcp-size-'), 'h.db');
const SPOTTER = '8463c716-a2ea-4c14-9efa-87158ebd9f20'; // 2.9 MB, the largest real transcript in the fixtures

beforeAll(() => {
  const res = runCli(['ingest', copyFixture('claude-code'), '--db', db]);
  expect(res.status, res.stderr).toBe(0);
});

async function withClient<T>(args: string[], use: (client: Client) => Promise<T>): Promise<T> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', ...args, '--db', db], stderr: 'pipe' });
  const client = new Client({ name: 'hindsight-size', version: '1.0.0' });
  await client.connect(transport);
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v));

describe('hindsight mcp: what the listing and the pages cost', () => {
  it('lists the core set in at most 20 KB by default; the full listing of every tool is several times that', async () => {
    const compact = await withClient([], (c) => c.listTools());
    expect(bytes(compact)).toBeLessThanOrEqual(20_000);
    expect(compact.tools.map((t) => t.name)).toEqual(['list_sessions', 'session_overview', 'reconstruct_session', 'grep_jsonl', 'search_sessions', 'get_events', 'usage_report', 'raw_lines']);
    const full = await withClient(['--tools', 'all', '--output-schemas'], (c) => c.listTools());
    expect(full.tools).toHaveLength(TOOLS.length);
    expect(bytes(full)).toBeGreaterThan(3 * bytes(compact));
  });

  it('--tools limits the exposed set to the names and sets given, and refuses calls to the others', async () => {
    await withClient(['--tools', 'files,session_overview'], async (c) => {
      const { tools } = await c.listTools();
      expect(tools.map((t) => t.name)).toEqual(['session_overview', 'list_files', 'read_file']);
      const ok = (await c.callTool({ name: 'session_overview', arguments: { session_id: SPOTTER } })) as CallToolResult;
      expect(ok.isError).toBeFalsy();
      await expect(c.callTool({ name: 'list_sessions', arguments: {} })).rejects.toThrow(/not started with it/);
    });
  });

  it('a mistyped --tools is a usage error (exit 2) naming the sets and tools', () => {
    const res = runCli(['mcp', '--tools', 'core,list_sesions', '--db', db]);
    expect(res.status).toBe(2);
    expect(res.stderr).toMatch(/"list_sesions" is neither a tool nor a set\. Sets: core, analyst, ledger, admin, files, all\. Tools: list_sessions/);
  });

  it('a default reconstruct_session page is at most 16 KB, and a caller can still ask for more', async () => {
    await withClient([], async (c) => {
      const page = (await c.callTool({ name: 'reconstruct_session', arguments: { session_id: SPOTTER } })) as CallToolResult;
      const body = page.structuredContent as { returned: number; has_more: boolean; truncated?: boolean };
      expect(page.content[0]?.type === 'text' && Buffer.byteLength(page.content[0].text)).toBeLessThanOrEqual(16_000);
      expect(body).toMatchObject({ returned: 25, has_more: true });
      expect(body.truncated).toBeUndefined();
      const big = (await c.callTool({ name: 'reconstruct_session', arguments: { session_id: SPOTTER, limit: 200, max_bytes: 500_000 } })) as CallToolResult;
      expect((big.structuredContent as { returned: number }).returned).toBe(200);
    });
  });
});
