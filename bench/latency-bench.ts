// Indexed answers on a large store (issue 17, targets 4 and 6): p50 and p99 of the seven answers
// people wait for — list_sessions, get_session, session_overview of the largest session, a
// get_events page, search_sessions, usage_report, inspect_metrics — in process (runTool), over the
// HTTP API (`hindsight serve`, one keep-alive connection), and over MCP with the SDK's own Client
// on both transports (stdio and Streamable HTTP, same calls, same store, each server the CLI in
// its own process); then the largest session's overview under 100 concurrent clients (autocannon)
// with its timeouts counted.
//
// Standalone: node dist/bench/latency-bench.js DB [--cli PATH] [--baseline-cli PATH] [--rounds N]
//   [--calls N] [--seconds N] [--connections N] [--load-only]
// --cli is the script `node` runs as the hindsight command (default bin/hindsight), so a private
// build can be measured without touching dist/. --baseline-cli puts another build (e.g. the last
// commit's) beside it for the 100-client run: both servers up on the same store, the load run on
// each in turn (the order swapped every round) for --rounds rounds, medians and their ratio
// reported — on a shared machine only a same-run comparison says anything. --load-only skips
// the single-client and MCP figures.

import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { openStore } from '../src/store/open.js';
import type { Store } from '../src/store/store.js';
import { findTool } from '../src/tools/registry.js';
import { runTool } from '../src/tools/tool.js';
import type { Figure } from './figure.js';
import { percentile } from './measure.js';

export type { Figure } from './figure.js';

const REPO = resolve(import.meta.dirname, '..', '..');
const DEFAULT_CLI = join(REPO, 'bin', 'hindsight');
/** autocannon's default: a request unanswered for 10 s counts as a timeout. */
const TIMEOUT_S = 10;
/** Seconds of untimed load on each server before the timed rounds. */
const WARM_LOAD_S = 3;

export interface LatencyOptions {
  /** The hindsight command's script (default bin/hindsight). */
  cli?: string;
  /** Timed calls per answer and surface (after warm-up). Default 40. */
  calls?: number;
  /** Seconds of the 100-client run. Default 20. */
  seconds?: number;
  connections?: number;
  /** Another build's hindsight script, measured under the same load in the same run (the before figure). */
  baselineCli?: string;
  /** Load runs per server (default 3); the figures are their medians. */
  rounds?: number;
  /** Only the 100-client run (no single-client or MCP figures). */
  loadOnly?: boolean;
}

interface Call {
  label: string;
  tool: string;
  args: Record<string, unknown>;
}

interface Timing {
  p50: number;
  p99: number;
  n: number;
}

function timing(ms: number[]): Timing {
  ms.sort((a, b) => a - b);
  return { p50: percentile(ms, 50), p99: percentile(ms, 99), n: ms.length };
}

/** Time `call` `n` times after `warm` untimed calls. */
async function timed(n: number, warm: number, call: () => Promise<void>): Promise<Timing> {
  for (let i = 0; i < warm; i++) await call();
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await call();
    ms.push(performance.now() - t0);
  }
  return timing(ms);
}

/** The session with the most events, and a word of its first message for the search. */
async function targets(store: Store): Promise<{ id: string; events: number; word: string }> {
  let best = { id: '', events: -1, first: '' };
  for (let offset = 0; ; offset += 500) {
    const { sessions } = await store.listSessions({ limit: 500, offset });
    for (const s of sessions) if (s.eventCount > best.events) best = { id: s.id, events: s.eventCount, first: s.firstUserMessage ?? '' };
    if (sessions.length < 500) break;
  }
  const word = /[A-Za-z]{6,}/.exec(best.first)?.[0] ?? 'error';
  return { id: best.id, events: best.events, word };
}

function callsFor(t: { id: string; events: number; word: string }): Call[] {
  return [
    { label: 'list_sessions', tool: 'list_sessions', args: { limit: 20 } },
    { label: 'get_session', tool: 'get_session', args: { session_id: t.id } },
    { label: 'session_overview', tool: 'session_overview', args: { session_id: t.id } },
    { label: 'get_events', tool: 'get_events', args: { session_id: t.id, limit: 100, offset: Math.floor(t.events / 2) } },
    { label: 'search_sessions', tool: 'search_sessions', args: { query: t.word, limit: 20 } },
    { label: 'usage_report', tool: 'usage_report', args: { group_by: 'daily' } },
    { label: 'inspect_metrics', tool: 'inspect_metrics', args: { view: 'stats' } },
  ];
}

