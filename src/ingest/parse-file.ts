// Drives one importer parser over one file from a checkpoint: generic bad-line handling here,
// meaning in the importer. Shared by the ingest pipeline and by importer tests.

import { isUtf8 } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { HUGE_LINE_BYTES, type Defect, type SessionFacts } from '../core/model.js';
import { isPlausibleKey, PLAUSIBLE_BEFORE_KEY, PLAUSIBLE_FROM_KEY, toTimeKey } from '../core/time.js';
import type { ParsedEvent } from '../core/events.js';
import type { EventInput, LineContext, LineParser, SourceFile } from '../formats/importer.js';
import { readLines, type RawLine } from './line-reader.js';

/** Lines above HUGE_LINE_BYTES (core/model.ts: the one rule) are not parsed whole: the parser gets a bounded head. */
export { HUGE_LINE_BYTES };
const HUGE_HEAD_BYTES = 64 * 1024;
// Summaries are stored once per event; 160 characters say what happened, the evidence says the rest.
const SUMMARY_CHARS = 160;
const TEXT_CHARS = 8 * 1024;

export type LineStatus = 'ok' | 'blank' | 'bad' | 'incomplete';

// ParsedEvent moved to src/core/events.ts (layers point down); re-exported here until the lead
// sweeps the importers of this path.
export type { ParsedEvent };

export interface FileSink {
  /** Every physical line, for evidence (bytes are a view: copy to keep). */
  line(lineNumber: number, offset: number, bytes: Buffer, status: LineStatus): void;
  event(event: ParsedEvent): void;
  defect(defect: Defect): void;
  facts(facts: SessionFacts): void;
  /** Called after each complete line with the position to resume from; the sink may commit here. */
  checkpoint?(next: { offset: number; lineNumber: number; lastTsKey: string | null }): void;
}

export interface ParseFileOptions {
  offset?: number;
  lineNumber?: number;
  end?: number;
  lastTsKey?: string | null;
  /** Stop after the first complete line that brings the bytes read to this budget (chunked ingest). */
  stopAfterBytes?: number;
  /**
   * Parse only the lines this keeps (a usage pass: see Importer.usageLines); the others are
   * handed to the sink as 'ok' lines, never decoded. Omitted: every line is parsed.
   */
  select?: (line: Buffer) => boolean;
  /**
   * The file's lines from `offset` on, from a reader the caller keeps across calls (chunked
   * ingest: the file is read once, not re-read and re-buffered for every chunk). The caller
   * closes it; omitted, the file is read from `offset` here.
   */
  lines?: Iterator<RawLine>;
}

export interface ParseFileResult {
  /** Offset after the last complete line (where the next ingest resumes). */
  offset: number;
  /** Line number of the next line to read. */
  lineNumber: number;
  lastTsKey: string | null;
  /** An incomplete last line was seen (and held back). */
  incompleteTail: boolean;
  /** Reading stopped at the byte budget; call again from `offset` for the rest. */
  more: boolean;
  linesRead: number;
  bytesRead: number;
}

function bound(text: string | undefined | null, max: number): string | null {
  if (text == null) return null;
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function oneLine(text: string | undefined | null): string {
  if (!text) return '';
  // Flatten only what can be kept: summaries of 100 KB tool results are common. A head of twice the
  // summary that still flattens to more than a summary starts with the same characters as any
  // longer head would, so most texts are flattened that far only.
  if (text.length > SUMMARY_CHARS * 2) {
    const short = text.slice(0, SUMMARY_CHARS * 2).replace(/\s+/g, ' ').trim();
    if (short.length > SUMMARY_CHARS) return `${short.slice(0, SUMMARY_CHARS - 1)}…`;
  }
  const head = text.length > SUMMARY_CHARS * 4 ? text.slice(0, SUMMARY_CHARS * 4) : text;
  const flat = head.replace(/\s+/g, ' ').trim();
  return bound(flat, SUMMARY_CHARS) ?? '';
}

/** Decode a line, reporting invalid UTF-8 (the text keeps replacement characters). */
function decode(bytes: Buffer): { text: string; invalid: boolean } {
  const text = bytes.toString('utf8');
  if (text.includes('\uFFFD') && !isUtf8(bytes)) return { text, invalid: true };
  return { text, invalid: false };
}

/**
 * The first complete JSON object that ends the line after a torn prefix, if any (a restarted
 * writer appends its record to a half-written one). Tools that show a line's content use it too.
 */
export function recoverTail(text: string): { at: number; obj: Record<string, unknown> } | null {
  let at = text.indexOf('{"', 1);
  for (let tries = 0; at !== -1 && tries < 64; tries++) {
    try {
      const value: unknown = JSON.parse(text.slice(at));
      if (value && typeof value === 'object' && !Array.isArray(value)) return { at, obj: value as Record<string, unknown> };
    } catch {
      /* not a record start */
    }
    at = text.indexOf('{"', at + 1);
  }
  return null;
}

function isWhitespace(bytes: Buffer): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b !== 0x20 && b !== 0x09 && b !== 0x0d && b !== 0x0b && b !== 0x0c) return false;
  }
  return true;
}

