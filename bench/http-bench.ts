// The HTTP API under load: autocannon on loopback against the built `hindsight serve` (a child
// process, so the RSS is the server's), POSTing session_overview and reconstruct_session, with
// in-process runTool on the same arguments as the baseline (the ratio is the surface's overhead).
// Standalone: node dist/bench/http-bench.js [DB] [SESSION_ID] [--seconds N] [--connections N]

import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { openStore } from '../src/store/open.js';
import { findTool } from '../src/tools/registry.js';
import { runTool } from '../src/tools/tool.js';
import type { Figure } from './figure.js';
import { percentile } from './measure.js';
import { FIXTURE_SESSION, fixtureStore } from './fixture-store.js';

export type { Figure } from './figure.js';

const REPO = resolve(import.meta.dirname, '..', '..');
const BIN = join(REPO, 'bin', 'hindsight');
const TOOLS = ['session_overview', 'reconstruct_session'] as const;
/** autocannon's default: a request unanswered for 10 s is an error (a starved connection). */
const TIMEOUT_S = 10;

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number; max: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
type Autocannon = (opts: Record<string, unknown>) => Promise<AutocannonResult>;

interface InProcess {
  p50: number;
  p99: number;
  perSecond: number;
}

/** runTool back to back for `seconds` (after warm-up calls), serialising each envelope as a surface does. */
async function inProcess(db: string, tool: string, args: Record<string, unknown>, seconds: number): Promise<InProcess> {
  const store = await openStore({ db });
  const def = findTool(tool)!;
  try {
    const call = async () => {
      const r = await runTool(def, args, { store });
      if (r.status !== 'ok') throw new Error(`${tool} failed in process: ${r.error}`);
      JSON.stringify(r);
    };
    for (let i = 0; i < 3; i++) await call();
    const ms: number[] = [];
    const started = performance.now();
    while (performance.now() - started < seconds * 1000 || ms.length < 10) {
      const t0 = performance.now();
      await call();
      ms.push(performance.now() - t0);
    }
    const elapsed = (performance.now() - started) / 1000;
    ms.sort((a, b) => a - b);
    return { p50: percentile(ms, 50), p99: percentile(ms, 99), perSecond: ms.length / elapsed };
  } finally {
    await store.close();
  }
}

function startServer(db: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--db', db], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, HINDSIGHT_TOKEN: '' },
  });
  return new Promise((resolvePromise, reject) => {
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const url = /at (http:\/\/\S+?)\/\n/.exec(stderr)?.[1];
      if (url) resolvePromise({ child, url });
    });
    child.once('exit', (code) => reject(new Error(`hindsight serve exited ${code}: ${stderr}`)));
  });
}

/** The server's resident set from /proc (Linux), in MB. */
function rssMb(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return kb ? +(Number(kb) / 1024).toFixed(1) : NaN;
}

async function load(url: string, body: string, seconds: number, connections: number): Promise<AutocannonResult> {
  const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;
  return autocannon({ url, method: 'POST', connections, duration: seconds, timeout: TIMEOUT_S, headers: { 'content-type': 'application/json' }, body });
}

/**
 * The HTTP figures for one session of an ingested store (defaults: 30 s at 100 connections per tool).
 *
 * @example
 * console.log(JSON.stringify(await measureHttp('.bench/cc.db', 'SES-1', { seconds: 5 }), null, 2));
 */