async function inProcess(store: Store, c: Call, n: number): Promise<Timing> {
  const tool = findTool(c.tool)!;
  return timed(n, 3, async () => {
    const r = await runTool(tool, c.args, { store });
    if (r.status !== 'ok') throw new Error(`${c.tool} in process: ${r.error}`);
    JSON.stringify(r); // every surface serialises the envelope
  });
}

/** Start the CLI with `args` and wait for the URL it prints on stderr. */
function startCli(cli: string, args: string[], pattern: RegExp): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, HINDSIGHT_TOKEN: '' } });
  return new Promise((resolvePromise, reject) => {
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const url = pattern.exec(stderr)?.[1];
      if (url) resolvePromise({ child, url });
    });
    child.once('exit', (code) => reject(new Error(`hindsight ${args.join(' ')} exited ${code}: ${stderr}`)));
  });
}

async function overHttp(base: string, c: Call, n: number): Promise<Timing> {
  const body = JSON.stringify(c.args);
  return timed(n, 3, async () => {
    const res = await fetch(`${base}/api/tools/${c.tool}`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${c.tool} over HTTP answered ${res.status}: ${text.slice(0, 300)}`);
  });
}

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; max: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}

async function underLoad(base: string, c: Call, seconds: number, connections: number): Promise<AutocannonResult> {
  const autocannon = createRequire(import.meta.url)('autocannon') as (o: Record<string, unknown>) => Promise<AutocannonResult>;
  return autocannon({
    url: `${base}/api/tools/${c.tool}`,
    method: 'POST',
    connections,
    duration: seconds,
    timeout: TIMEOUT_S,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(c.args),
  });
}

async function mcpClient(transport: StdioClientTransport | StreamableHTTPClientTransport): Promise<Client> {
  const client = new Client({ name: 'hindsight-latency-bench', version: '1.0.0' });
  await client.connect(transport);
  await client.listTools(); // as an agent does; also arms the client's output-schema validation
  return client;
}

/** Two ways of making the same call, timed in turn (a, b, a, b, …) after three warm-ups of each. */
async function interleaved(n: number, a: () => Promise<void>, b: () => Promise<void>): Promise<[Timing, Timing]> {
  for (let i = 0; i < 3; i++) {
    await a();
    await b();
  }
  const ta: number[] = [];
  const tb: number[] = [];
  for (let i = 0; i < n; i++) {
    for (const [call, out] of [[a, ta], [b, tb]] as const) {
      const t0 = performance.now();
      await call();
      out.push(performance.now() - t0);
    }
  }
  return [timing(ta), timing(tb)];
}

const ms = (n: number) => +n.toFixed(2);

const median = (values: number[]) => percentile([...values].sort((a, b) => a - b), 50);

/**
 * Returns once `url` has answered the requests autocannon left in flight: a server still working
 * through its queue would take CPU from the next run (the other server's) on this shared machine.
 */
async function drained(url: string, c: Call): Promise<void> {
  // fetch reuses a keep-alive connection the server may just have closed (ECONNRESET): ask again.
  for (let attempt = 1; ; attempt++) {
    try {
      await overHttp(url, c, 1);
      return;
    } catch (err) {
      if (attempt === 3) throw err;
    }
  }
}

/** The overview under load on `servers` in turn, `rounds` times, the order swapped each round. */
async function loadRounds(urls: string[], c: Call, rounds: number, seconds: number, connections: number): Promise<AutocannonResult[][]> {
  const results: AutocannonResult[][] = urls.map(() => []);
  for (let round = 0; round < rounds; round++) {
    const order = urls.map((_, i) => i);
    if (round % 2 === 1) order.reverse();
    for (const i of order) {
      results[i]!.push(await underLoad(urls[i]!, c, seconds, connections));
      await drained(urls[i]!, c);
    }
  }
  return results;
}

/** Tools whose answers are kept per store version (Store.dataVersion): their first call is measured too. */
const STORE_WIDE = new Set(['search_sessions', 'usage_report', 'inspect_metrics']);

/**
 * Every latency figure on one ingested store.
 *
 * @example
 * console.log(JSON.stringify(await measureLatency('/tmp/cc-1gb.db', { calls: 20 }), null, 2));
 */
export async function measureLatency(db: string, options: LatencyOptions = {}): Promise<Figure[]> {
  const cli = options.cli ?? DEFAULT_CLI;
  const n = options.calls ?? 40;
  const seconds = options.seconds ?? 20;
  const connections = options.connections ?? 100;
  const rounds = options.rounds ?? 3;
  const figures: Figure[] = [];
  const store = await openStore({ db });
  let calls: Call[];
  let big: Awaited<ReturnType<typeof targets>>;
  const local = new Map<string, Timing>();
  try {
    big = await targets(store);
    calls = callsFor(big);
    // The first overview of a session (nothing cached yet for this store): what an ingest costs the next caller.
    const t0 = performance.now();
    const first = await runTool(findTool('session_overview')!, { session_id: big.id }, { store });
    if (first.status !== 'ok') throw new Error(`session_overview: ${first.error}`);
    JSON.stringify(first);
    figures.push({ figure: 'latency.session_overview_first_call', value: ms(performance.now() - t0), unit: 'ms', note: `largest session (${big.events} events), nothing cached` });
    // Answers read from the whole store are kept per store version: their first call on this handle
    // is what the first such call after an ingest costs.
    for (const c of calls.filter((x) => STORE_WIDE.has(x.tool))) {
      const t1 = performance.now();
      const r = await runTool(findTool(c.tool)!, c.args, { store });
      if (r.status !== 'ok') throw new Error(`${c.tool}: ${r.error}`);
      JSON.stringify(r);
      figures.push({ figure: `latency.in_process.${c.label}_first_call`, value: ms(performance.now() - t1), unit: 'ms', note: `nothing kept yet for this store version; ${JSON.stringify(c.args)}` });
    }
    for (const c of options.loadOnly ? [] : calls) {
      const t = await inProcess(store, c, n);
      local.set(c.label, t);
      figures.push({ figure: `latency.in_process.${c.label}_p50`, value: ms(t.p50), unit: 'ms', target: 'p50 < 50 ms, p99 < 250 ms', note: `p99 ${ms(t.p99)} ms over ${t.n} calls; ${JSON.stringify(c.args)}` });
    }
  } finally {
    await store.close();
  }

  const serveArgs = ['serve', '--port', '0', '--db', db];
  const servePattern = /at (http:\/\/\S+?)\/?\n/;
  const serve = await startCli(cli, serveArgs, servePattern);
  const before = options.baselineCli ? await startCli(options.baselineCli, serveArgs, servePattern) : null;
  try {
    for (const c of options.loadOnly ? [] : calls) {
      const t = await overHttp(serve.url, c, n);
      const base = local.get(c.label)!;
      figures.push({
        figure: `latency.http.${c.label}_p50`,
        value: ms(t.p50),
        unit: 'ms',
        baseline: ms(base.p50),
        baseline_unit: 'ms (in process p50)',
        ratio: +(t.p50 / base.p50).toFixed(2),
        target: 'p50 < 50 ms, p99 < 250 ms',
        note: `p99 ${ms(t.p99)} ms over ${t.n} calls, one keep-alive connection`,
      });
    }
    const overview = calls.find((c) => c.tool === 'session_overview')!;
    // Each server computes its first overview and runs a short load (its JIT and connections warm)
    // before the clock starts: the figure is the steady state (the first-call figure is above).
    const servers = [serve.url, ...(before ? [before.url] : [])];
    for (const url of servers) {
      await overHttp(url, overview, 1);
      await underLoad(url, overview, WARM_LOAD_S, connections);
      await drained(url, overview);
    }
    const [mine, theirs] = await loadRounds(servers, overview, rounds, seconds, connections);
    const at = `${connections} connections for ${seconds} s, largest session (${big.events} events); median of ${rounds} rounds after ${WARM_LOAD_S} s of untimed load`;
    const vs = (pick: (r: AutocannonResult) => number) =>
      theirs ? { baseline: median(theirs.map(pick)), baseline_unit: 'ms (--baseline-cli, same load, interleaved)', ratio: +(median(mine!.map(pick)) / median(theirs.map(pick))).toFixed(3) } : {};
    const each = (pick: (r: AutocannonResult) => number) => mine!.map(pick).join(', ');
    figures.push(
      {
        figure: 'latency.http_load.session_overview_p50',
        value: median(mine!.map((r) => r.latency.p50)),
        unit: 'ms',
        ...vs((r) => r.latency.p50),
        target: 'p50 < 50 ms',
        note: `${at}; rounds ${each((r) => r.latency.p50)} ms; ${each((r) => r.requests.average)} req/s${theirs ? `; baseline rounds ${theirs.map((r) => r.latency.p50).join(', ')} ms, ${theirs.map((r) => r.requests.average).join(', ')} req/s` : ''}`,
      },
      {
        figure: 'latency.http_load.session_overview_p99',
        value: median(mine!.map((r) => r.latency.p99)),
        unit: 'ms',
        ...vs((r) => r.latency.p99),
        target: 'p99 < 250 ms',
        note: `${at}; rounds ${each((r) => r.latency.p99)} ms; max ${Math.max(...mine!.map((r) => r.latency.max))} ms${theirs ? `; baseline rounds ${theirs.map((r) => r.latency.p99).join(', ')} ms` : ''}`,
      },
      {
        figure: 'latency.http_load.session_overview_timeouts',
        value: mine!.reduce((sum, r) => sum + r.timeouts + r.errors, 0),
        unit: 'count',
        ...(theirs ? { baseline: theirs.reduce((sum, r) => sum + r.timeouts + r.errors, 0), baseline_unit: 'count (--baseline-cli)' } : {}),
        target: '0',
        note: `timeouts (${TIMEOUT_S} s) and connection errors over all rounds; non-2xx ${mine!.reduce((sum, r) => sum + r.non2xx, 0)}`,
      },
    );
  } finally {
    serve.child.kill('SIGTERM');
    before?.child.kill('SIGTERM');
  }
  if (options.loadOnly) return figures;

  // MCP: the same calls through the SDK Client on both transports, both servers up, the calls
  // interleaved (one over stdio, the same one over HTTP, …) so that a change in the machine's load
  // falls on both alike.
  const stdio = await mcpClient(new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp', '--tools', 'all', '--db', db], stderr: 'ignore' }));
  const mcpHttp = await startCli(cli, ['mcp', '--http', '--tools', 'all', '--port', '0', '--db', db], /(http:\/\/\S+\/mcp)/);
  try {
    const http = await mcpClient(new StreamableHTTPClientTransport(new URL(mcpHttp.url)));
    try {
      for (const c of calls) {
        const call = (client: Client) => async () => {
          const r = (await client.callTool({ name: c.tool, arguments: c.args })) as CallToolResult;
          if (r.isError) throw new Error(`${c.tool} over MCP: ${JSON.stringify(r.content).slice(0, 300)}`);
        };
        const [s, t] = await interleaved(n, call(stdio), call(http));
        figures.push({
          figure: `latency.mcp_http.${c.label}_p50`,
          value: ms(t.p50),
          unit: 'ms',
          baseline: ms(s.p50),
          baseline_unit: 'ms (same call over MCP stdio, p50)',
          ratio: +(t.p50 / s.p50).toFixed(2),
          target: '<= 1.5 (ratio)',
          note: `p99 ${ms(t.p99)} ms (stdio ${ms(s.p99)} ms) over ${t.n} calls each, interleaved; SDK Client on both`,
        });
      }
    } finally {
      await http.close();
    }
  } finally {
    await stdio.close();
    mcpHttp.child.kill('SIGTERM');
  }
  return figures;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      cli: { type: 'string' },
      'baseline-cli': { type: 'string' },
      rounds: { type: 'string' },
      calls: { type: 'string' },
      seconds: { type: 'string' },
      connections: { type: 'string' },
      'load-only': { type: 'boolean' },
    },
  });
  const db = positionals[0];
  if (!db) {
    process.stderr.write('usage: latency-bench DB [--cli PATH] [--baseline-cli PATH] [--rounds N] [--calls N] [--seconds N] [--connections N] [--load-only]\n');
    process.exit(2);
  }
  const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));
  const figures = await measureLatency(db, {
    cli: values.cli,
    baselineCli: values['baseline-cli'],
    rounds: num(values.rounds),
    calls: num(values.calls),
    seconds: num(values.seconds),
    connections: num(values.connections),
    loadOnly: values['load-only'],
  });
  process.stdout.write(`${JSON.stringify({ db, figures }, null, 2)}\n`);
}
