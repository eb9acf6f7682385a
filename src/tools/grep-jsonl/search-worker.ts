// The search worker's entry (compiled to dist/src/tools/grep-jsonl/search-worker.js): it matches the
// jobs the main thread sends, in order, so a slow pattern never holds up the server's event loop,
// and the main thread can end it (Worker.terminate) when the caller's deadline passes.
// Messages in: {kind: 'plan', plan} then batches {kind: 'jobs', seq, jobs}; out: {kind: 'answered',
// seq, results} (one per job; a job that threw is {kind: 'failed', error}, so one damaged block or
// unreadable file fails only its own job) or {kind: 'failed', seq, error} (no pattern to search
// with). Errors cross as core/errors.ts errorToWire says (code and details kept). A job is a block of bytes the main
// thread read (evidence), answered with its matching lines and its bytes handed back; a stored
// block still compressed, which this worker inflates, answered the same way (its bytes only while
// the caller's page is not full: `pageFull`, shared with the main thread, says when no later block
// can add a line to it); or a range of a live file this worker reads itself (file-range.ts),
// answered with where its matches are.

import { parentPort } from 'node:worker_threads';
import type { SearchPlan } from '../../core/safe-regex.js';
import { blockSearch, type BlockSearch, type SearchBlock } from './block-search.js';
import { searchRange, type FileRange, type RangeFound } from './file-range.js';
import { inflateEvidence } from '../../store/shared/visit-blocks.js';
import { errorToWire, type WireError } from '../../core/errors.js';
import type { PackedEvidence } from '../../store/store.js';

/** A stored block as it is kept: its lines, its bytes to inflate, and where it is (for the error if they do not inflate). */
export type PackedBlock = Omit<SearchBlock, 'data'> & { packed: PackedEvidence; where: { file: string; firstLine: number } };
export type Job = { kind: 'block'; block: SearchBlock } | { kind: 'packed'; block: PackedBlock } | { kind: 'range'; range: FileRange };
/**
 * Per block: its matching lines, and its bytes handed back (transferred) so the main thread can
 * read them; per range: where its matches are; per job that threw: the error (EVIDENCE_DAMAGED,
 * SOURCE_UNREADABLE: the caller decides whether the search goes on without that file).
 */
export type JobResult = { kind: 'block'; lines: number[]; data: Uint8Array } | { kind: 'range'; found: RangeFound } | { kind: 'failed'; error: WireError };
/** `pageFull[0]` is 1 once the caller needs no more lines' bytes. */
export type ToWorker = { kind: 'plan'; plan: SearchPlan; pageFull: Int32Array } | { kind: 'jobs'; seq: number; jobs: Job[] };
export type FromWorker = { kind: 'answered'; seq: number; results: JobResult[] } | { kind: 'failed'; seq: number; error: WireError };

const NOTHING = new Uint8Array(0);

/** The job's answer, or its error (the batch's other jobs are answered all the same). */
function answer(search: BlockSearch, job: Job, pageFull: Int32Array): JobResult {
  try {
    return run(search, job, pageFull);
  } catch (err) {
    return { kind: 'failed', error: errorToWire(err) };
  }
}

function run(search: BlockSearch, job: Job, pageFull: Int32Array): JobResult {
  if (job.kind === 'range') return { kind: 'range', found: searchRange(job.range, search) };
  if (job.kind === 'block') return { kind: 'block', lines: search(job.block), data: job.block.data };
  const data = inflateEvidence(job.block.packed, job.block.where.file, job.block.where.firstLine);
  const lines = search({ ...job.block, data });
  // Bytes the caller cannot use are not sent: it would only drop them (and a thread's dropped
  // foreign buffers are not counted towards its collections).
  return { kind: 'block', lines, data: lines.length > 0 && Atomics.load(pageFull, 0) === 0 ? data : NOTHING };
}

/** What moves back without a copy: the blocks' bytes and the ranges' answers. */
function transferred(results: JobResult[]): ArrayBuffer[] {
  return results.flatMap((r) => {
    if (r.kind === 'range') return [r.found.matched.buffer, r.found.starts.buffer, r.found.lengths.buffer] as ArrayBuffer[];
    if (r.kind === 'failed') return [];
    return r.data.byteLength > 0 ? [r.data.buffer as ArrayBuffer] : [];
  });
}

const port = parentPort;
if (port) {
  let search: BlockSearch | null = null;
  let planError: string | null = null;
  let pageFull: Int32Array = new Int32Array(new SharedArrayBuffer(4));
  port.on('message', (msg: ToWorker) => {
    if (msg.kind === 'plan') {
      pageFull = msg.pageFull;
      try {
        search = blockSearch(msg.plan);
        planError = null;
      } catch (err) {
        search = null;
        planError = (err as Error).message;
      }
      return;
    }
    let reply: FromWorker;
    try {
      if (!search) throw new Error(planError ?? 'no pattern was sent before the first job');
      const found = search;
      reply = { kind: 'answered', seq: msg.seq, results: msg.jobs.map((job) => answer(found, job, pageFull)) };
    } catch (err) {
      reply = { kind: 'failed', seq: msg.seq, error: errorToWire(err) };
    }
    port.postMessage(reply, reply.kind === 'answered' ? transferred(reply.results) : []);
  });
}
