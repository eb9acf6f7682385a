// list_files: what is under a folder of the workspace, bounded in depth and count, confined to
// the workspace root (the admin seed's tool, hardened).

import { lstatSync, readdirSync, statSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { defineTool } from '../tool.js';
import { examples } from './examples.js';
import { confine, globToRegExp, relativeTo, workspaceRoot, WrongKind } from '../workspace.js';

const MAX_ENTRIES = 500;
const MAX_DEPTH = 5;
const SKIPPED = new Set(['node_modules', '__pycache__']);

const input = z
  .object({
    path: z.string().default('.').describe('Folder relative to the workspace root.'),
    max_depth: z
      .number({ invalid_type_error: 'max_depth must be a whole number from 1 to 5' })
      .int('max_depth must be a whole number from 1 to 5')
      .min(1, 'max_depth must be from 1 to 5')
      .default(3)
      .describe('How deep to descend (1 = this folder only); values above 5 are capped at 5.'),
    glob: z.string().max(200, 'glob must be at most 200 characters').default('*').describe('Filename pattern for files (e.g. *.py, *.json); folders are always listed.'),
  })
  .strict();

const entryShape = z.object({ path: z.string(), type: z.enum(['file', 'dir', 'symlink']), size: z.number().int().optional() });

export const listFiles = defineTool({
  name: 'list_files',
  mcpSets: ['files'],
  examples,
  machineLocal: true,
  title: 'List workspace files',
  description:
    'List files and folders under a path of the workspace root (--root, default the current directory), sorted, depth-first. count is every entry found; files holds the first 500 (returned says how many; truncated: true when count is larger). Hidden folders, node_modules and __pycache__ are skipped; paths outside the root (.., absolute, symlinks pointing out) are refused.',
  input,
  output: z.object({
    status: z.literal('ok'),
    root: z.string(),
    max_depth: z.number().int(),
    count: z.number().int(),
    returned: z.number().int(),
    truncated: z.boolean(),
    files: z.array(entryShape),
  }),
  async handler(args, ctx) {
    const root = workspaceRoot(ctx.workspaceRoot);
    const start = confine(root, args.path, 'folder');
    if (!statSync(start).isDirectory()) throw WrongKind(args.path, 'folder');
    const depthLimit = Math.min(args.max_depth, MAX_DEPTH);
    const match = globToRegExp(args.glob);
    // The seed's count is every entry found; the listing keeps the first MAX_ENTRIES of them.
    const files: z.infer<typeof entryShape>[] = [];
    let found = 0;
    const add = (entry: z.infer<typeof entryShape>) => {
      found++;
      if (files.length < MAX_ENTRIES) files.push(entry);
    };
    const walk = (dir: string, depth: number): void => {
      let entries: Dirent[];
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        return; // unreadable folder: listed, not entered
      }
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const e of entries) {
        const full = join(dir, e.name);
        const rel = relativeTo(root, full);
        if (e.isDirectory()) {
          if (e.name.startsWith('.') || SKIPPED.has(e.name)) continue;
          add({ path: `${rel}/`, type: 'dir' });
          if (depth < depthLimit) walk(full, depth + 1);
        } else if (e.isSymbolicLink()) {
          // Listed but never followed: a link may point outside the root.
          if (match.test(e.name)) add({ path: rel, type: 'symlink' });
        } else if (e.isFile() && match.test(e.name)) {
          add({ path: rel, type: 'file', size: lstatSync(full).size });
        }
      }
    };
    walk(start, 1);
    return {
      root: relativeTo(root, start) || '.',
      max_depth: depthLimit,
      count: found,
      returned: files.length,
      truncated: found > files.length,
      files,
    };
  },
});
