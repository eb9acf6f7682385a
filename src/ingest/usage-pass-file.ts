// One source file read for the usage pass (usage-pass.ts): the lines the format's usageLines hook
// keeps go through the parser it names (else the format's own), as parse-file.ts hands lines to it (blank,
// torn, non-object, huge and incomplete lines alike), but only what can change a usage report is
// kept: the events that carry usage, the sessions events name, and the facts. Nothing else is
// built — no evidence, summaries or text — which is where a full parse spends its time.
//
// The result is plain data, so a worker thread can read a file and hand it back (usage-pass-worker.ts).

import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { ParsedEvent, StoredEvent } from '../core/events.js';
import { HUGE_LINE_BYTES, type SessionFacts } from '../core/model.js';
import { isPlausibleKey, toTimeKey } from '../core/time.js';
import type { EventInput, Importer, LineContext, LineParser, SourceFile, UsageLines } from '../formats/importer.js';
import { parseDocumentFile, recoverTail } from './parse-file.js';

/** The head of a huge line a parser sees: the size parse-file.ts gives hugeLine (HUGE_HEAD_BYTES there). */
const HUGE_HEAD_BYTES = 64 * 1024;

/** A usage-carrying event as the store would hold it; its seq is given when the root's files are put together (usage-pass-sessions.ts). */
export type UsageEvent = StoredEvent;

export interface FileUsage {
  /** The file's layout facts (merged under what the parsers say, as the store merges them). */
  layoutFacts: SessionFacts[];
  /** Facts the parser sent, in order. */
  facts: SessionFacts[];
  /** Events with usage, in the order the parser emitted them. */
  events: UsageEvent[];
  /** Every session some event of the file named (a session the store would hold). */
  sessions: string[];
  /** Where a usage event has no usable time (an ingest would lend it the line before's), if anywhere. */
  untimed: string | null;
  /** The parser's snapshot, for the next file of a chain group. */
  chainState: unknown;
}

/** Grows as larger files come; one per thread, so reading allocates (and collects) almost nothing. */
let readBuffer = Buffer.alloc(4 * 1024 * 1024);

/** The file's bytes as they are now (a view into the shared buffer: valid until the next read). */
function readWhole(path: string): Buffer {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size > readBuffer.length) readBuffer = Buffer.alloc(Math.max(size, readBuffer.length * 2));
    let n = 0;
    while (n < size) {
      const got = readSync(fd, readBuffer, n, size - n, n);
      if (got === 0) break;
      n += got;
    }
    return readBuffer.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

function isWhitespace(bytes: Buffer): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b !== 0x20 && b !== 0x09 && b !== 0x0d && b !== 0x0b && b !== 0x0c) return false;
  }
  return true;
}

/** What one file's parse collects; the line contexts feed it. */
class Collector {
  readonly facts: SessionFacts[] = [];
  readonly events: UsageEvent[] = [];
  readonly sessions = new Set<string>();
  untimed: string | null = null;

  constructor(private readonly file: SourceFile) {}

  /** An event as parse-file.ts's context would store it; only those with usage are kept. */
  event(e: EventInput, lineNumber: number): void {
    const sessionId = e.sessionId ?? this.file.sessionId ?? '';
    if (sessionId === '') return; // a ledger entry of no session: never a session's call
    this.sessions.add(sessionId);
    if (!e.usage) return;
    const key = e.timestamp != null && e.timestamp !== '' ? toTimeKey(e.timestamp) : null;
    if (key === null || !isPlausibleKey(key)) return this.noTime(lineNumber);
    this.events.push({
      seq: 0,
      fileId: 0,
      sessionId,
      ledger: this.file.ledger,
      file: this.file.relPath,
      lineNumber,
      part: e.part ?? 0,
      tsKey: key,
      type: e.type,
      kind: e.kind,
      actor: e.actor ?? null,
      turn: e.turn ?? null,
      ids: e.ids ?? {},
      tiebreak: e.tiebreak ?? '',
      ledgerRank: this.file.ledgerRank,
      usage: e.usage,
      toolName: e.toolName ?? null,
      toolStatus: e.toolStatus ?? null,
      // Summaries and text never reach a usage report: not built.
      summary: '',
      attrs: e.attrs ?? {},
    });
  }

  /** An event parse-file.ts already made (a document's). */
  parsed(e: ParsedEvent): void {
    if (e.sessionId === '') return;
    this.sessions.add(e.sessionId);
    if (!e.usage) return;
    if (e.tsMissing) return this.noTime(e.lineNumber);
    const { tsMissing: _m, text: _t, ...stored } = e;
    this.events.push({ ...stored, seq: 0, fileId: 0 });
  }

