// Where parse jobs run, behind one interface so the pipeline does not care: jobs are queued in
// file order and their chunks come back in the same order.

import type { EvidenceBlock } from '../store/store.js';
import { ChunkParser, type ChunkResult, type ParseJob } from './chunk-parser.js';

export interface ParseExecutor {
  /** Queue a job; jobs run in submission order. */
  submit(job: ParseJob): void;
  /** The next chunk of `jobId` (which must be the oldest unfinished job). */
  next(jobId: number): Promise<ChunkResult>;
  close(): Promise<void>;
}

/**
 * Parses on this thread, one chunk ahead: while a chunk's blocks compress on the thread pool,
 * the next chunk (of this file or the next submitted one) is already being parsed.
 */
export class InProcessParser implements ParseExecutor {
  private readonly queue: ParseJob[] = [];
  private current: { job: ParseJob; parser: ChunkParser } | null = null;
  private readonly chainStates = new Map<string, unknown>();
  private ahead: { chunk: ChunkResult; blocks: Promise<EvidenceBlock[]> } | null = null;

  submit(job: ParseJob): void {
    this.queue.push(job);
  }

  private parseNext(): { chunk: ChunkResult; blocks: Promise<EvidenceBlock[]> } | null {
    if (!this.current) {
      const job = this.queue.shift();
      if (!job) return null;
      const group = job.source.chainGroup ? `${job.source.root}\0${job.source.chainGroup}` : null;
      const chainState = job.chainFromExecutor && group ? this.chainStates.get(group) : job.chainState;
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

/**
 * The executor the pipeline uses. Parsing runs on this thread; block compression runs on
 * libuv's pool (evidence.ts), which already puts the second core to work. Worker threads
 * (one or two, each taking whole files) were measured here and gave no gain on a 2-core
 * machine while adding 50–150 MB of RSS, so the seam stays but the default is in-process.
 */
export function createParseExecutor(): ParseExecutor {
  return new InProcessParser();
}
