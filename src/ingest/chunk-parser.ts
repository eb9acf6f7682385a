// Parses a JSONL file a chunk (~2 MiB of input) at a time into batches ready for the store:
// evidence blocks (hashed, compressed), events, defects and facts, with the position and parser
// state to resume from, for the parse queue (parse-queue.ts) to hand to the writer.

import type { Defect, Format, SessionFacts } from '../core/model.js';
import type { LineParser, SourceFile } from '../formats/importer.js';
import { importerFor } from '../formats/registry.js';
import type { EvidenceBlock } from '../store/store.js';
import { countsForDuplicates, DuplicateWindow } from './duplicate-lines.js';
import { EvidenceBuilder } from './evidence.js';
import { readLines, type RawLine } from './line-reader.js';
import { parseJsonlFile, type FileSink, type LineStatus, type ParsedEvent } from './parse-file.js';

/**
 * Bytes of input per batch. Measured on a 300 MB plane root: 4 MiB batches peaked at 372 MB RSS
 * (two batches are alive while one is parsed ahead), 2 MiB at 235 MB, at the same speed.
 */
export const BATCH_BYTES = 2 * 1024 * 1024;

/** What to parse: one file from a resume position up to the size seen when planning. */
export interface ParseJob {
  jobId: number;
  fileId: number;
  source: SourceFile;
  format: Format;
  resumeState?: unknown;
  chainState?: unknown;
  /** Take the chain state from the previous file of the group that the queue parsed. */
  chainFromQueue?: boolean;
  offset: number;
  lineNumber: number;
  lastTsKey: string | null;
  end: number;
  /** The lines already stored for this generation (when resuming), so duplicates of them are found too. */
  duplicates?: DuplicateWindow;
}

export interface ChunkResult {
  jobId: number;
  fileId: number;
  blocks: EvidenceBlock[];
  events: ParsedEvent[];
  defects: Defect[];
  facts: SessionFacts[];
  offset: number;
  nextLine: number;
  lastTsKey: string | null;
  /** False on the file's last chunk. */
  more: boolean;
  bytesRead: number;
  parserState: unknown;
}

class BatchSink implements FileSink {
  readonly evidence: EvidenceBuilder;
  events: ParsedEvent[] = [];
  defects: Defect[] = [];
  factsList: SessionFacts[] = [];

  constructor(
    private readonly source: SourceFile,
    private readonly duplicates: DuplicateWindow,
    expectedBytes: number,
  ) {
    this.evidence = new EvidenceBuilder(expectedBytes);
  }

  line(lineNumber: number, offset: number, bytes: Buffer, status: LineStatus): void {
    const hash = this.evidence.add(lineNumber, offset, bytes, status);
    if (!countsForDuplicates(status)) return;
    const first = this.duplicates.note(hash, lineNumber);
    if (first !== undefined) {
      this.defects.push({
        severity: 'info',
        kind: 'duplicate_line',
        file: this.source.relPath,
        line: lineNumber,
        message: `same bytes as line ${first} (kept; a writer repeated itself or a file was concatenated)`,
        sessionId: this.source.sessionId ?? null,
      });
    }
  }
  event(e: ParsedEvent): void {
    this.events.push(e);
  }
  defect(d: Defect): void {
    this.defects.push(d);
  }
  facts(f: SessionFacts): void {
    this.factsList.push(f);
  }
}

export class ChunkParser {
  private readonly parser: LineParser | null;
  private readonly sink: BatchSink;
  private offset: number;
  private lineNumber: number;
  private lastTsKey: string | null;
  /**
   * One reader for the whole file: a reader per chunk allocated a 4 MiB buffer and read 4 MiB
   * for each 2 MiB chunk. It opens the file for each read, so a parser dropped mid-file holds
   * no descriptor.
   */
  private lines: Generator<RawLine> | null = null;

  constructor(
    private readonly job: ParseJob,
    chainState: unknown,
  ) {
    const importer = importerFor(job.format);
    this.parser = job.source.evidenceOnly
      ? null
      : importer.createParser(job.source, {
          resumeState: job.resumeState,
          chainState: job.resumeState === undefined ? chainState : undefined,
        });
    this.sink = new BatchSink(job.source, job.duplicates ?? new DuplicateWindow(), job.end - job.offset);
    this.offset = job.offset;
    this.lineNumber = job.lineNumber;
    this.lastTsKey = job.lastTsKey;
  }

  /**
   * Parse the next chunk synchronously; its evidence blocks are still compressing on the
   * thread pool (`blocks`). Call until `more` is false.
   */
  parse(): { chunk: ChunkResult; blocks: Promise<EvidenceBlock[]> } {
    this.lines ??= readLines(this.job.source.path, { offset: this.offset, lineNumber: this.lineNumber, end: this.job.end, reopen: true });
    const res = parseJsonlFile(this.job.source, this.parser, this.sink, {
      offset: this.offset,
      lineNumber: this.lineNumber,
      lastTsKey: this.lastTsKey,
      end: this.job.end,
      stopAfterBytes: BATCH_BYTES,
      lines: this.lines,
    });
    if (!res.more) {
      this.lines.return(undefined);
      this.lines = null;
    }
    this.offset = res.offset;
    this.lineNumber = res.lineNumber;
    this.lastTsKey = res.lastTsKey;
    const sink = this.sink;
    const blocks = sink.evidence.take();
    const chunk: ChunkResult = {
      jobId: this.job.jobId,
      fileId: this.job.fileId,
      blocks: [],
      events: sink.events,
      defects: sink.defects,
      facts: sink.factsList,
      offset: res.offset,
      nextLine: res.lineNumber,
      lastTsKey: res.lastTsKey,
      more: res.more,
      bytesRead: res.bytesRead,
      parserState: this.parser?.snapshot(),
    };
    sink.events = [];
    sink.defects = [];
    sink.factsList = [];
    return { chunk, blocks };
  }
}
