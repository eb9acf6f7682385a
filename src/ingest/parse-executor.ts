// Where parse jobs run, behind one interface so the pipeline does not care: jobs are queued in
// file order and their chunks come back in the same order.

import { ChunkParser, type ChunkResult, type ParseJob } from './chunk-parser.js';

export interface ParseExecutor {
  /** Queue a job; jobs run in submission order. */
  submit(job: ParseJob): void;
  /** The next chunk of `jobId` (which must be the oldest unfinished job). */
  next(jobId: number): Promise<ChunkResult>;
  close(): Promise<void>;
}

export class InProcessParser implements ParseExecutor {
  private readonly queue: ParseJob[] = [];
  private current: { job: ParseJob; parser: ChunkParser } | null = null;
  private readonly chainStates = new Map<string, unknown>();

  submit(job: ParseJob): void {
    this.queue.push(job);
  }

  async next(jobId: number): Promise<ChunkResult> {
    if (!this.current) {
      const job = this.queue.shift();
      if (!job || job.jobId !== jobId) throw new Error(`parse job ${jobId} was not submitted next`);
      const group = job.source.chainGroup ? `${job.source.root}\0${job.source.chainGroup}` : null;
      const chainState = job.chainFromExecutor && group ? this.chainStates.get(group) : job.chainState;
      this.current = { job, parser: new ChunkParser(job, chainState) };
    }
    const chunk = await this.current.parser.next();
    if (!chunk.more) {
      const src = this.current.job.source;
      if (src.chainGroup) this.chainStates.set(`${src.root}\0${src.chainGroup}`, chunk.parserState);
      this.current = null;
    }
    return chunk;
  }

  async close(): Promise<void> {}
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
