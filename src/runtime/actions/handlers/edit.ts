// edit: replace an exact piece of a file. The text to replace must occur exactly once unless
// replace_all is given, so an edit never lands somewhere the model did not mean.

import { z } from 'zod';
import { specOf } from '../tool-spec.js';
import type { ActionHandler } from '../types.js';

const input = z
  .object({
    path: z.string().min(1).describe('The file, relative to the workspace root.'),
    old_string: z.string().describe('The exact text to replace (whitespace and indentation included).'),
    new_string: z.string().describe('The text to put in its place.'),
    replace_all: z.boolean().optional().describe('Replace every occurrence (default: old_string must occur exactly once).'),
  })
  .strict();

/** 1-based line numbers where each occurrence of `needle` starts. */
function occurrenceLines(text: string, needle: string): number[] {
  const out: number[] = [];
  let line = 1;
  let scanned = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) {
    for (let i = scanned; i < at; i++) if (text.charCodeAt(i) === 10) line++;
    scanned = at;
    out.push(line);
  }
  return out;
}

function listLines(lines: number[]): string {
  const shown = lines.slice(0, 10).join(', ');
  return lines.length > 10 ? `${shown}, …` : shown;
}

export const editHandler: ActionHandler<typeof input> = {
  spec: specOf(
    'edit',
    'Replace exact text in a workspace file. old_string must match the file exactly and occur once (give more surrounding lines to make it unique), or pass replace_all. Read the file first.',
    input,
  ),
  input,
  async run(args, ctx) {
    if (args.old_string === '') return { isError: true, content: 'old_string is empty; to create or replace a whole file use write.' };
    if (args.old_string === args.new_string) return { isError: true, content: 'old_string and new_string are the same; nothing would change.' };
    if (!ctx.env.fileExists(args.path)) return { isError: true, content: `${args.path} does not exist; use write to create it.` };
    const text = await ctx.env.readFile(args.path);
    const lines = occurrenceLines(text, args.old_string);
    if (lines.length === 0) {
      return { isError: true, content: `old_string was not found in ${args.path}. Read the file again and copy the text exactly, whitespace and indentation included.` };
    }
    if (lines.length > 1 && !args.replace_all) {
      return {
        isError: true,
        content: `old_string occurs ${lines.length} times in ${args.path} (at lines ${listLines(lines)}); include more surrounding text so it occurs once, or pass replace_all: true.`,
      };
    }
    // split/join, not String.replace: `$&` and friends in new_string must stay literal.
    await ctx.env.writeFile(args.path, text.split(args.old_string).join(args.new_string));
    const n = lines.length;
    return {
      content: `Edited ${args.path}: ${n} replacement${n === 1 ? '' : 's'} (at line${n === 1 ? '' : 's'} ${listLines(lines)}).`,
      data: { path: args.path, replacements: n, lines },
    };
  },
};
