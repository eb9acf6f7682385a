// Ingesting one source file incrementally. Planning (on the writer's thread) decides: skip it
// when unchanged, resume after the last committed line when it grew, start a new generation
// (keeping the old evidence) when any committed line changed, keep it as evidence only when it
// copies another root's file (duplicate-source.ts). Running commits the parsed chunks, each
// batch atomically with the file's new checkpoint.

import { createHash } from 'node:crypto';
import { closeSync, openSync, readFileSync, readSync, statSync, type Stats } from 'node:fs';
import { badLineCount } from '../core/bad-lines.js';
import type { Defect, SessionFacts } from '../core/model.js';
import { entryProblemNote, ledgerEntryProblem } from '../formats/entry-problems.js';
import type { Importer, SourceFile } from '../formats/importer.js';
import type { EvidenceBlock, FileCheckpoint, FileRecord, IngestWriter } from '../store/store.js';
import type { ChunkResult, ParseJob } from './chunk-parser.js';
import { EvidenceBuilder } from './evidence.js';
import { lineHash } from '../core/line-hash.js';
import type { DuplicateWindow } from './duplicate-lines.js';
import { duplicateSourceNote, findCopiedSource } from './duplicate-source.js';
import { ParseQueue } from './parse-queue.js';
import type { ChunkQueue } from './parse-workers.js';
import { releaseBytes } from './held-bytes.js';
import { statRows } from './sqlite-rows.js';
import { checkStoredPrefix } from './stored-prefix.js';
import { emptyFile, parseDocumentFile, type ParsedEvent } from './parse-file.js';

export interface FileOutcome {
  unchanged: boolean;
  rewritten: boolean;
  events: number;
  lines: number;
  badLines: number;
  bytes: number;
  defects: number;
}

/** How a chain group continues: from a state stored earlier, or from the file the queue just parsed. */
export type ChainLink = { fromQueue: true } | { fromQueue: false; state: unknown };

export type FilePlan =
  | { kind: 'skip'; outcome: FileOutcome }
  | {
      kind: 'document';
      record: FileRecord;
      source: SourceFile;
      importer: Importer;
      stat: SourceStat;
      bytes: Buffer;
      contentHash: string;
      outcome: FileOutcome;
      /** Set by prepareDocument: the document parsed, its evidence compressing. */
      prepared?: Promise<ParsedDocument>;
    }
  | { kind: 'parse'; record: FileRecord; source: SourceFile; stat: SourceStat; job: ParseJob; clearFromLine?: number; first: { defects: Defect[]; facts: SessionFacts[] }; outcome: FileOutcome };

/** What planning needs of a source's stat: a file's, or a database row source's (sqlite-rows.ts). */
type SourceStat = Pick<Stats, 'size' | 'mtimeMs'>;

let nextJobId = 1;

function emptyOutcome(): FileOutcome {
  return { unchanged: false, rewritten: false, events: 0, lines: 0, badLines: 0, bytes: 0, defects: 0 };
}

/** The first line of a file (up to 1 MiB), or null when it has none yet. */
function firstLine(path: string): Buffer | null {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(1024 * 1024);
    const n = readSync(fd, buf, 0, buf.length, 0);
    const nl = buf.subarray(0, n).indexOf(10);
    return nl === -1 ? null : buf.subarray(0, nl);
  } finally {
    closeSync(fd);
  }
}

/**
 * A new file in a chain group whose first line is the first line of a live file of the group,
 * while that file's own path no longer starts with it: the writer renamed (rotated) it here.
 */
async function findRotatedFrom(writer: IngestWriter, source: SourceFile, rootId: number): Promise<FileRecord | null> {
  const line = firstLine(source.path);
  if (!line) return null;
  const hash = lineHash(line);
  for (const candidate of await writer.findByFirstLine(rootId, source.chainGroup!, hash)) {
    if (candidate.path === source.path) continue;
    let still: Buffer | null = null;
    try {
      still = firstLine(candidate.path);
    } catch {
      still = null; // the old path is gone: renamed away
    }
    if (!still || !lineHash(still).equals(hash)) return candidate;
  }
  return null;
}

