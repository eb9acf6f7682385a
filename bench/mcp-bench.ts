// MCP over Streamable HTTP: list_sessions calls per second through the SDK's Client against the
// built `hindsight mcp --http`, one client and ten at once, with the in-process runTool rate as
// the baseline (ratio = surface / in-process). Standalone: node dist/bench/mcp-bench.js [DB].

import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { openStore } from '../src/store/open.js';
import { findTool } from '../src/tools/registry.js';
import { runTool } from '../src/tools/tool.js';
import type { Figure } from './figure.js';
import { FIXTURE_SESSION, fixtureStore } from './fixture-store.js';

export type { Figure } from './figure.js';

const REPO = resolve(import.meta.dirname, '..', '..');
const BIN = join(REPO, 'bin', 'hindsight');
const SECONDS = Number(process.env.BENCH_MCP_SECONDS ?? 10);
const CONCURRENCY = Number(process.env.BENCH_MCP_CLIENTS ?? 10);
const ARGS = {}; // list_sessions with its defaults: what an agent's first call looks like

/** Run `call` back to back in each of `workers` loops until the deadline; calls per second. */
async function callsPerSecond(seconds: number, workers: (() => Promise<void>)[]): Promise<number> {
  const started = performance.now();
  const deadline = started + seconds * 1000;
  let calls = 0;
  await Promise.all(
    workers.map(async (call) => {
      while (performance.now() < deadline) {
        await call();
        calls++;
      }
    }),
  );
  return calls / ((performance.now() - started) / 1000);
}

async function inProcessRate(db: string, seconds: number): Promise<number> {
  const store = await openStore({ db });
  const tool = findTool('list_sessions')!;
  try {
    const call = async () => {
      const r = await runTool(tool, ARGS, { store });
      if (r.status !== 'ok') throw new Error(`list_sessions failed in process: ${r.error}`);
      JSON.stringify(r); // every surface serialises the envelope
    };
    await callsPerSecond(0.5, [call]); // warm-up: statement cache, page cache
    return await callsPerSecond(seconds, [call]);
  } finally {
    await store.close();
  }
}

function startServer(db: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [BIN, 'mcp', '--http', '--port', '0', '--db', db], { stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((resolvePromise, reject) => {
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const url = /(http:\/\/\S+\/mcp)/.exec(stderr)?.[1];
      if (url) resolvePromise({ child, url });
    });
    child.once('exit', (code) => reject(new Error(`hindsight mcp --http exited ${code}: ${stderr}`)));
  });
}

async function sdkCaller(url: string): Promise<{ call: () => Promise<void>; close: () => Promise<void> }> {
  const client = new Client({ name: 'hindsight-bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  await client.listTools(); // as a real client does; also arms the output-schema validation
  return {
    call: async () => {
      const r = await client.callTool({ name: 'list_sessions', arguments: ARGS });
      if (r.isError) throw new Error(`list_sessions failed over MCP: ${JSON.stringify(r.content)}`);
    },
    close: () => client.close(),
  };
}

interface AutocannonResult {
  requests: { average: number };
  non2xx: number;
  errors: number;
}
type Autocannon = (opts: Record<string, unknown>) => Promise<AutocannonResult>;

/** The server's own capacity: raw JSON-RPC tools/call POSTs (stateless needs no handshake), no SDK client. */
async function rawRate(url: string, seconds: number, connections: number): Promise<number> {
  const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;
  const result = await autocannon({
    url,
    method: 'POST',
    connections,
    duration: seconds,
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_sessions', arguments: ARGS } }),
  });
  if (result.non2xx || result.errors) throw new Error(`raw tools/call: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return result.requests.average;
}

const round = (n: number) => +n.toFixed(1);

/**
 * The MCP figures on an ingested store.
 *
 * @example
 * console.log(JSON.stringify(await measureMcp('.bench/cc.db'), null, 2));
 */
export async function measureMcp(db: string): Promise<Figure[]> {
  const baseline = await inProcessRate(db, Math.max(1, SECONDS / 2));
  const figure = (name: string, value: number, note: string): Figure => ({
    figure: `mcp_http.${name}`,
    value: round(value),
    unit: 'calls/s',
    baseline: round(baseline),
    baseline_unit: 'calls/s (runTool in process, sequential)',
    ratio: +(value / baseline).toFixed(3),
    note,
  });
  const { child, url } = await startServer(db);
  const clients: Awaited<ReturnType<typeof sdkCaller>>[] = [];
  try {
    for (let i = 0; i < CONCURRENCY; i++) clients.push(await sdkCaller(url));
    const one = clients[0]!;
    await callsPerSecond(0.5, [one.call]);
    const sequential = await callsPerSecond(Math.max(1, SECONDS / 2), [one.call]);
    const concurrent = await callsPerSecond(SECONDS, clients.map((c) => c.call));
    const raw = await rawRate(url, Math.max(1, Math.round(SECONDS / 2)), CONCURRENCY);
    return [
      figure('list_sessions_sequential', sequential, 'one SDK Client (StreamableHTTPClientTransport), calls back to back; server = the built CLI in its own process'),
      figure('list_sessions_concurrent', concurrent, `${CONCURRENCY} SDK Clients at once for ${SECONDS} s`),
      figure('list_sessions_raw_jsonrpc', raw, `autocannon, ${CONCURRENCY} connections, raw tools/call POSTs: the server without client-side cost`),
    ];
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    child.kill('SIGTERM');
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const db = process.argv[2] ?? (await fixtureStore());
  const figures = await measureMcp(db);
  process.stdout.write(`${JSON.stringify({ db, figures }, null, 2)}\n`);
}
