// Searches run on worker threads, never on the event loop that answers the server's other
// clients: the main thread reads blocks (from the source file or the evidence) and hands them to a
// worker, which answers with the matching line indexes in order. A deadline ends the search:
// the worker is terminated mid-block (a regex cannot be interrupted any other way) and the caller
// keeps what the finished blocks found.
//
// Workers are pooled: a new one costs ~30–60 ms to start (the module graph and re2js), which a
// one-shot CLI call pays once and a server pays only for its first searches. At most MAX_WORKERS
// search at once (the rest wait their turn, within their own deadline); IDLE_WORKERS stay warm and
// unreferenced, so they never keep a process alive.

import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { SearchPlan } from '../../core/safe-regex.js';
import type { SearchBlock } from './block-search.js';
import type { FromWorker, ToWorker } from './search-worker.js';

const MAX_WORKERS = 4;
const IDLE_WORKERS = 2;
/** Bytes handed to a worker and not yet answered, above which reading pauses (memory bound). */
const HIGH_WATER = 32 * 1024 * 1024;
const LOW_WATER = 8 * 1024 * 1024;

/**
 * The compiled worker: beside this module in dist/; when this module runs from the TypeScript
 * sources (vitest), the built twin under dist/ (so tests that search need `npm run build` first;
 * `npm test` does it).
 */
function workerUrl(): URL {
  const beside = new URL('./search-worker.js', import.meta.url);
  if (existsSync(fileURLToPath(beside))) return beside;
  // This module is <root>/src/tools/grep-jsonl/ here; its built twin is under <root>/dist/.
  const built = fileURLToPath(new URL('../../../dist/src/tools/grep-jsonl/search-worker.js', import.meta.url));
  if (!existsSync(built)) throw new Error(`The search worker ${built} is missing: run \`npm run build\` (searches run the compiled worker).`);
  return pathToFileURL(built);
}

const idle: Worker[] = [];
let running = 0;
const waiting: (() => void)[] = [];

async function acquire(deadlineAt: number): Promise<Worker | null> {
  while (running >= MAX_WORKERS) {
    const turn = new Promise<void>((resolve) => waiting.push(resolve));
    const left = deadlineAt - Date.now();
    if (left <= 0) return null;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), left)));
    const outcome = await Promise.race([turn, late]);
    clearTimeout(timer);
    if (outcome === 'late') return null;
  }
  running++;
  const worker = idle.pop() ?? new Worker(workerUrl());
  worker.ref();
  return worker;
}

function release(worker: Worker, reusable: boolean): void {
  running--;
  worker.removeAllListeners('message');
  worker.removeAllListeners('error');
  worker.removeAllListeners('exit');
  if (reusable && idle.length < IDLE_WORKERS) {
    worker.unref();
    idle.push(worker);
  } else void worker.terminate();
  waiting.shift()?.();
}

export type SearchEnd = 'done' | 'deadline';

/**
 * One search on one worker. `submit` blocks in reading order; each block's `onMatched` runs in that
 * same order. `finish` resolves once every submitted block is answered ('done') or the deadline has
 * passed ('deadline': blocks not answered by then are dropped, never half-counted).
 */
export class SearchSession {
  private seq = 0;
  private readonly waitingFor = new Map<number, { bytes: number; onMatched: (lines: number[]) => void }>();
  private bytesInFlight = 0;
  private ended: SearchEnd | null = null;
  private failure: Error | null = null;
  private wakeFinish: (() => void) | null = null;
  private wakeProducer: (() => void) | null = null;
  private readonly timer: NodeJS.Timeout;

  private constructor(
    private readonly worker: Worker | null,
    plan: SearchPlan,
    deadlineAt: number,
  ) {
    this.timer = setTimeout(() => this.end('deadline'), Math.max(0, deadlineAt - Date.now()));
    if (!worker) {
      this.end('deadline'); // no worker freed up in time
      return;
    }
    worker.on('message', (msg: FromWorker) => this.answered(msg));
    worker.on('error', (err) => this.fail(err));
    worker.on('exit', (code) => this.fail(new Error(`the search worker stopped (exit code ${code})`)));
    worker.postMessage({ kind: 'plan', plan } satisfies ToWorker);
  }

  /** Start a search for `plan` that ends by `deadlineAt` (ms since the epoch) at the latest. */
  static async open(plan: SearchPlan, deadlineAt: number): Promise<SearchSession> {
    return new SearchSession(await acquire(deadlineAt), plan, deadlineAt);
  }

  /** True once the deadline has passed or the worker failed: stop reading. */
  get stopped(): boolean {
    return this.ended !== null;
  }

  submit(block: SearchBlock, onMatched: (lines: number[]) => void): void {
    if (this.ended || !this.worker) return;
    // An exact copy, transferred: a view's whole underlying buffer would be cloned otherwise.
    const data = new Uint8Array(block.data);
    const seq = this.seq++;
    this.waitingFor.set(seq, { bytes: data.byteLength, onMatched });
    this.bytesInFlight += data.byteLength;
    this.worker.postMessage({ kind: 'block', seq, block: { ...block, data } } satisfies ToWorker, [data.buffer]);
  }

  /** A promise to await before reading more when the worker is far behind, else null. */
  backlog(): Promise<void> | null {
    if (this.bytesInFlight <= HIGH_WATER || this.ended) return null;
    return new Promise((resolve) => (this.wakeProducer = resolve));
  }

  async finish(): Promise<SearchEnd> {
    if (!this.ended && this.waitingFor.size > 0) await new Promise<void>((resolve) => (this.wakeFinish = resolve));
    this.end('done');
    if (this.failure) throw this.failure;
    return this.ended!;
  }

  private answered(msg: FromWorker): void {
    const job = this.waitingFor.get(msg.seq);
    if (!job || this.ended) return;
    this.waitingFor.delete(msg.seq);
    this.bytesInFlight -= job.bytes;
    if (msg.kind === 'failed') return this.fail(new Error(`the search worker failed: ${msg.message}`));
    job.onMatched(msg.lines);
    if (this.bytesInFlight <= LOW_WATER) this.wake();
    if (this.waitingFor.size === 0) this.wakeFinish?.();
  }

  private fail(err: Error): void {
    if (this.ended) return;
    this.failure = err;
    this.end('deadline');
  }

  private wake(): void {
    const w = this.wakeProducer;
    this.wakeProducer = null;
    w?.();
  }

  /** Stop for good: a worker still busy (deadline, failure) is terminated, an idle one goes back to the pool. */
  private end(how: SearchEnd): void {
    if (this.ended) return;
    this.ended = how;
    clearTimeout(this.timer);
    this.wake();
    this.wakeFinish?.();
    if (this.worker) release(this.worker, how === 'done' && this.failure === null && this.waitingFor.size === 0);
  }
}
