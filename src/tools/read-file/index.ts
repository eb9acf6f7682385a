// read_file: a line range of a text file in the workspace, bounded by lines and bytes, confined
// to the workspace root; binary files are refused rather than dumped into an agent's context.

import { isUtf8 } from 'node:buffer';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { z } from 'zod';
import { readLines } from '../../ingest/line-reader.js';
import { fitMaxBytes, limitArg, maxBytesArg, page, pageShape } from '../envelope.js';
import { defineTool } from '../tool.js';
import { examples } from './examples.js';
import { BinaryFile, confine, kindOf, relativeTo, workspaceRoot, WrongKind } from '../workspace.js';

const SNIFF_BYTES = 8192;

const input = z
  .object({
    path: z.string().min(1).describe('File relative to the workspace root.'),
    from_line: z
      .number({ invalid_type_error: 'from_line must be a whole number of 1 or more' })
      .int('from_line must be a whole number of 1 or more')
      .min(1, 'from_line must be 1 or more')
      .default(1)
      .describe('First line to return (1-based).'),
    limit: limitArg(200, 2000),
    max_bytes: maxBytesArg(50_000),
  })
  .strict();

/** Refuse files that are not text: a NUL byte or invalid UTF-8 in the first 8 KiB. */
function sniff(path: string, shown: string): void {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(SNIFF_BYTES);
    const n = readSync(fd, buf, 0, SNIFF_BYTES, 0);
    const head = buf.subarray(0, n);
    if (head.includes(0)) throw BinaryFile(shown, 'it contains NUL bytes');
    // The sniff window may end inside a multi-byte character: drop up to 3 trailing bytes.
    let end = head.length;
    while (end > 0 && end > head.length - 3 && (head[end - 1]! & 0xc0) === 0x80) end--;
    if (end > 0 && head[end - 1]! >= 0xc0) end--;
    if (!isUtf8(head.subarray(0, end))) throw BinaryFile(shown, 'it is not UTF-8 text');
  } finally {
    closeSync(fd);
  }
}

export const readFile = defineTool({
  name: 'read_file',
  mcpSets: ['files'],
  examples,
  machineLocal: true,
  title: 'Read a workspace file',
  description:
    'Read lines of a text file under the workspace root (--root, default the current directory): from_line, limit (≤ 2000 lines) and max_bytes bound the answer; count is the file’s total lines. Binary files and paths outside the root are refused with an error.',
  input,
  output: z.object({
    status: z.literal('ok'),
    path: z.string(),
    size: z.number().int(),
    ...pageShape,
    next_from_line: z.number().int().nullable(),
    lines: z.array(z.object({ line_number: z.number().int(), text: z.string(), cut: z.boolean().optional() })),
  }),
  async handler(args, ctx) {
    const root = workspaceRoot(ctx.workspaceRoot);
    const real = confine(root, args.path, 'file');
    const stat = statSync(real);
    if (!stat.isFile()) throw WrongKind(args.path, 'file', kindOf(stat));
    sniff(real, args.path);
    const lines: { line_number: number; text: string; cut?: boolean }[] = [];
    let count = 0;
    for (const line of readLines(real, { end: stat.size })) {
      count = line.lineNumber;
      if (line.lineNumber >= args.from_line && lines.length < args.limit) {
        // A line longer than the whole answer may carry is cut here, not decoded whole.
        const cut = line.bytes.length > args.max_bytes;
        const text = (cut ? line.bytes.subarray(0, args.max_bytes) : line.bytes).toString('utf8');
        lines.push(cut ? { line_number: line.lineNumber, text, cut: true } : { line_number: line.lineNumber, text });
      }
    }
    const offset = args.from_line - 1;
    const returned = Math.max(0, Math.min(lines.length, count - offset));
    return fitMaxBytes(
      { path: relativeTo(root, real), size: stat.size, ...page(count, args.limit, offset, returned), lines },
      'lines',
      args.max_bytes,
      (b) => ({ ...b, next_from_line: b.next_offset === null ? null : b.next_offset + 1 }),
    );
  },
});
