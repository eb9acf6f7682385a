// raw_lines: the original lines of a session's ledger, byte for byte, from the stored evidence
// (they survive the source being deleted or rewritten).

import { isUtf8 } from 'node:buffer';
import { z } from 'zod';
import { LedgerNotFound, SessionNotFound, InvalidArguments } from '../../core/errors.js';
import { fitMaxBytes, limitArg, maxBytesArg, page, pageShape } from '../envelope.js';
import { defineTool } from '../tool.js';
import { examples } from './examples.js';

const input = z
  .object({
    session_id: z.string().min(1).describe('The session (see list_sessions).'),
    ledger: z.string().optional().describe("Ledger name; defaults to the session's main ledger (see `ledgers` in the result)."),
    from_line: z
      .number({ invalid_type_error: 'from_line must be a whole number of 1 or more' })
      .int('from_line must be a whole number of 1 or more')
      .min(1, 'from_line must be 1 or more')
      .default(1)
      .describe('1-based position in the ledger (its files concatenated in reading order).'),
    limit: limitArg(100, 2000),
    max_bytes: maxBytesArg(200_000),
    generation: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe('Read an earlier generation of a rewritten file (see `files` in the result); default the live one.'),
    byte_offset: z
      .number({ invalid_type_error: 'byte_offset must be a whole number of 0 or more' })
      .int('byte_offset must be a whole number of 0 or more')
      .min(0, 'byte_offset must be 0 or more')
      .default(0)
      .describe('Start inside the line at from_line, at this byte (pass back next_byte_offset to page through a line larger than max_bytes).'),
  })
  .strict();

const lineShape = z.object({
  line_number: z.number().int(),
  file: z.string(),
  raw: z.string(),
  raw_base64: z.string().optional(),
  incomplete: z.boolean().optional(),
  cut: z.boolean().optional().describe('Only part of the line: bytes byte_offset up to next_byte_offset (or the end) of byte_length.'),
  byte_offset: z.number().int().optional(),
  byte_length: z.number().int().optional().describe("The whole line's length in bytes."),
  next_byte_offset: z.number().int().nullable().optional(),
});

export const rawLines = defineTool({
  name: 'raw_lines',
  storeDetermined: true,
  mcpSets: ['core', 'analyst', 'ledger'],
  examples,
  title: 'Raw ledger lines',
  description:
    "Return a session ledger's original lines exactly as written (from stored evidence, so they survive the source file being deleted or rewritten). `ledger` defaults to the session's main ledger; `ledgers` lists them all. Lines that are not valid UTF-8 also carry raw_base64 with the exact bytes. A line larger than max_bytes comes back alone and cut (cut, byte_length, next_byte_offset): call again with the same from_line and byte_offset = next_byte_offset for the rest.",
  input,
  output: z.object({
    status: z.literal('ok'),
    session_id: z.string(),
    ledger: z.string(),
    ledgers: z.array(z.string()),
    files: z.array(z.object({ file: z.string(), generation: z.number().int(), lines: z.number().int(), superseded: z.boolean() })),
    ...pageShape,
    next_from_line: z.number().int().nullable(),
    next_byte_offset: z.number().int().nullable().optional(),
    lines: z.array(lineShape),
  }),
  async handler(args, { store }) {
    const session = await store.getSession(args.session_id);
    if (!session) throw SessionNotFound(args.session_id);
    const ledgers = await store.sessionLedgers(args.session_id);
    const names = ledgers.map((l) => l.ledger);
    const wanted =
      args.ledger ?? (session.mainLedger && names.includes(session.mainLedger) ? session.mainLedger : names[0]);
    const info = ledgers.find((l) => l.ledger === wanted);
    if (!wanted || !info) throw LedgerNotFound(args.ledger ?? '(main)', args.session_id, names);
    const files =
      args.generation === undefined
        ? info.files.filter((f) => !f.superseded)
        : info.files.filter((f) => f.generation === args.generation);
    if (files.length === 0) {
      const gens = [...new Set(info.files.map((f) => f.generation))].join(', ');
      throw InvalidArguments(`ledger ${wanted} has no generation ${args.generation}; it has ${gens}.`);
    }
    const count = files.reduce((n, f) => n + f.lines, 0);
    const rows = await store.rawLines(
      files.map((f) => f.fileId),
      args.from_line,
      args.limit,
    );
    const lines = rows.map((r) => {
      const text = r.raw.toString('utf8');
      const line: z.infer<typeof lineShape> = { line_number: r.lineNumber, file: r.file, raw: text };
      if (!isUtf8(r.raw)) line.raw_base64 = r.raw.toString('base64');
      if (r.status === 'incomplete') line.incomplete = true;
      return line;
    });
    const offset = args.from_line - 1;
    const body = {
      session_id: session.id,
      ledger: wanted,
      ledgers: names,
      files: files.map((f) => ({ file: f.relPath, generation: f.generation, lines: f.lines, superseded: f.superseded })),
    };
    const first = rows[0];
    if (first && args.byte_offset > 0) return linePiece(body, first, args.byte_offset, count, offset, args.limit, args.max_bytes);
    const whole = fitMaxBytes({ ...body, ...page(count, args.limit, offset, lines.length), lines }, 'lines', args.max_bytes, (b) => ({
      ...b,
      next_from_line: b.next_offset === null ? null : b.next_offset + 1,
    }));
    // The first line alone is over max_bytes: without a piece of it the caller could never get past it.
    if (first && whole.lines.length === 0) return linePiece(body, first, 0, count, offset, args.limit, args.max_bytes);
    return whole;
  },
});

