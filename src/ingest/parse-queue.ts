// The queue of parse jobs on the writer's own thread: submitted in file order, their chunks handed
// back in the same order, one chunk parsed ahead so compression on the thread pool overlaps
// parsing. Large ingests parse on worker threads instead (parse-workers.ts); this one serves small
// ones, where starting a worker costs more than it saves, and runs wherever no worker can.

import type { EvidenceBlock } from '../store/store.js';
import { ChunkParser, type ChunkResult, type ParseJob } from './chunk-parser.js';
import type { ChunkQueue } from './parse-workers.js';

/**
 * Parses on this thread, one chunk ahead: while a chunk's blocks compress on the thread pool,
 * the next chunk (of this file or the next submitted one) is already being parsed.
 */
export class ParseQueue implements ChunkQueue {
  private readonly queue: ParseJob[] = [];
  private current: { job: ParseJob; parser: ChunkParser } | null = null;
  private readonly chainStates = new Map<string, unknown>();
  private ahead: { chunk: ChunkResult; blocks: Promise<EvidenceBlock[]> } | null = null;

  /** Queue a job; jobs run in submission order. */
  submit(job: ParseJob): void {
    this.queue.push(job);
  }

  private parseNext(): { chunk: ChunkResult; blocks: Promise<EvidenceBlock[]> } | null {
    if (!this.current) {
      const job = this.queue.shift();
      if (!job) return null;
      const group = job.source.chainGroup ? `${job.source.root}\0${job.source.chainGroup}` : null;
      const chainState = job.chainFromQueue && group ? this.chainStates.get(group) : job.chainState;
      this.current = { job, parser: new ChunkParser(job, chainState) };
    }
    const parsed = this.current.parser.parse();
    if (!parsed.chunk.more) {
      const src = this.current.job.source;
      if (src.chainGroup) this.chainStates.set(`${src.root}\0${src.chainGroup}`, parsed.chunk.parserState);
      this.current = null;
    }
    return parsed;
  }

  /** The next chunk of `jobId`, which must be the oldest unfinished job. */
  async next(jobId: number): Promise<ChunkResult> {
    const cur = this.ahead ?? this.parseNext();
    this.ahead = null;
    if (!cur || cur.chunk.jobId !== jobId) throw new Error(`parse job ${jobId} was not submitted next`);
    this.ahead = this.parseNext();
    // Keep a failed compression ahead from surfacing as an unhandled rejection before it is awaited.
    this.ahead?.blocks.catch(() => undefined);
    cur.chunk.blocks = await cur.blocks;
    return cur.chunk;
  }

  async close(): Promise<void> {
    if (this.ahead) await this.ahead.blocks.catch(() => undefined);
    this.ahead = null;
  }
}
