// Parsing on worker threads, writing on this one: the same queue as ParseQueue (jobs submitted in
// file order, chunks handed back in that order), with the parsing, hashing and compressing of each
// chunk done by a worker (parse-worker.ts) while this thread writes the chunks before it. Jobs go
// to the workers in turn, every file of a chain group to the same one (its parser state follows
// the group). Each worker stays at most a few chunks ahead, so memory stays bounded.

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { errorFromWire } from '../core/errors.js';
import type { ChunkResult, ParseJob } from './chunk-parser.js';
import { chunkFromWire, jobToWire } from './chunk-wire.js';
import { heldBytes } from './held-bytes.js';
import type { FromParseWorker, ToParseWorker } from './parse-worker.js';

/** What the pipeline needs of a parse queue, on this thread (ParseQueue) or on workers. */
export interface ChunkQueue {
  submit(job: ParseJob): void;
  /** The next chunk of `jobId`, which must be the oldest unfinished job. */
  next(jobId: number): Promise<ChunkResult>;
  close(): Promise<void>;
}

let workerUrlOverride: URL | null = null;

/**
 * Run parse workers from this file instead of the compiled twin beside this module (tests run the
 * TypeScript sources, which a worker cannot load: they bundle the worker first).
 */
export function useParseWorkerUrl(url: URL | null): void {
  workerUrlOverride = url;
}

/** The worker's module, or null when there is none to run (this module runs from its TypeScript source). */
export function parseWorkerUrl(): URL | null {
  if (workerUrlOverride) return workerUrlOverride;
  const beside = new URL('./parse-worker.js', import.meta.url);
  return existsSync(fileURLToPath(beside)) ? beside : null;
}

interface Inbox {
  chunks: ChunkResult[];
  failure?: Error;
  waiting?: { resolve: (c: ChunkResult) => void; reject: (e: Error) => void };
}

export class ParseWorkers implements ChunkQueue {
  private readonly workers: Worker[];
  private readonly inboxes = new Map<number, Inbox>();
  private readonly workerOfJob = new Map<number, number>();
  private readonly workerOfGroup = new Map<string, number>();
  private nextWorker = 0;
  private broken: Error | null = null;

  constructor(count: number, url: URL) {
    this.workers = Array.from({ length: count }, (_, i) => {
      const worker = new Worker(url);
      worker.on('message', (msg: FromParseWorker) => this.receive(msg));
      worker.on('error', (err) => this.breakAll(new Error(`parse worker ${i + 1} failed: ${err.message}`, { cause: err })));
      worker.on('exit', (code) => {
        if (code !== 0) this.breakAll(new Error(`parse worker ${i + 1} exited with code ${code}`));
      });
      return worker;
    });
  }

  private inbox(jobId: number): Inbox {
    let box = this.inboxes.get(jobId);
    if (!box) {
      box = { chunks: [] };
      this.inboxes.set(jobId, box);
    }
    return box;
  }

  private receive(msg: FromParseWorker): void {
    if (msg.type === 'failed') {
      const err = errorFromWire(msg.error);
      // A failure of no job (the worker could not start) fails every job.
      if (!this.workerOfJob.has(msg.jobId)) return this.breakAll(err);
      const box = this.inbox(msg.jobId);
      box.failure = err;
      box.waiting?.reject(err);
      box.waiting = undefined;
      return;
    }
    const chunk = chunkFromWire(msg.chunk);
    const box = this.inbox(chunk.jobId);
    if (box.waiting) {
      const { resolve } = box.waiting;
      box.waiting = undefined;
      this.taken(chunk);
      resolve(chunk);
    } else box.chunks.push(chunk);
  }

  private breakAll(err: Error): void {
    if (this.broken) return;
    this.broken = err;
    for (const box of this.inboxes.values()) {
      box.waiting?.reject(err);
      box.waiting = undefined;
    }
  }

  /** Tell the chunk's worker it may parse that many bytes further ahead. */
  private taken(chunk: ChunkResult): void {
    const at = this.workerOfJob.get(chunk.jobId)!;
    this.workers[at]!.postMessage({ type: 'taken', bytes: Math.max(1, chunk.bytesRead) } satisfies ToParseWorker);
    if (!chunk.more) this.workerOfJob.delete(chunk.jobId);
  }

  submit(job: ParseJob): void {
    const group = job.source.chainGroup ? `${job.source.root}\0${job.source.chainGroup}` : null;
    let at = group ? this.workerOfGroup.get(group) : undefined;
    if (at === undefined) {
      at = this.nextWorker;
      this.nextWorker = (this.nextWorker + 1) % this.workers.length;
      if (group) this.workerOfGroup.set(group, at);
    }
    this.workerOfJob.set(job.jobId, at);
    const held = job.source.rows ? heldBytes(job.source.path) : undefined;
    this.workers[at]!.postMessage({ type: 'job', job: jobToWire(job, held) } satisfies ToParseWorker);
  }

  next(jobId: number): Promise<ChunkResult> {
    if (this.broken) return Promise.reject(this.broken);
    const box = this.inboxes.get(jobId);
    if (!box && !this.workerOfJob.has(jobId)) return Promise.reject(new Error(`parse job ${jobId} was not submitted`));
    const inbox = box ?? this.inbox(jobId);
    const ready = inbox.chunks.shift();
    if (ready) {
      this.taken(ready);
      if (!ready.more) this.inboxes.delete(jobId);
      return Promise.resolve(ready);
    }
    if (inbox.failure) return Promise.reject(inbox.failure);
    return new Promise<ChunkResult>((resolve, reject) => {
      inbox.waiting = {
        resolve: (c) => {
          if (!c.more) this.inboxes.delete(jobId);
          resolve(c);
        },
        reject,
      };
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
