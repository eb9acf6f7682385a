// raw_lines: the original lines of a session's ledger, byte for byte, from the stored evidence
// (they survive the source being deleted or rewritten).

import { isUtf8 } from 'node:buffer';
import { z } from 'zod';
import { LedgerNotFound, SessionNotFound, InvalidArguments } from '../../core/errors.js';
import { fitMaxBytes, limitArg, maxBytesArg, page, pageShape } from '../envelope.js';
import { defineTool } from '../tool.js';

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
  })
  .strict();

const lineShape = z.object({
  line_number: z.number().int(),
  file: z.string(),
  raw: z.string(),
  raw_base64: z.string().optional(),
  incomplete: z.boolean().optional(),
});

export const rawLines = defineTool({
  name: 'raw_lines',
  title: 'Raw ledger lines',
  description:
    "Return a session ledger's original lines exactly as written (from stored evidence, so they survive the source file being deleted or rewritten). `ledger` defaults to the session's main ledger; `ledgers` lists them all. Lines that are not valid UTF-8 also carry raw_base64 with the exact bytes.",
  input,
  output: z.object({
    status: z.literal('ok'),
    session_id: z.string(),
    ledger: z.string(),
    ledgers: z.array(z.string()),
    files: z.array(z.object({ file: z.string(), generation: z.number().int(), lines: z.number().int(), superseded: z.boolean() })),
    ...pageShape,
    next_from_line: z.number().int().nullable(),
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
    return fitMaxBytes(
      {
        session_id: session.id,
        ledger: wanted,
        ledgers: names,
        files: files.map((f) => ({ file: f.relPath, generation: f.generation, lines: f.lines, superseded: f.superseded })),
        ...page(count, args.limit, offset, lines.length),
        lines,
      },
      'lines',
      args.max_bytes,
      (b) => ({ ...b, next_from_line: b.next_offset === null ? null : b.next_offset + 1 }),
    );
  },
});