/**
 * Decide what to do with one file. `chain` says where a chain group continues from; the plan
 * updates it for the next file of the group.
 */
export async function planFile(
  writer: IngestWriter,
  importer: Importer,
  source: SourceFile,
  rootId: number,
  chain: Map<string, ChainLink>,
): Promise<FilePlan> {
  // Looked up now, not earlier: a file planned before this one may have taken this path's
  // record with it (rotation).
  let current = await writer.currentFile(source.path);
  const outcome = emptyOutcome();
  const group = source.chainGroup ? `${source.root}\0${source.chainGroup}` : null;
  const skip = (): FilePlan => {
    if (group) chain.set(group, { fromQueue: false, state: current?.parserState });
    outcome.unchanged = true;
    return { kind: 'skip', outcome };
  };
  let stat: SourceStat;
  try {
    if (source.rows) stat = statRows({ ...source, rows: source.rows }, current);
    else {
      const fileStat = statSync(source.path);
      if (!fileStat.isFile()) throw new Error('not a regular file');
      closeSync(openSync(source.path, 'r'));
      stat = fileStat;
    }
  } catch (err) {
    // A dangling symlink or a FIFO named like a ledger: the same warning in every format.
    const problem = source.rows ? null : await ledgerEntryProblem(source.path);
    if (problem) {
      outcome.defects = await writer.addDefects(rootId, [entryProblemNote(problem, source.relPath, source.sessionId ?? null)]);
      return skip();
    }
    outcome.defects = await writer.addDefects(rootId, [
      {
        severity: 'error',
        kind: 'unreadable_file',
        file: source.relPath,
        line: null,
        message: `cannot read the file (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); its stored evidence, if any, is kept`,
        sessionId: source.sessionId ?? null,
      },
    ]);
    return skip();
  }
  if (!current && source.chainGroup && source.kind === 'jsonl') {
    const moved = await findRotatedFrom(writer, source, rootId);
    if (moved) {
      current = await writer.renameFile(moved.id, source.path, source.relPath);
      await writer.addDefects(rootId, [
        {
          severity: 'info',
          kind: 'rotated',
          file: source.relPath,
          line: null,
          message: `rotated from ${moved.relPath}: its ${moved.lines} stored lines and their events follow it here`,
          sessionId: null,
        },
      ]);
    }
  }
  if (current && current.size === stat.size && current.mtimeMs === stat.mtimeMs) return skip();

  const newFile = (generation: number, as: SourceFile = source) =>
    writer.createFile(
      {
        rootId,
        path: as.path,
        relPath: as.relPath,
        format: importer.format,
        ledger: as.ledger,
        ledgerRank: as.ledgerRank,
        sessionId: as.sessionId ?? null,
        kind: as.kind,
        evidenceOnly: as.evidenceOnly ?? false,
        chainGroup: as.chainGroup ?? null,
      },
      generation,
    );

  if (source.kind === 'document') {
    const bytes = readFileSync(source.path);
    const contentHash = createHash('sha256').update(bytes).digest('hex');
    if (current && current.contentHash === contentHash) {
      await writer.touchFile(current.id, { size: stat.size, mtimeMs: stat.mtimeMs });
      return skip();
    }
    // A crash between planning a document and writing it leaves its record empty: fill that one
    // in rather than keeping an empty generation behind a new one.
    if (current && current.contentHash === null && current.lines === 0) {
      return { kind: 'document', record: current, source, importer, stat, bytes, contentHash, outcome };
    }
    // A document is rewritten in place by its writer on every save: a new version, not a defect.
    if (current) await writer.supersedeFile(current.id, 'new_version');
    const record = await newFile((current?.generation ?? 0) + 1);
    return { kind: 'document', record, source, importer, stat, bytes, contentHash, outcome };
  }

  const defects: Defect[] = [];
  // A file kept as a copy of another root's (duplicate-source.ts) stays evidence only, of no session.
  let readAs = current?.evidenceOnly && !source.evidenceOnly ? asDuplicate(source) : source;
  let record = current;
  let resumeState: unknown;
  let clearFromLine: number | undefined;
  let duplicates: DuplicateWindow | undefined;
  if (record) {
    const check = await checkStoredPrefix(writer, record, stat.size);
    const why = check.rewritten;
    if (why) {
      await writer.supersedeFile(record.id, 'rewritten');
      outcome.rewritten = true;
      record = await newFile(record.generation + 1, readAs);
      // Database rows are updated in place by their owner (a message while it streams): expected, so info.
      defects.push({
        severity: source.rows ? 'info' : 'warning',
        kind: source.rows ? 'updated_rows' : 'rewritten_source',
        file: source.relPath,
        line: null,
        message: source.rows
          ? `rows changed since the last ingest (${why}); they were re-read and the earlier rows are kept as generation ${record.generation - 1}`
          : `source was rewritten since the last ingest (${why}); it was re-read and the earlier lines are kept as generation ${record.generation - 1}`,
        sessionId: source.sessionId ?? null,
      });
    } else {
      resumeState = record.parserState;
      clearFromLine = record.nextLine;
      duplicates = check.duplicates;
    }
  } else {
    const copy = source.evidenceOnly ? null : await findCopiedSource(writer, source, rootId, importer.format);
    if (copy && !copy.newIsAhead) {
      readAs = asDuplicate(source);
      defects.push(duplicateSourceNote({ relPath: source.relPath, sessionId: source.sessionId ?? null }, copy.other, copy.sharedBytes));
    } else if (copy) {
      // The file read so far was behind this one: this one counts, that one becomes the copy.
      await writer.markDuplicate(copy.other.id);
      await writer.addDefects(copy.other.rootId, [
        duplicateSourceNote({ relPath: copy.other.relPath, sessionId: copy.other.sessionId }, { root: source.root, relPath: source.relPath }, copy.sharedBytes),
      ]);
    }
    record = await newFile(1, readAs);
  }
  if (stat.size === 0) {
    defects.push(emptyFile(readAs));
  }
  const link = group ? chain.get(group) : undefined;
  const job: ParseJob = {
    jobId: nextJobId++,
    fileId: record.id,
    source: readAs,
    format: importer.format,
    resumeState,
    chainState: link && !link.fromQueue ? link.state : undefined,
    chainFromQueue: link?.fromQueue ?? false,
    offset: record.offset,
    lineNumber: record.nextLine,
    lastTsKey: record.lastTsKey,
    end: stat.size,
    duplicates,
  };
  if (group) chain.set(group, { fromQueue: true });
  return { kind: 'parse', record, source: readAs, stat, job, clearFromLine, first: { defects, facts: readAs.facts ?? [] }, outcome };
}