export async function measureHttp(
  db: string,
  sessionId: string,
  options: { seconds?: number; connections?: number } = {},
): Promise<Figure[]> {
  const seconds = options.seconds ?? 30;
  const connections = options.connections ?? 100;
  const baselineSeconds = Math.max(1, Math.min(10, seconds / 3));
  const baselines = new Map<string, InProcess>();
  for (const tool of TOOLS) baselines.set(tool, await inProcess(db, tool, { session_id: sessionId }, baselineSeconds));
  const { child, url } = await startServer(db);
  const figures: Figure[] = [];
  try {
    const rssBefore = rssMb(child.pid!);
    figures.push({ figure: 'http.server_rss_before', value: rssBefore, unit: 'MB', note: 'hindsight serve after start, before any request' });
    for (const tool of TOOLS) {
      const base = baselines.get(tool)!;
      const body = JSON.stringify({ session_id: sessionId });
      const endpoint = `${url}/api/tools/${tool}`;
      const warm = await fetch(endpoint, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
      if (warm.status !== 200) throw new Error(`${tool} over HTTP answered ${warm.status}: ${(await warm.text()).slice(0, 300)}`);
      const single = await load(endpoint, body, Math.max(1, Math.round(seconds / 6)), 1);
      const r = await load(endpoint, body, seconds, connections);
      const at = `${connections} connections for ${seconds} s`;
      figures.push(
        {
          figure: `http.${tool}.requests_per_s`,
          value: +r.requests.average.toFixed(1),
          unit: 'req/s',
          baseline: +base.perSecond.toFixed(1),
          baseline_unit: 'calls/s (runTool in process, sequential)',
          ratio: +(r.requests.average / base.perSecond).toFixed(3),
          note: `autocannon POST ${at}; ${r.requests.total} requests`,
        },
        {
          figure: `http.${tool}.p50_latency`,
          value: r.latency.p50,
          unit: 'ms',
          baseline: +base.p50.toFixed(2),
          baseline_unit: 'ms (runTool p50 in process)',
          ratio: +(r.latency.p50 / base.p50).toFixed(2),
          note: `${at}: one event loop serves them in turn, so this is mostly queueing (≈ connections / rate)`,
        },
        {
          figure: `http.${tool}.p99_latency`,
          value: r.latency.p99,
          unit: 'ms',
          baseline: +base.p99.toFixed(2),
          baseline_unit: 'ms (runTool p99 in process)',
          ratio: +(r.latency.p99 / base.p99).toFixed(2),
          note: at,
        },
        { figure: `http.${tool}.max_latency`, value: r.latency.max, unit: 'ms', note: `${at}; the client gives up after ${TIMEOUT_S} s (an error)` },
        {
          figure: `http.${tool}.p50_latency_one_connection`,
          value: single.latency.p50,
          unit: 'ms',
          baseline: +base.p50.toFixed(2),
          baseline_unit: 'ms (runTool p50 in process)',
          ratio: +(single.latency.p50 / base.p50).toFixed(2),
          note: 'one connection, requests back to back: the surface overhead per call without queueing',
        },
        { figure: `http.${tool}.errors`, value: r.errors + r.timeouts + single.errors + single.timeouts, unit: 'count', note: 'connection errors and timeouts; must be 0' },
        { figure: `http.${tool}.non_2xx`, value: r.non2xx + single.non2xx, unit: 'count', note: 'must be 0' },
        { figure: `http.${tool}.server_rss_after`, value: rssMb(child.pid!), unit: 'MB', baseline: rssBefore, baseline_unit: 'MB before', note: `right after the ${tool} runs` },
      );
    }
    const rssAfter = rssMb(child.pid!);
    figures.push({ figure: 'http.server_rss_after', value: rssAfter, unit: 'MB', baseline: rssBefore, baseline_unit: 'MB before', ratio: +(rssAfter / rssBefore).toFixed(2), note: 'after both load runs' });
    return figures;
  } finally {
    child.kill('SIGTERM');
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { seconds: { type: 'string' }, connections: { type: 'string' } } });
  const db = positionals[0] ?? (await fixtureStore());
  const sessionId = positionals[1] ?? FIXTURE_SESSION;
  const figures = await measureHttp(db, sessionId, {
    seconds: values.seconds ? Number(values.seconds) : undefined,
    connections: values.connections ? Number(values.connections) : undefined,
  });
  process.stdout.write(`${JSON.stringify({ db, session_id: sessionId, figures }, null, 2)}\n`);
}