/**
 * Parse `file` from the given position with `parser`, feeding `sink`. Returns where to resume.
 * An incomplete last line is stored as evidence with status 'incomplete', reported, and not
 * parsed; the resume position stays at its start so that it is re-read once complete.
 */
export function parseJsonlFile(
  file: SourceFile,
  parser: LineParser | null,
  sink: FileSink,
  options: ParseFileOptions = {},
): ParseFileResult {
  let lastTsKey = options.lastTsKey ?? null;
  let resumeOffset = options.offset ?? 0;
  let resumeLine = options.lineNumber ?? 1;
  let incompleteTail = false;
  let linesRead = 0;
  let bytesRead = 0;

  const defect = (d: Omit<Defect, 'file'>) => sink.defect({ ...d, file: file.relPath });

  const lines = options.lines ?? readLines(file.path, { offset: resumeOffset, lineNumber: resumeLine, end: options.end });
  try {
    for (let next = lines.next(); !next.done; next = lines.next()) {
      const raw = next.value;
      const { lineNumber, offset, bytes } = raw;
      linesRead++;
      bytesRead += bytes.length + (raw.complete ? 1 : 0);
      if (!raw.complete) {
        incompleteTail = true;
        sink.line(lineNumber, offset, bytes, 'incomplete');
        defect({
          severity: 'warning',
          kind: 'incomplete_last_line',
          line: lineNumber,
          message: `last line has no newline yet (${bytes.length} bytes); held back until it is complete`,
          sessionId: file.sessionId ?? null,
        });
        break;
      }
      if (bytes.length === 0 || isWhitespace(bytes)) {
        sink.line(lineNumber, offset, bytes, 'blank');
        defect({
          severity: 'warning',
          kind: bytes.length === 0 ? 'blank_line' : 'whitespace_only_line',
          line: lineNumber,
          message: bytes.length === 0 ? 'empty line' : 'line holds only whitespace',
          sessionId: file.sessionId ?? null,
        });
      } else if (parser === null || (options.select !== undefined && !options.select(bytes))) {
        sink.line(lineNumber, offset, bytes, 'ok');
      } else if (bytes.length > HUGE_LINE_BYTES) {
        sink.line(lineNumber, offset, bytes, 'ok');
        defect({
          severity: 'info',
          kind: 'oversized_line',
          line: lineNumber,
          message: `line of ${bytes.length} bytes kept as evidence; only its head was parsed`,
          sessionId: file.sessionId ?? null,
        });
        if (parser.hugeLine) {
          const head = bytes.subarray(0, HUGE_HEAD_BYTES).toString('utf8');
          lastTsKey = runParser(file, parser, sink, lineNumber, offset, bytes.length, head, lastTsKey, (ctx) =>
            parser.hugeLine!(head, ctx),
          );
        }
      } else {
        const { text, invalid } = decode(bytes);
        let value: unknown;
        let parsed = true;
        try {
          value = JSON.parse(text);
        } catch (err) {
          parsed = false;
          sink.line(lineNumber, offset, bytes, 'bad');
          defect({
            severity: 'error',
            kind: invalid ? 'invalid_utf8' : 'malformed_json',
            line: lineNumber,
            message: invalid
              ? 'line is not valid UTF-8 and does not parse as JSON'
              : `line is not valid JSON (${(err as Error).message.slice(0, 120)})`,
            sessionId: file.sessionId ?? null,
          });
          // A writer killed mid-record and restarted appends its next record to the torn one:
          // recover that complete record rather than lose it.
          const tail = recoverTail(text);
          if (tail) {
            defect({
              severity: 'warning',
              kind: 'recovered_record',
              line: lineNumber,
              message: `a complete record follows ${tail.at} torn bytes on this line; it was recovered`,
              sessionId: file.sessionId ?? null,
            });
            lastTsKey = runParser(file, parser, sink, lineNumber, offset, bytes.length, text.slice(tail.at), lastTsKey, (ctx) =>
              parser.line(tail.obj, ctx),
            );
          }
        }
        if (parsed) {
          if (value === null || typeof value !== 'object' || Array.isArray(value)) {
            sink.line(lineNumber, offset, bytes, 'bad');
            defect({
              severity: 'error',
              kind: 'non_object_json',
              line: lineNumber,
              message: `line is valid JSON but not an object (${Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value})`,
              sessionId: file.sessionId ?? null,
            });
          } else {
            sink.line(lineNumber, offset, bytes, 'ok');
            if (invalid) {
              defect({
                severity: 'warning',
                kind: 'invalid_utf8',
                line: lineNumber,
                message: 'line is not valid UTF-8; parsed with replacement characters (raw_lines has the exact bytes)',
                sessionId: file.sessionId ?? null,
              });
            }
            const obj = value as Record<string, unknown>;
            lastTsKey = runParser(file, parser, sink, lineNumber, offset, bytes.length, text, lastTsKey, (ctx) =>
              parser.line(obj, ctx),
            );
          }
        }
      }
      resumeOffset = offset + bytes.length + 1;
      resumeLine = lineNumber + 1;
      sink.checkpoint?.({ offset: resumeOffset, lineNumber: resumeLine, lastTsKey });
      if (options.stopAfterBytes !== undefined && bytesRead >= options.stopAfterBytes) {
        return { offset: resumeOffset, lineNumber: resumeLine, lastTsKey, incompleteTail, more: true, linesRead, bytesRead };
      }
    }
  } finally {
    if (!options.lines) lines.return?.(undefined);
  }
  return { offset: resumeOffset, lineNumber: resumeLine, lastTsKey, incompleteTail, more: false, linesRead, bytesRead };
}

