// Searches run on worker threads, never on the event loop that answers the server's other
// clients: the main thread reads blocks (from the source file or the evidence) and hands them to a
// worker, which answers with the matching line indexes in order. A deadline ends the search:
// the worker is terminated mid-block (a regex cannot be interrupted any other way) and the caller
// keeps what the finished blocks found.
//
// Workers are pooled: a new one costs ~30–60 ms to start (the module graph and re2js), which a
// one-shot CLI call pays once and a server pays only for its first searches. At most MAX_WORKERS
// search at once (the rest wait their turn, within their own deadline); IDLE_WORKERS stay warm and
// unreferenced, so they never keep a process alive. One search takes a second worker when one is
// free (WORKERS_PER_SEARCH), so a big search uses both cores of a small machine; each block's
// bytes move to its worker and back (transferred, not copied) with the answer, and a live file is
// read by the worker itself, a range at a time (file-range.ts).
//
// A job that fails (a damaged evidence block, a live file that cannot be read) fails alone: its
// caller's onFailed hears the error as it was thrown on the worker (code and details kept,
// core/errors.ts errorFromWire) and decides whether the search goes on without it; a caller
// without onFailed has the whole search fail with it, as any other failure does.

import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { errorFromWire, HindsightError, type WireError } from '../../core/errors.js';
import { Worker } from 'node:worker_threads';
import type { SearchPlan } from '../../core/safe-regex.js';
import { takeBlockBuffer } from './block-buffers.js';
import type { SearchBlock } from './block-search.js';
import type { FileRange, RangeFound } from './file-range.js';
import type { FromWorker, Job, JobResult, PackedBlock, ToWorker } from './search-worker.js';

const MAX_WORKERS = 4;
const IDLE_WORKERS = 2;
/** Workers one search uses when they are free: the blocks are split between them (a 2-core machine uses both cores). */
const WORKERS_PER_SEARCH = Math.max(1, Math.min(2, availableParallelism()));
/** Blocks smaller than this go to a worker several to a message. */
const BATCH_BYTES = 1024 * 1024;
const BATCH_BLOCKS = 64;
/** Bytes handed to a worker and not yet answered, above which reading pauses (memory bound). */
const HIGH_WATER = 32 * 1024 * 1024;
const LOW_WATER = 8 * 1024 * 1024;
/** Jobs not yet answered, above which reading pauses: each live range holds its file open. */
const HIGH_JOBS = 256;
const LOW_JOBS = 64;

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

function take(): Worker {
  running++;
  const worker = idle.pop() ?? new Worker(workerUrl());
  worker.ref();
  return worker;
}

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
  return take();
}