interface StoredRawLine {
  lineNumber: number;
  file: string;
  raw: Buffer;
  status: string;
}

/**
 * One line from byte `start`, as many bytes as fit in `maxBytes` (whole UTF-8 characters), with
 * where to continue. Falls back to zero lines when not even one byte fits.
 */
function linePiece(
  body: Record<string, unknown>,
  row: StoredRawLine,
  start: number,
  count: number,
  offset: number,
  limit: number,
  maxBytes: number,
) {
  const length = row.raw.length;
  if (start >= length) {
    throw InvalidArguments(`byte_offset ${start} is not inside line ${row.lineNumber} of ${row.file}, which is ${length} bytes long.`);
  }
  const utf8 = isUtf8(row.raw);
  const shaped = (end: number) => {
    const bytes = row.raw.subarray(start, end);
    const more = end < length;
    const line: z.infer<typeof lineShape> = { line_number: row.lineNumber, file: row.file, raw: bytes.toString('utf8') };
    if (!utf8) line.raw_base64 = bytes.toString('base64');
    if (row.status === 'incomplete') line.incomplete = true;
    Object.assign(line, { cut: true, byte_offset: start, byte_length: length, next_byte_offset: more ? end : null });
    const paged = page(count, limit, offset, 1);
    return {
      ...body,
      ...paged,
      ...(more ? { has_more: true, next_offset: offset } : {}),
      next_from_line: more ? offset + 1 : paged.next_offset === null ? null : paged.next_offset + 1,
      next_byte_offset: more ? end : null,
      lines: [line],
      ...(more ? { truncated: true } : {}),
    };
  };
  const fits = (end: number) => Buffer.byteLength(JSON.stringify({ status: 'ok', ...shaped(end) })) <= maxBytes;
  // A valid UTF-8 line is cut between characters: never before a continuation byte.
  const boundary = (end: number) => {
    if (!utf8) return end;
    while (end > start && end < length && (row.raw[end]! & 0xc0) === 0x80) end--;
    return end;
  };
  let lo = start;
  let hi = length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(boundary(mid))) lo = mid;
    else hi = mid - 1;
  }
  const end = boundary(lo);
  if (end === start) {
    return { ...body, ...page(count, limit, offset, 0), next_from_line: offset + 1, next_byte_offset: start, lines: [], truncated: true };
  }
  return shaped(end);
}