/** How a duplicate source is read: its lines as evidence, no parser, no session, no layout facts. */
function asDuplicate(source: SourceFile): SourceFile {
  return { ...source, evidenceOnly: true, sessionId: undefined, facts: [] };
}

/** A document parsed, with its evidence blocks compressed. */
interface ParsedDocument {
  blocks: EvidenceBlock[];
  events: ParsedEvent[];
  defects: Defect[];
  facts: SessionFacts[];
  parserState: unknown;
}

/**
 * Parse a document plan now and start compressing its evidence on the thread pool, so that the
 * compression runs while the file before it is written: runPlan used to parse the document and
 * then await its compression with this thread idle (Gemini's JSON chats, Amplifier's
 * metadata.json). Parsing depends on the document's bytes alone; an error is kept for runPlan,
 * so it surfaces with this file, not with the one being written when it was prepared. A second
 * call does nothing.
 */
export function prepareDocument(plan: Extract<FilePlan, { kind: 'document' }>): void {
  if (plan.prepared) return;
  let prepared: Promise<ParsedDocument>;
  try {
    const { source } = plan;
    const evidence = new EvidenceBuilder();
    const events: ParsedEvent[] = [];
    const defects: Defect[] = [];
    const facts: SessionFacts[] = [];
    const parser = source.evidenceOnly ? null : plan.importer.createParser(source, {});
    parseDocumentFile(source, parser, {
      line: (n, o, b, s) => evidence.add(n, o, b, s),
      event: (e) => events.push(e),
      defect: (d) => defects.push(d),
      facts: (f) => facts.push(f),
    }, plan.bytes);
    const parserState = parser?.snapshot();
    prepared = evidence.take().then((blocks) => ({ blocks, events, defects, facts, parserState }));
  } catch (err) {
    prepared = Promise.reject(err);
  }
  prepared.catch(() => undefined); // awaited by runPlan; not an unhandled rejection meanwhile
  plan.prepared = prepared;
}