/** The finding for a 0-byte source file (normal for some writers, e.g. a never-resumed fork). */
export function emptyFile(file: SourceFile): Defect {
  return { severity: 'info', kind: 'empty_file', file: file.relPath, line: null, message: 'file is empty', sessionId: file.sessionId ?? null };
}

/** Parse a whole-document file (metadata.json): evidence per physical line, one `document` call. */
export function parseDocumentFile(
  file: SourceFile,
  parser: LineParser | null,
  sink: FileSink,
  content?: Buffer,
): ParseFileResult {
  // The caller has usually read (and hashed) the document already: do not read it twice.
  const bytes = content ?? readFileSync(file.path);
  let lineNumber = 1;
  let offset = 0;
  while (offset <= bytes.length) {
    const nl = bytes.indexOf(10, offset);
    const endOfLine = nl === -1 ? bytes.length : nl;
    if (nl === -1 && endOfLine === offset) break; // trailing newline: no empty last line
    sink.line(lineNumber, offset, bytes.subarray(offset, endOfLine), 'ok');
    lineNumber++;
    offset = endOfLine + 1;
  }
  let doc: unknown = null;
  if (bytes.length === 0) {
    sink.defect(emptyFile(file));
  } else if (bytes.length > HUGE_LINE_BYTES) {
    // The huge-line rule holds for documents too: kept whole as evidence, never parsed whole.
    sink.defect({
      severity: 'info',
      kind: 'oversized_line',
      file: file.relPath,
      line: null,
      message: `document of ${bytes.length} bytes kept as evidence; too large to parse (limit ${HUGE_LINE_BYTES} bytes)`,
      sessionId: file.sessionId ?? null,
    });
    return { offset: bytes.length, lineNumber, lastTsKey: null, incompleteTail: false, more: false, linesRead: lineNumber - 1, bytesRead: bytes.length };
  } else {
    try {
      doc = JSON.parse(bytes.toString('utf8'));
    } catch (err) {
      sink.defect({
        severity: 'error',
        kind: 'invalid_document_json',
        file: file.relPath,
        line: null,
        message: `file is not valid JSON (${(err as Error).message.slice(0, 120)})`,
        sessionId: file.sessionId ?? null,
      });
    }
  }
  if (parser?.document) {
    runParser(file, parser, sink, 1, 0, bytes.length, bytes.toString('utf8'), null, (ctx) => parser.document!(doc, ctx));
  }
  return {
    offset: bytes.length,
    lineNumber,
    lastTsKey: null,
    incompleteTail: false,
    more: false,
    linesRead: lineNumber - 1,
    bytesRead: bytes.length,
  };
}

