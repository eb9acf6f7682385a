// read: a text file's lines, numbered, optionally a window of them. One result never exceeds the
// budget's single-read cap (maxSingleReadResultTokens × 4 characters); a cut result says where to
// continue. Every range shown is recorded in the inspection ledger.

import { z } from 'zod';
import { specOf } from '../tool-spec.js';
import type { ActionHandler } from '../types.js';

const input = z
  .object({
    path: z.string().min(1).describe('The file, relative to the workspace root.'),
    offset: z.number().int().min(1).optional().describe('The first line to show, 1-based (default 1).'),
    limit: z.number().int().min(1).optional().describe('How many lines to show (default: to the end, within the size cap).'),
  })
  .strict();

/** Bytes sniffed for NUL to call a file binary (git uses the first 8000). */
const BINARY_SNIFF_BYTES = 8000;

function numbered(n: number, line: string): string {
  return `${String(n).padStart(6)}\t${line}`;
}

export const readHandler: ActionHandler<typeof input> = {
  spec: specOf(
    'read',
    'Read a text file from the workspace. Lines come numbered (number, tab, text). Use offset and limit for a window of a long file; a result that is cut says which offset continues it.',
    input,
  ),
  input,
  async run(args, ctx, limits) {
    const bytes = await ctx.env.readBytes(args.path);
    if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) {
      return { isError: true, content: `${args.path} looks binary (it has NUL bytes); read shows text files only. For an image use view_image.` };
    }
    const text = Buffer.from(bytes).toString('utf8');
    const lines = text.split('\n');
    if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
    const total = lines.length;
    if (total === 0) {
      ctx.inspectionLedger.record({ path: args.path, startLine: 0, endLine: 0, totalLines: 0, capped: false, chars: 0, turn: ctx.turn });
      return { content: `${args.path} is empty.`, data: { path: args.path, startLine: 0, endLine: 0, totalLines: 0, capped: false } };
    }
    const start = args.offset ?? 1;
    if (start > total) return { isError: true, content: `offset ${start} is past the end of ${args.path}: it has ${total} line${total === 1 ? '' : 's'}.` };
    const wanted = args.limit === undefined ? total : Math.min(total, start + args.limit - 1);

    const cap = limits.maxSingleReadResultTokens * 4;
    const shown: string[] = [];
    let used = 0;
    let last = start - 1;
    for (let n = start; n <= wanted; n++) {
      const row = numbered(n, lines[n - 1]!);
      if (used + row.length + 1 > cap) {
        // A first line longer than the whole cap is shown cut rather than not at all.
        if (shown.length === 0) {
          shown.push(`${row.slice(0, cap)}… [line cut at ${cap} characters]`);
          last = n;
        }
        break;
      }
      shown.push(row);
      used += row.length + 1;
      last = n;
    }
    const capped = last < wanted;
    let note = '';
    if (capped) {
      note = `\n[Cut at the read cap of ${cap} characters: lines ${start}–${last} of ${total} shown. Continue with offset ${last + 1}.]`;
    } else if (last < total) {
      note = `\n[Lines ${start}–${last} of ${total}. More from offset ${last + 1}.]`;
    }
    const content = shown.join('\n') + note;
    ctx.inspectionLedger.record({ path: args.path, startLine: start, endLine: last, totalLines: total, capped, chars: content.length, turn: ctx.turn });
    return { content, data: { path: args.path, startLine: start, endLine: last, totalLines: total, capped } };
  },
};
