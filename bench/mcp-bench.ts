// MCP over Streamable HTTP: list_sessions calls per second through the SDK's Client against the
// built `hindsight mcp --http`, one client and ten at once, with the in-process runTool rate as
// the baseline (ratio = surface / in-process); and per-call latency over Streamable HTTP against
// the same calls over stdio (issue 17 target 6: HTTP <= 1.5x stdio per call).
//
// Standalone: node dist/bench/mcp-bench.js [DB] [--cli PATH] [--before PATH] [--calls N] [--rounds N]
// [--only transports]. --cli is the script `node` runs as hindsight (default bin/hindsight);
// --before adds a second build's servers to the same interleaved rounds (its figures are named
// mcp.http_vs_stdio.before.*), so a change is measured against HEAD in one run.

import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { openStore } from '../src/store/open.js';
import { findTool } from '../src/tools/registry.js';
import { runTool } from '../src/tools/tool.js';
import type { Store } from '../src/store/store.js';
import type { Figure } from './figure.js';
import { fixtureStore } from './fixture-store.js';
import { percentile } from './measure.js';

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

function startServer(db: string, cli = BIN, extra: string[] = []): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [cli, 'mcp', '--http', '--port', '0', '--db', db, ...extra], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, HINDSIGHT_TOKEN: '' },
  });
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

// ---- Per call: Streamable HTTP against stdio -------------------------------------------------

export interface TransportOptions {
  /** The hindsight command's script (default bin/hindsight). */
  cli?: string;
  /** A second build measured in the same rounds (figures named mcp.http_vs_stdio.before.*). */
  before?: string;
  /** Timed calls per answer, transport and round (default 100). */
  calls?: number;
  /** Rounds (default 5); the ratio's spread across rounds goes in the note. */
  rounds?: number;
}

interface TransportCall {
  label: string;
  /** What the figure's note says was asked. */
  what: string;
  /** Make the call once (throws on an error answer); resolves to the answer. */
  run: (client: Client) => Promise<unknown>;
}

/** A tool call that must succeed. */
function toolCall(label: string, tool: string, args: Record<string, unknown>, what = JSON.stringify(args)): TransportCall {
  return {
    label,
    what,
    run: async (client) => {
      const r = (await client.callTool({ name: tool, arguments: args })) as CallToolResult;
      if (r.isError) throw new Error(`${tool} over MCP: ${JSON.stringify(r.content).slice(0, 300)}`);
      return r;
    },
  };
}

/** One transport of one build: its SDK Client and the pid of the server process behind it. */
interface Lane {
  prefix: string;
  transport: 'stdio' | 'http';
  client: Client;
  serverPid: number;
}

async function connected(transport: StdioClientTransport | StreamableHTTPClientTransport): Promise<Client> {
  const client = new Client({ name: 'hindsight-mcp-bench', version: '1.0.0' });
  await client.connect(transport);
  await client.listTools(); // as an agent does; also arms the client's output-schema validation
  return client;
}

/** One build served both ways: a Client on stdio and one on Streamable HTTP (fetch keeps the connection alive). */
async function openLanes(prefix: string, cli: string, db: string): Promise<{ lanes: Lane[]; close: () => Promise<void> }> {
  const env = { ...process.env, HINDSIGHT_TOKEN: '' } as Record<string, string>;
  const stdioTransport = new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp', '--tools', 'all', '--db', db], stderr: 'ignore', env });
  const stdio = await connected(stdioTransport);
  const server = await startServer(db, cli, ['--tools', 'all']);
  const http = await connected(new StreamableHTTPClientTransport(new URL(server.url)));
  return {
    lanes: [
      { prefix, transport: 'stdio', client: stdio, serverPid: stdioTransport.pid! },
      { prefix, transport: 'http', client: http, serverPid: server.child.pid! },
    ],
    close: async () => {
      await http.close();
      await stdio.close();
      server.child.kill('SIGTERM');
    },
  };
}

/** CPU time (ms) a process has used, all its threads (Linux; NaN elsewhere): nanoseconds from schedstat. */
function processCpuMs(pid: number): number {
  try {
    let ns = 0;
    for (const task of readdirSync(`/proc/${pid}/task`)) ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    return ns / 1e6;
  } catch {
    return Number.NaN;
  }
}

/** The session with the most events: its overview is the bigger answer. */
async function largestSession(store: Store): Promise<{ id: string; events: number }> {
  let best = { id: '', events: -1 };
  for (let offset = 0; ; offset += 500) {
    const { sessions } = await store.listSessions({ limit: 500, offset });
    for (const s of sessions) if (s.eventCount > best.events) best = { id: s.id, events: s.eventCount };
    if (sessions.length < 500) return best;
  }
}

const ms = (n: number) => +n.toFixed(3);
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const median = (xs: number[]) => percentile(sorted(xs), 50);

/** What one lane spent on one answer over all rounds. */
interface LaneTimes {
  wall: number[];
  roundP50: number[];
  /** The client process's CPU per call (process.cpuUsage around each call: calls are sequential). */
  clientCpu: number[];
  /** The server process's CPU over the timed calls, ms. */
  serverCpu: number;
}