/** A further worker for the same search, only if one is free right now (a helper never waits). */
function acquireHelper(): Worker | null {
  return running < MAX_WORKERS ? take() : null;
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

/** What a block's caller gets back: the matching line indexes and the block's bytes (the ones it handed over may have moved to the worker). */
export type OnMatched = (lines: number[], data: Uint8Array) => void;
/** What a live range's caller gets back: its line count and where its matches are. */
export type OnFound = (found: RangeFound) => void;
/** What a job's caller gets instead of its answer when the job threw; the search goes on unless the caller calls `abort`. */
export type OnFailed = (err: Error) => void;

/** A worker's error on this thread: a HindsightError as thrown; anything else said as the worker's failure. */
function workerError(wire: WireError): Error {
  const err = errorFromWire(wire);
  return err instanceof HindsightError ? err : new Error(`the search worker failed: ${err.message}`, { cause: err });
}

/**
 * One search on up to WORKERS_PER_SEARCH workers, blocks dealt out in turn. `submit` blocks in
 * reading order; each block's `onMatched` runs in that same order, whichever worker answered
 * first. `finish` resolves once every submitted block is answered ('done') or the deadline has
 * passed ('deadline': blocks not answered by then are dropped, never half-counted).
 */
export class SearchSession {
  private seq = 0;
  /** The next batch whose answers the caller gets. */
  private delivered = 0;
  private readonly waitingFor = new Map<number, { bytes: number; onAnswer: ((result: JobResult) => void)[] }>();
  /** Answers that came before an earlier batch's (another worker was quicker). */
  private readonly early = new Map<number, Extract<FromWorker, { kind: 'answered' }>>();
  /** Jobs not yet posted: small ones go in one message (each message costs ~0.1–0.2 ms). */
  private batch: { jobs: Job[]; onAnswer: ((result: JobResult) => void)[]; bytes: number } = { jobs: [], onAnswer: [], bytes: 0 };
  private bytesInFlight = 0;
  private jobsInFlight = 0;
  private ended: SearchEnd | null = null;
  private failure: Error | null = null;
  private wakeFinish: (() => void) | null = null;
  private wakeProducer: (() => void) | null = null;
  private readonly timer: NodeJS.Timeout;
  /** Shared with the workers: 1 once the caller's page is full (inflated blocks need not come back). */
  private readonly full = new Int32Array(new SharedArrayBuffer(4));

  private constructor(
    private readonly workers: Worker[],
    plan: SearchPlan,
    deadlineAt: number,
  ) {
    this.timer = setTimeout(() => this.end('deadline'), Math.max(0, deadlineAt - Date.now()));
    if (workers.length === 0) {
      this.end('deadline'); // no worker freed up in time
      return;
    }
    for (const worker of workers) {
      worker.on('message', (msg: FromWorker) => this.answered(msg));
      worker.on('error', (err) => this.fail(err));
      worker.on('exit', (code) => this.fail(new Error(`the search worker stopped (exit code ${code})`)));
      worker.postMessage({ kind: 'plan', plan, pageFull: this.full } satisfies ToWorker);
    }
  }

  /** Start a search for `plan` that ends by `deadlineAt` (ms since the epoch) at the latest. */
  static async open(plan: SearchPlan, deadlineAt: number): Promise<SearchSession> {
    const first = await acquire(deadlineAt);
    const workers = first ? [first] : [];
    while (first && workers.length < WORKERS_PER_SEARCH) {
      const helper = acquireHelper();
      if (!helper) break;
      workers.push(helper);
    }
    return new SearchSession(workers, plan, deadlineAt);
  }

  /** True once the deadline has passed or the worker failed: stop reading. */
  get stopped(): boolean {
    return this.ended !== null;
  }

  /**
   * Hand a block over. `owned`: the caller gives up `block.data`'s whole buffer (its own, never a
   * pooled one), which then moves to the worker and back without a copy; otherwise the bytes are
   * copied into a block buffer (a view's whole underlying buffer would be cloned). Either way,
   * give the bytes `onMatched` receives back with recycleBlockBuffer. Small blocks wait to go with the
   * next ones, up to BATCH_BYTES; `finish` and `backlog` send what waits.
   */
  submit(block: SearchBlock, onMatched: OnMatched, options: { owned?: boolean } = {}): void {
    if (this.ended || this.workers.length === 0) return;
    let data = block.data;
    if (!options.owned) {
      data = takeBlockBuffer(block.data.byteLength); // its own buffer, given back by the caller
      data.set(block.data);
    }
    this.add({ kind: 'block', block: { ...block, data } }, data.byteLength, (r) => r.kind === 'block' && onMatched(r.lines, r.data), undefined);
  }

  /**
   * Hand over a stored block still compressed: a worker inflates it. `onMatched` gets its bytes
   * while the page is not full (`pageFull`), else an empty array; give them back with
   * recycleBlockBuffer as a block's. A block that does not inflate is EVIDENCE_DAMAGED, to `onFailed`.
   */
  submitPacked(block: PackedBlock, onMatched: OnMatched, onFailed?: OnFailed): void {
    if (this.ended || this.workers.length === 0) return;
    const data = Buffer.allocUnsafeSlow(block.packed.data.byteLength); // its own buffer, moved to the worker
    data.set(block.packed.data);
    const job: Job = { kind: 'packed', block: { ...block, packed: { data, rawBytes: block.packed.rawBytes } } };
    this.add(job, block.packed.rawBytes, (r) => r.kind === 'block' && onMatched(r.lines, r.data), onFailed);
  }

  /** From now on the caller needs no more lines' bytes: blocks inflated by the workers are not sent back. */
  pageFull(): void {
    Atomics.store(this.full, 0, 1);
  }

  /**
   * Hand over a range of a live file, which the worker reads itself through `range.fd` (kept
   * open by the caller until `onFound` has run, or the search has ended). Ranges and blocks are
   * answered in the order they were submitted. A range whose reads fail is SOURCE_UNREADABLE, to `onFailed`.
   */
  submitRange(range: FileRange, onFound: OnFound, onFailed?: OnFailed): void {
    if (this.ended || this.workers.length === 0) return;
    this.add({ kind: 'range', range }, range.to - range.from, (r) => r.kind === 'range' && onFound(r.found), onFailed);
  }

  /** End the search now with `err` (`finish` throws it): for a caller whose onFailed cannot go on without the job. */
  abort(err: Error): void {
    this.fail(err);
  }

  private add(job: Job, bytes: number, onAnswer: (result: JobResult) => void, onFailed: OnFailed | undefined): void {
    this.batch.jobs.push(job);
    this.batch.onAnswer.push((r) => {
      if (r.kind !== 'failed') return onAnswer(r);
      const err = workerError(r.error);
      if (onFailed) onFailed(err);
      else this.fail(err);
    });
    this.batch.bytes += bytes;
    this.bytesInFlight += bytes;
    this.jobsInFlight++;
    if (this.batch.bytes >= BATCH_BYTES || this.batch.jobs.length >= BATCH_BLOCKS) this.flush();
  }

  /** Post the jobs waiting in the batch to the next worker in turn. */
  private flush(): void {
    const { jobs, onAnswer, bytes } = this.batch;
    if (jobs.length === 0 || this.ended) return;
    this.batch = { jobs: [], onAnswer: [], bytes: 0 };
    const seq = this.seq++;
    this.waitingFor.set(seq, { bytes, onAnswer });
    const worker = this.workers[seq % this.workers.length]!;
    const moved = jobs.flatMap((j) => (j.kind === 'block' ? [j.block.data.buffer as ArrayBuffer] : j.kind === 'packed' ? [j.block.packed.data.buffer as ArrayBuffer] : []));
    worker.postMessage({ kind: 'jobs', seq, jobs } satisfies ToWorker, moved);
  }

  private behind(): boolean {
    return this.bytesInFlight > HIGH_WATER || this.jobsInFlight > HIGH_JOBS;
  }

  /** A promise to await before reading more when the workers are far behind, else null. */
  backlog(): Promise<void> | null {
    // Called between files and blocks: an idle worker gets what waits rather than wait for more.
    if (this.waitingFor.size < this.workers.length) this.flush();
    if (!this.behind() || this.ended) return null;
    this.flush();
    return new Promise((resolve) => (this.wakeProducer = resolve));
  }

  async finish(): Promise<SearchEnd> {
    this.flush();
    if (!this.ended && this.waitingFor.size > 0) await new Promise<void>((resolve) => (this.wakeFinish = resolve));
    this.end('done');
    if (this.failure) throw this.failure;
    return this.ended!;
  }

  private answered(msg: FromWorker): void {
    if (this.ended || !this.waitingFor.has(msg.seq)) return;
    if (msg.kind === 'failed') return this.fail(workerError(msg.error));
    this.early.set(msg.seq, msg);
    for (let next = this.early.get(this.delivered); next; next = this.early.get(this.delivered)) {
      this.early.delete(this.delivered);
      const job = this.waitingFor.get(this.delivered)!;
      this.waitingFor.delete(this.delivered);
      this.delivered++;
      this.bytesInFlight -= job.bytes;
      this.jobsInFlight -= job.onAnswer.length;
      for (let k = 0; k < job.onAnswer.length && !this.ended; k++) job.onAnswer[k]!(next.results[k]!); // a caller may abort mid-batch
      if (this.ended) return;
    }
    if (this.bytesInFlight <= LOW_WATER && this.jobsInFlight <= LOW_JOBS) this.wake();
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

  /** Stop for good: workers still busy (deadline, failure) are terminated, idle ones go back to the pool. */
  private end(how: SearchEnd): void {
    if (this.ended) return;
    this.ended = how;
    clearTimeout(this.timer);
    this.wake();
    this.wakeFinish?.();
    const reusable = how === 'done' && this.failure === null && this.waitingFor.size === 0;
    for (const worker of this.workers) release(worker, reusable);
  }
}