  private noTime(lineNumber: number): void {
    this.untimed ??= `${this.file.relPath} line ${lineNumber}`;
  }

  context(lineNumber: number, byteOffset: number, byteLength: number, raw: string): LineContext {
    return {
      file: this.file,
      lineNumber,
      byteOffset,
      byteLength,
      raw,
      emit: (e) => this.event(e, lineNumber),
      defect: () => {},
      facts: (f) => this.facts.push(f),
    };
  }
}

/** Parse the kept lines of a JSONL file as parseJsonlFile would hand them to `parser`. */
function readJsonl(file: SourceFile, parser: LineParser, lines: UsageLines | null, into: Collector): void {
  let bytes: Buffer;
  try {
    bytes = readWhole(file.path);
  } catch {
    // A dangling link, a link loop, a file gone or unreadable: the ingest reads nothing from it
    // either (ingest-file.ts: an unreadable_file or entry-problem defect), so neither does the pass.
    return;
  }
  const scan = lines?.scan?.(bytes);
  let start = 0;
  let lineNumber = 1;
  while (start < bytes.length) {
    if (scan) {
      // Lines before the next mark are not kept: only counted.
      const mark = scan.next(start);
      if (mark === -1) break;
      for (let nl = bytes.indexOf(10, start); nl !== -1 && nl < mark; nl = bytes.indexOf(10, start)) {
        start = nl + 1;
        lineNumber++;
      }
    }
    const nl = bytes.indexOf(10, start);
    if (nl === -1) break; // an incomplete last line: held back, never parsed
    const line = bytes.subarray(start, nl);
    const offset = start;
    const number = lineNumber;
    start = nl + 1;
    lineNumber++;
    if (line.length === 0 || isWhitespace(line)) continue;
    if (scan ? !scan.keep(offset, nl) : lines !== null && !lines.keep(line)) continue;
    if (line.length > HUGE_LINE_BYTES) {
      if (parser.hugeLine) {
        const head = line.subarray(0, HUGE_HEAD_BYTES).toString('utf8');
        parser.hugeLine(head, into.context(number, offset, line.length, head));
      }
      continue;
    }
    const text = line.toString('utf8');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      // A torn record followed by a complete one on the same line: the complete one is read.
      const tail = recoverTail(text);
      if (tail) parser.line(tail.obj, into.context(number, offset, line.length, text.slice(tail.at)));
      continue;
    }
    // Invalid UTF-8 is parsed with its replacement characters, as parse-file.ts parses it.
    if (value === null || typeof value !== 'object' || Array.isArray(value)) continue;
    parser.line(value as Record<string, unknown>, into.context(number, offset, line.length, text));
  }
}

/**
 * Read one file for the usage pass with `importer`'s parser, keeping only usage.
 *
 * @example const u = readFileUsage(claudeCode, file, undefined); u.events.filter((e) => e.usage)
 */
export function readFileUsage(importer: Importer, file: SourceFile, chainState: unknown): FileUsage {
  const into = new Collector(file);
  const lines = file.evidenceOnly ? null : (importer.usageLines?.(file, { chainState }) ?? null);
  const parser = file.evidenceOnly ? null : (lines?.parser ?? importer.createParser(file, { chainState }));
  if (parser) {
    if (file.kind === 'document') {
      parseDocumentFile(file, parser, { line: () => {}, event: (e) => into.parsed(e), defect: () => {}, facts: (f) => into.facts.push(f) });
    } else {
      readJsonl(file, parser, lines, into);
    }
  }
  return {
    layoutFacts: file.facts ?? [],
    facts: into.facts,
    events: into.events,
    sessions: [...into.sessions],
    untimed: into.untimed,
    chainState: parser && file.chainGroup ? parser.snapshot() : undefined,
  };
}

/**
 * Read the files at `indexes` of `files` (a chain group's in order, each continuing from the one
 * before; any other file alone), as readFileUsage reads each.
 *
 * @example const [usage] = readUsageUnit(claudeCode, files, [3])
 */
export function readUsageUnit(importer: Importer, files: readonly SourceFile[], indexes: readonly number[]): FileUsage[] {
  const chains = new Map<string, unknown>();
  return indexes.map((i) => {
    const file = files[i]!;
    const usage = readFileUsage(importer, file, file.chainGroup ? chains.get(file.chainGroup) : undefined);
    if (file.chainGroup) chains.set(file.chainGroup, usage.chainState);
    return usage;
  });
}
