// What an agent pays in context before it learns anything (issue 14, item 12): the bytes of
// tools/list for the default and the full tool sets, and of a default reconstruct_session page on
// the largest real transcript of the fixtures. Baselines are the old behaviour measured in the
// same run: every tool listed with output schemas, and a page with the old defaults (limit 100,
// max_bytes 50,000). Standalone: node dist/bench/mcp-size-bench.js [DB].

import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { openStore } from '../src/store/open.js';
import type { Store } from '../src/store/store.js';
import { buildServer, type BuildServerOptions } from '../src/surfaces/mcp/server.js';
import { DEFAULT_TOOL_SET, resolveToolSelection } from '../src/surfaces/mcp/tool-sets.js';
import { TOOLS } from '../src/tools/registry.js';
import type { Figure } from './figure.js';
import { FIXTURE_SESSION, fixtureStore } from './fixture-store.js';

const OLD_PAGE_ARGS = { limit: 100, max_bytes: 50_000 };

async function withClient<T>(store: Store, exposure: Pick<BuildServerOptions, 'tools' | 'fullListing'>, use: (c: Client) => Promise<T>): Promise<T> {
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await buildServer({ store, ...exposure }).connect(serverSide);
  const client = new Client({ name: 'hindsight-size-bench', version: '1.0.0' });
  await client.connect(clientSide);
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v));

/** The page's bytes as the agent reads them: the one text item (the compact JSON max_bytes measures). */
async function pageBytes(client: Client, args: Record<string, unknown>): Promise<number> {
  const r = (await client.callTool({ name: 'reconstruct_session', arguments: { session_id: FIXTURE_SESSION, ...args } })) as CallToolResult;
  const item = r.content[0];
  if (r.isError || item?.type !== 'text') throw new Error(`reconstruct_session failed: ${JSON.stringify(r.content)}`);
  return Buffer.byteLength(item.text);
}

export async function measureMcpSize(db?: string): Promise<Figure[]> {
  const store = await openStore({ db: db ?? (await fixtureStore()) });
  try {
    const core = resolveToolSelection(undefined);
    const old = await withClient(store, { tools: TOOLS, fullListing: true }, (c) => c.listTools());
    const compact = await withClient(store, { tools: core }, (c) => c.listTools());
    const allCompact = await withClient(store, { tools: TOOLS }, (c) => c.listTools());
    const [page, oldPage] = await withClient(store, { tools: TOOLS }, async (c) => [await pageBytes(c, {}), await pageBytes(c, OLD_PAGE_ARGS)]);
    const listingBaseline = 'bytes: every tool with output schemas (the listing before issue 14; 74.7 KB then)';
    return [
      {
        figure: 'mcp.tools_list_default_bytes',
        value: bytes(compact),
        unit: 'bytes',
        baseline: bytes(old),
        baseline_unit: listingBaseline,
        ratio: +(bytes(compact) / bytes(old)).toFixed(3),
        target: '<= 20000',
        note: `${compact.tools.length} tools (--tools ${DEFAULT_TOOL_SET}), compact: no output schemas, shared parameters described once in the instructions`,
      },
      {
        figure: 'mcp.tools_list_all_compact_bytes',
        value: bytes(allCompact),
        unit: 'bytes',
        baseline: bytes(old),
        baseline_unit: listingBaseline,
        ratio: +(bytes(allCompact) / bytes(old)).toFixed(3),
        note: `${allCompact.tools.length} tools (--tools all)`,
      },
      { figure: 'mcp.tools_list_all_full_bytes', value: bytes(old), unit: 'bytes', note: `${old.tools.length} tools (--tools all --output-schemas)` },
      {
        figure: 'mcp.reconstruct_session_default_page_bytes',
        value: page,
        unit: 'bytes',
        baseline: oldPage,
        baseline_unit: 'bytes with the old defaults (limit 100, max_bytes 50000; 49.8 KB then)',
        ratio: +(page / oldPage).toFixed(3),
        target: '<= 16000',
        note: `${FIXTURE_SESSION} (2.9 MB, the largest real transcript in the fixtures)`,
      },
    ];
  } finally {
    await store.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const figures = await measureMcpSize(process.argv[2]);
  process.stdout.write(`${JSON.stringify({ figures }, null, 2)}\n`);
}