/**
 * p50 per call over stdio and over Streamable HTTP, same calls, same store, each server the CLI
 * in its own process. Within a round each call is made over every lane in turn (the order
 * rotating), so a change in the machine's load falls on all alike. CPU per call (client and
 * server process) is reported too: on a loaded machine it moves less than the wall time.
 *
 * @example
 * console.log(await measureMcpTransports('/tmp/cc.db', { calls: 50 }));
 */
export async function measureMcpTransports(db: string, options: TransportOptions = {}): Promise<Figure[]> {
  const n = options.calls ?? 100;
  const rounds = options.rounds ?? 5;
  const store = await openStore({ db });
  let big: { id: string; events: number };
  try {
    big = await largestSession(store);
  } finally {
    await store.close();
  }
  const calls: TransportCall[] = [
    // MCP's ping: the transport alone (the server answers {} without touching the store).
    { label: 'ping', what: 'MCP ping', run: (client) => client.ping() },
    toolCall('list_sessions', 'list_sessions', { limit: 20 }),
    toolCall('session_overview', 'session_overview', { session_id: big.id }, `largest session (${big.events} events)`),
  ];
  const builds = [await openLanes('mcp.http_vs_stdio', options.cli ?? BIN, db)];
  if (options.before) builds.push(await openLanes('mcp.http_vs_stdio.before', options.before, db));
  const lanes = builds.flatMap((b) => b.lanes);
  const figures: Figure[] = [];
  try {
    for (const c of calls) {
      const invoke = c.run;
      const answerBytes = Buffer.byteLength(JSON.stringify(await invoke(lanes[0]!.client)));
      for (const lane of lanes) for (let i = 0; i < 5; i++) await invoke(lane.client);
      const times: LaneTimes[] = lanes.map(() => ({ wall: [], roundP50: [], clientCpu: [], serverCpu: 0 }));
      for (let r = 0; r < rounds; r++) {
        const round = lanes.map(() => [] as number[]);
        const cpuBefore = lanes.map((l) => processCpuMs(l.serverPid));
        for (let i = 0; i < n; i++) {
          for (let k = 0; k < lanes.length; k++) {
            const j = (i + k) % lanes.length;
            const cpu0 = process.cpuUsage();
            const t0 = performance.now();
            await invoke(lanes[j]!.client);
            round[j]!.push(performance.now() - t0);
            const cpu = process.cpuUsage(cpu0);
            times[j]!.clientCpu.push((cpu.user + cpu.system) / 1000);
          }
        }
        lanes.forEach((l, j) => {
          times[j]!.wall.push(...round[j]!);
          times[j]!.roundP50.push(median(round[j]!));
          times[j]!.serverCpu += processCpuMs(l.serverPid) - cpuBefore[j]!;
        });
      }
      for (const { lanes: [stdio, http] } of builds) {
        const s = times[lanes.indexOf(stdio!)]!;
        const h = times[lanes.indexOf(http!)]!;
        const perCall = (t: LaneTimes) => ({ server: t.serverCpu / (n * rounds), client: median(t.clientCpu) });
        const [sc, hc] = [perCall(s), perCall(h)];
        const roundRatios = sorted(h.roundP50.map((v, r) => v / s.roundP50[r]!));
        const what = `${c.what}; answer ${answerBytes} bytes`;
        figures.push(
          {
            figure: `${stdio!.prefix}.${c.label}_p50`,
            value: ms(median(h.wall)),
            unit: 'ms (Streamable HTTP, p50 per call)',
            baseline: ms(median(s.wall)),
            baseline_unit: 'ms (same call over stdio, p50)',
            ratio: +(median(h.wall) / median(s.wall)).toFixed(2),
            target: '<= 1.5 (ratio)',
            note:
              `${rounds} rounds x ${n} calls per transport, interleaved; per-round ratio ${roundRatios[0]!.toFixed(2)}–${roundRatios.at(-1)!.toFixed(2)}; ` +
              `p99 ${ms(percentile(sorted(h.wall), 99))} ms (stdio ${ms(percentile(sorted(s.wall), 99))} ms); ${what}`,
          },
          {
            figure: `${stdio!.prefix}.${c.label}_cpu_per_call`,
            value: ms(hc.server + hc.client),
            unit: 'ms CPU (Streamable HTTP: server + client process)',
            baseline: ms(sc.server + sc.client),
            baseline_unit: 'ms CPU (stdio: server + client process)',
            ratio: +((hc.server + hc.client) / (sc.server + sc.client)).toFixed(2),
            note: `server ${ms(hc.server)} ms (stdio ${ms(sc.server)} ms), client p50 ${ms(hc.client)} ms (stdio ${ms(sc.client)} ms); ${what}`,
          },
        );
      }
    }
  } finally {
    for (const b of builds) await b.close();
  }
  return figures;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { cli: { type: 'string' }, before: { type: 'string' }, calls: { type: 'string' }, rounds: { type: 'string' }, only: { type: 'string' } },
  });
  const db = positionals[0] ?? (await fixtureStore());
  const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));
  const transports = await measureMcpTransports(db, { cli: values.cli, before: values.before, calls: num(values.calls), rounds: num(values.rounds) });
  const figures = values.only === 'transports' ? transports : [...(await measureMcp(db)), ...transports];
  process.stdout.write(`${JSON.stringify({ db, figures }, null, 2)}\n`);
}
