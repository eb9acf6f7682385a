// Ingesting one source file incrementally: skip it when unchanged, resume after the last committed
// line when it grew, start a new generation (keeping the old evidence) when it was rewritten.

import { createHash } from 'node:crypto';
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import type { Defect, SessionFacts } from '../core/model.js';
import type { Importer, LineParser, SourceFile } from '../importers/importer.js';
import type { FileRecord, IngestWriter } from '../store/store.js';
import { EvidenceBuilder, lineHash } from './evidence.js';
import { parseDocumentFile, parseJsonlFile, type FileSink, type ParsedEvent } from './parse-file.js';

/** Bytes of input per committed batch: small enough to bound memory, big enough to amortise commits. */
export const BATCH_BYTES = 4 * 1024 * 1024;

export interface FileOutcome {
  unchanged: boolean;
  rewritten: boolean;
  events: number;
  lines: number;
  badLines: number;
  bytes: number;
  defects: number;
  /** The parser's final snapshot (the next file of a chain group starts from it). */
  finalState: unknown;
}

interface Options {
  chainState?: unknown;
  onBytes?: (n: number) => void;
}

const DUPLICATE_WINDOW = 200_000;

class BatchSink {
  evidence = new EvidenceBuilder();
  events: ParsedEvent[] = [];
  defects: Defect[] = [];
  facts: SessionFacts[] = [];
  layoutFacts: SessionFacts[] = [];
  badLines = 0;
  /** Line hashes seen in this run, to report exact duplicate lines (bounded: memory must not grow with the file). */
  private seen = new Map<string, number>();
  constructor(private readonly source: SourceFile) {}
  line(lineNumber: number, offset: number, bytes: Buffer, status: 'ok' | 'blank' | 'bad' | 'incomplete'): void {
    const hash = this.evidence.add(lineNumber, offset, bytes, status);
    if (status === 'bad') this.badLines++;
    if (status === 'blank' || status === 'incomplete' || this.source.kind === 'document') return;
    const key = hash.toString('latin1');
    const first = this.seen.get(key);
    if (first !== undefined) {
      this.defects.push({
        severity: 'info',
        kind: 'duplicate_line',
        file: this.source.relPath,
        line: lineNumber,
        message: `same bytes as line ${first} (kept; a writer repeated itself or a file was concatenated)`,
        sessionId: this.source.sessionId ?? null,
      });
    } else if (this.seen.size < DUPLICATE_WINDOW) {
      this.seen.set(key, lineNumber);
    }
  }
  event(e: ParsedEvent): void {
    this.events.push(e);
  }
  defect(d: Defect): void {
    this.defects.push(d);
  }
  facts_(f: SessionFacts): void {
    this.facts.push(f);
  }
  reset(): void {
    this.events = [];
    this.defects = [];
    this.facts = [];
    this.layoutFacts = [];
    this.badLines = 0;
  }
}

function readAt(path: string, offset: number, length: number): Buffer | null {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(length);
    const n = readSync(fd, buf, 0, length, offset);
    return n === length ? buf : null;
  } finally {
    closeSync(fd);
  }
}

/** Did the bytes we already stored change? Checks the first and the last committed lines. */
async function wasRewritten(writer: IngestWriter, file: FileRecord, size: number): Promise<string | null> {
  if (size < file.offset) return `the file shrank from ${file.offset} to ${size} bytes`;
  for (const lineNumber of [1, file.nextLine - 1]) {
    if (lineNumber < 1) continue;
    const stored = await writer.lineAt(file.id, lineNumber);
    if (!stored) continue;
    const now = readAt(file.path, stored.offset, stored.length);
    if (!now || !lineHash(now).equals(stored.hash)) return `line ${lineNumber} no longer holds the bytes stored at the last ingest`;
  }
  return null;
}

