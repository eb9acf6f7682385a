// write: create or replace a whole file (parent folders are created).

import { z } from 'zod';
import { specOf } from '../tool-spec.js';
import type { ActionHandler } from '../types.js';

const input = z
  .object({
    path: z.string().min(1).describe('The file, relative to the workspace root.'),
    content: z.string().describe('The whole new content of the file.'),
  })
  .strict();

export const writeHandler: ActionHandler<typeof input> = {
  spec: specOf('write', 'Create or overwrite a workspace file with the given content; parent folders are created. For small changes to an existing file prefer edit.', input),
  input,
  async run(args, ctx) {
    const existed = ctx.env.fileExists(args.path);
    await ctx.env.writeFile(args.path, args.content);
    const bytes = Buffer.byteLength(args.content, 'utf8');
    const lines = args.content === '' ? 0 : args.content.split('\n').length - (args.content.endsWith('\n') ? 1 : 0);
    return {
      content: `${existed ? 'Overwrote' : 'Created'} ${args.path} (${bytes} bytes, ${lines} line${lines === 1 ? '' : 's'}).`,
      data: { path: args.path, bytes, lines, created: !existed },
    };
  },
};
