// A parse worker: parses the jobs it is given, in order, into chunks (evidence compressed, events,
// defects, facts) and posts each to the writer's thread, staying at most AHEAD_BYTES of input
// ahead of what the writer has taken. The chain state of a group's files stays here: the writer
// sends every file of a chain group to the same worker (parse-workers.ts).

import { parentPort } from 'node:worker_threads';
import { errorToWire, type WireError } from '../core/errors.js';
import { loadImporters } from '../formats/registry.js';
import type { EvidenceBlock } from '../store/store.js';
import { ChunkParser, type ChunkResult, type ParseJob } from './chunk-parser.js';
import { chunkToWire, jobFromWire, transferList, type WireChunk, type WireJob } from './chunk-wire.js';
import { holdBytes, releaseBytes } from './held-bytes.js';

/** Input bytes parsed but not yet taken by the writer, above which the worker waits (memory bound). */
const AHEAD_BYTES = 4 * 1024 * 1024;

export type ToParseWorker = { type: 'job'; job: WireJob } | { type: 'taken'; bytes: number };
export type FromParseWorker = { type: 'chunk'; chunk: WireChunk } | { type: 'failed'; jobId: number; error: WireError };

const port = parentPort!;
const jobs: ParseJob[] = [];
const chainStates = new Map<string, unknown>();
let current: { job: ParseJob; parser: ChunkParser } | null = null;
let ahead = 0;
let failed = false;
let scheduled = false;
/** Posts in parse order: a chunk is posted once its blocks and every earlier chunk's are. */
let posted: Promise<void> = Promise.resolve();
const ready = loadImporters();

const groupKey = (job: ParseJob) => (job.source.chainGroup ? `${job.source.root}\0${job.source.chainGroup}` : null);

function parseOne(): { chunk: ChunkResult; blocks: Promise<EvidenceBlock[]> } | null {
  if (!current) {
    const job = jobs.shift();
    if (!job) return null;
    const group = groupKey(job);
    const chainState = job.chainFromQueue && group ? chainStates.get(group) : job.chainState;
    current = { job, parser: new ChunkParser(job, chainState) };
  }
  const parsed = current.parser.parse();
  if (!parsed.chunk.more) {
    const group = groupKey(current.job);
    if (group) chainStates.set(group, parsed.chunk.parserState);
    if (current.job.source.rows) releaseBytes(current.job.source.path);
    current = null;
  }
  return parsed;
}

function fail(jobId: number, err: unknown): void {
  failed = true;
  const error = errorToWire(err);
  posted = posted.then(() => port.postMessage({ type: 'failed', jobId, error } satisfies FromParseWorker));
}

/** Parse while there is work and room ahead; one chunk per turn of the event loop, so acknowledgements get in. */
function pump(): void {
  scheduled = false;
  if (failed || ahead >= AHEAD_BYTES) return;
  const jobId = current?.job.jobId ?? jobs[0]?.jobId;
  if (jobId === undefined) return;
  let parsed;
  try {
    parsed = parseOne();
  } catch (err) {
    fail(jobId, err);
    return;
  }
  if (!parsed) return;
  const { chunk, blocks } = parsed;
  ahead += Math.max(1, chunk.bytesRead);
  const done = blocks.then(
    (b) => ({ ok: true as const, b }),
    (err: unknown) => ({ ok: false as const, err }),
  );
  posted = posted.then(async () => {
    const outcome = await done;
    if (failed) return;
    if (!outcome.ok) return fail(chunk.jobId, outcome.err);
    chunk.blocks = outcome.b;
    const wire = chunkToWire(chunk);
    port.postMessage({ type: 'chunk', chunk: wire } satisfies FromParseWorker, transferList(wire));
  });
  schedule();
}

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  setImmediate(pump);
}

port.on('message', (msg: ToParseWorker) => {
  if (msg.type === 'job') {
    const { job } = msg;
    if (job.held) holdBytes(job.source.path, Buffer.from(job.held.buffer, job.held.byteOffset, job.held.byteLength));
    jobs.push(jobFromWire(job));
  } else {
    ahead -= msg.bytes;
  }
  void ready.then(schedule, (err: unknown) => fail(msg.type === 'job' ? msg.job.jobId : -1, err));
});