export async function ingestFile(
  writer: IngestWriter,
  importer: Importer,
  source: SourceFile,
  rootId: number,
  current: FileRecord | null,
  options: Options,
): Promise<FileOutcome> {
  const outcome: FileOutcome = {
    unchanged: false,
    rewritten: false,
    events: 0,
    lines: 0,
    badLines: 0,
    bytes: 0,
    defects: 0,
    finalState: current?.parserState,
  };
  let stat;
  try {
    stat = statSync(source.path);
    if (!stat.isFile()) throw new Error('not a regular file');
    const fd = openSync(source.path, 'r'); // readable?
    closeSync(fd);
  } catch (err) {
    await writer.addDefects(rootId, [
      {
        severity: 'error',
        kind: 'unreadable_file',
        file: source.relPath,
        line: null,
        message: `cannot read the file (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); its stored evidence, if any, is kept`,
        sessionId: source.sessionId ?? null,
      },
    ]);
    outcome.unchanged = true;
    outcome.defects = 1;
    return outcome;
  }
  if (current && current.size === stat.size && current.mtimeMs === stat.mtimeMs) {
    outcome.unchanged = true;
    return outcome;
  }

  const newFile = async (generation: number) =>
    writer.createFile(
      {
        rootId,
        path: source.path,
        relPath: source.relPath,
        format: importer.format,
        ledger: source.ledger,
        ledgerRank: source.ledgerRank,
        sessionId: source.sessionId ?? null,
        kind: source.kind,
        evidenceOnly: source.evidenceOnly ?? false,
        chainGroup: source.chainGroup ?? null,
      },
      generation,
    );

  const sink = new BatchSink(source);
  const sinkFacts: FileSink = {
    line: (n, o, b, s) => sink.line(n, o, b, s),
    event: (e) => sink.event(e),
    defect: (d) => sink.defect(d),
    facts: (f) => sink.facts_(f),
  };

  if (source.kind === 'document') {
    const bytes = readFileSync(source.path);
    const contentHash = createHash('sha256').update(bytes).digest('hex');
    if (current && current.contentHash === contentHash) {
      await writer.touchFile(current.id, { size: stat.size, mtimeMs: stat.mtimeMs });
      outcome.unchanged = true;
      return outcome;
    }
    // A document is rewritten in place by its writer on every save: a new version, not a defect.
    if (current) await writer.supersedeFile(current.id, 'new_version');
    const record = await newFile((current?.generation ?? 0) + 1);
    const parser = source.evidenceOnly ? null : importer.createParser(source, {});
    sink.layoutFacts.push(...(source.facts ?? []));
    parseDocumentFile(source, parser, sinkFacts);
    await commit(writer, record.id, sink, outcome, {
      size: stat.size,
      mtimeMs: stat.mtimeMs,
      offset: bytes.length,
      nextLine: 0,
      lastTsKey: null,
      parserState: parser?.snapshot(),
      contentHash,
    }, source.sessionId);
    outcome.bytes = bytes.length;
    options.onBytes?.(bytes.length);
    return outcome;
  }

  let record = current;
  let resumeState: unknown;
  let clearFromLine: number | undefined;
  if (record) {
    const why = await wasRewritten(writer, record, stat.size);
    if (why) {
      await writer.supersedeFile(record.id, 'rewritten');
      outcome.rewritten = true;
      record = await newFile(record.generation + 1);
      sink.defect({
        severity: 'warning',
        kind: 'rewritten_source',
        file: source.relPath,
        line: null,
        message: `source was rewritten since the last ingest (${why}); it was re-read and the earlier lines are kept as generation ${record.generation - 1}`,
        sessionId: source.sessionId ?? null,
      });
    } else {
      resumeState = record.parserState;
      clearFromLine = record.nextLine;
    }
  } else {
    record = await newFile(1);
  }
  if (stat.size === 0) {
    sink.defect({ severity: 'info', kind: 'empty_file', file: source.relPath, line: null, message: 'file is empty', sessionId: source.sessionId ?? null });
  }
  sink.layoutFacts.push(...(source.facts ?? []));

  const parser: LineParser | null = source.evidenceOnly
    ? null
    : importer.createParser(source, { resumeState, chainState: resumeState === undefined ? options.chainState : undefined });
  let offset = record.offset;
  let nextLine = record.nextLine;
  let lastTsKey = record.lastTsKey;
  for (;;) {
    const res = parseJsonlFile(source, parser, sinkFacts, {
      offset,
      lineNumber: nextLine,
      lastTsKey,
      end: stat.size,
      stopAfterBytes: BATCH_BYTES,
    });
    offset = res.offset;
    nextLine = res.lineNumber;
    lastTsKey = res.lastTsKey;
    outcome.bytes += res.bytesRead;
    options.onBytes?.(res.bytesRead);
    const last = !res.more;
    // Intermediate batches record size -1: a crash mid-file then reads as "changed" and resumes here.
    await commit(writer, record.id, sink, outcome, {
      size: last ? stat.size : -1,
      mtimeMs: last ? stat.mtimeMs : -1,
      offset,
      nextLine,
      lastTsKey,
      parserState: parser?.snapshot(),
    }, source.sessionId, clearFromLine);
    clearFromLine = undefined;
    if (last) break;
  }
  outcome.finalState = parser?.snapshot();
  return outcome;
}

async function commit(
  writer: IngestWriter,
  fileId: number,
  sink: BatchSink,
  outcome: FileOutcome,
  checkpoint: Parameters<IngestWriter['writeBatch']>[0]['checkpoint'],
  sessionId: string | undefined,
  clearFromLine?: number,
): Promise<void> {
  const blocks = await sink.evidence.take();
  await writer.writeBatch({
    fileId,
    clearFromLine,
    blocks,
    events: sink.events,
    defects: sink.defects,
    facts: sink.facts,
    layoutFacts: sink.layoutFacts,
    touchSessions: sessionId ? [sessionId] : [],
    checkpoint,
  });
  outcome.events += sink.events.length;
  outcome.lines += blocks.reduce((n, b) => n + b.lines.length, 0);
  outcome.badLines += sink.badLines;
  outcome.defects += sink.defects.length;
  sink.reset();
}