/** Run one parser call with a context that turns inputs into stored shapes. Returns the new lastTsKey. */
function runParser(
  file: SourceFile,
  parser: LineParser,
  sink: FileSink,
  lineNumber: number,
  byteOffset: number,
  byteLength: number,
  raw: string,
  lastTsKey: string | null,
  call: (ctx: LineContext) => void,
): string | null {
  const tsForLine = lastTsKey;
  let lineTs: string | null | undefined; // the line's own timestamp, once seen
  const ctx: LineContext = {
    file,
    lineNumber,
    byteOffset,
    byteLength,
    raw,
    emit(e: EventInput) {
      // An entry that names no session stays a ledger entry (query_ledger, grep_jsonl) under the
      // empty session id, which the store keeps outside every session.
      const sessionId = e.sessionId ?? file.sessionId ?? '';
      if (!sessionId) {
        sink.defect({
          severity: 'warning',
          kind: 'unattributed_event',
          file: file.relPath,
          line: lineNumber,
          message: `${e.type} entry names no session: it is kept as a ledger entry but belongs to no session`,
          sessionId: null,
        });
      }
      let tsKey: string | null = null;
      let tsMissing = false;
      if (e.timestamp != null && e.timestamp !== '') {
        tsKey = toTimeKey(e.timestamp);
        if (tsKey === null) {
          sink.defect({
            severity: 'warning',
            kind: 'unparsable_timestamp',
            file: file.relPath,
            line: lineNumber,
            message: `timestamp ${JSON.stringify(String(e.timestamp).slice(0, 60))} is not ISO-8601; the event takes the position of the line before`,
            sessionId: sessionId || null,
          });
        } else if (!isPlausibleKey(tsKey)) {
          sink.defect({
            severity: 'warning',
            kind: 'implausible_timestamp',
            file: file.relPath,
            line: lineNumber,
            message: `timestamp ${JSON.stringify(String(e.timestamp).slice(0, 60))} is outside ${PLAUSIBLE_FROM_KEY.slice(0, 10)}..${PLAUSIBLE_BEFORE_KEY.slice(0, 10)}; the event takes the position of the line before (the line keeps the stamp)`,
            sessionId: sessionId || null,
          });
          tsKey = null;
        }
      }
      if (tsKey === null) {
        tsMissing = true;
        tsKey = lineTs ?? tsForLine;
      } else {
        lineTs = tsKey;
      }
      sink.event({
        sessionId,
        ledger: file.ledger,
        file: file.relPath,
        lineNumber,
        part: e.part ?? 0,
        tsKey,
        tsMissing,
        type: e.type,
        kind: e.kind,
        actor: e.actor ?? null,
        turn: e.turn ?? null,
        ids: e.ids ?? {},
        tiebreak: e.tiebreak ?? '',
        ledgerRank: file.ledgerRank,
        usage: e.usage ?? null,
        toolName: e.toolName ?? null,
        toolStatus: e.toolStatus ?? null,
        summary: oneLine(e.summary),
        text: bound(e.text, TEXT_CHARS),
        attrs: e.attrs ?? {},
      });
    },
    defect(d) {
      sink.defect({
        severity: d.severity,
        kind: d.kind,
        file: file.relPath,
        line: d.line === undefined ? lineNumber : d.line,
        message: d.message,
        sessionId: d.sessionId ?? file.sessionId ?? null,
      });
    },
    facts(f) {
      sink.facts(f);
    },
  };
  call(ctx);
  return lineTs ?? lastTsKey;
}