/** Carry out a plan: commit the document, or every chunk the queue parses for the job. */
export async function runPlan(
  writer: IngestWriter,
  plan: FilePlan,
  queue: ChunkQueue,
  onBytes?: (n: number) => void,
): Promise<FileOutcome> {
  if (plan.kind === 'skip') return plan.outcome;
  const { outcome, source } = plan;
  if (plan.kind === 'document') {
    prepareDocument(plan);
    const doc = await plan.prepared!;
    await commit(writer, plan.record.id, source, outcome, doc.blocks, doc.events, doc.defects, doc.facts, source.facts ?? [], {
      size: plan.stat.size,
      mtimeMs: plan.stat.mtimeMs,
      offset: plan.bytes.length,
      nextLine: 0,
      lastTsKey: null,
      parserState: doc.parserState,
      contentHash: plan.contentHash,
    });
    outcome.bytes = plan.bytes.length;
    onBytes?.(plan.bytes.length);
    return outcome;
  }
  let first = true;
  for (;;) {
    const chunk: ChunkResult = await queue.next(plan.job.jobId);
    outcome.bytes += chunk.bytesRead;
    onBytes?.(chunk.bytesRead);
    const last = !chunk.more;
    // Intermediate batches record size -1: a crash mid-file then reads as "changed" and resumes here.
    await commit(
      writer,
      plan.record.id,
      source,
      outcome,
      chunk.blocks,
      chunk.events,
      first ? [...plan.first.defects, ...chunk.defects] : chunk.defects,
      chunk.facts,
      first ? plan.first.facts : [],
      {
        size: last ? plan.stat.size : -1,
        mtimeMs: last ? plan.stat.mtimeMs : -1,
        offset: chunk.offset,
        nextLine: chunk.nextLine,
        lastTsKey: chunk.lastTsKey,
        parserState: chunk.parserState,
      },
      first ? plan.clearFromLine : undefined,
    );
    first = false;
    if (last) {
      if (source.rows) releaseBytes(source.path);
      return outcome;
    }
  }
}

async function commit(
  writer: IngestWriter,
  fileId: number,
  source: SourceFile,
  outcome: FileOutcome,
  blocks: EvidenceBlock[],
  events: ParsedEvent[],
  defects: Defect[],
  facts: SessionFacts[],
  layoutFacts: SessionFacts[],
  checkpoint: FileCheckpoint,
  clearFromLine?: number,
): Promise<void> {
  await writer.writeBatch({
    fileId,
    clearFromLine,
    blocks,
    events,
    defects,
    facts,
    layoutFacts,
    touchSessions: source.sessionId ? [source.sessionId] : [],
    checkpoint,
  });
  outcome.events += events.length;
  outcome.lines += blocks.reduce((n, b) => n + b.lines.length, 0);
  outcome.badLines += badLineCount(defects);
  outcome.defects += defects.length;
}

/**
 * Ingest one file in-process (no worker): plan and run. For embedding and tests; the
 * pipeline (ingest.ts) plans a few files ahead and shares one parse queue.
 */
export async function ingestFile(
  writer: IngestWriter,
  importer: Importer,
  source: SourceFile,
  rootId: number,
  options: { chain?: Map<string, ChainLink>; onBytes?: (n: number) => void } = {},
): Promise<FileOutcome> {
  const queue = new ParseQueue();
  const plan = await planFile(writer, importer, source, rootId, options.chain ?? new Map());
  if (plan.kind === 'parse') queue.submit(plan.job);
  return runPlan(writer, plan, queue, options.onBytes);
}
