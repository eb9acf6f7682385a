// read_file's examples: valid calls on the example store (../example-store.ts) and what each answers.
// A test runs every one on every surface; docs/tools.md prints them.

import { EXAMPLE_WORKSPACE_FILE } from '../example-store.js';
import type { ToolExample } from '../tool.js';

export const examples: readonly ToolExample[] = [
  { about: 'A workspace file.', args: { path: EXAMPLE_WORKSPACE_FILE }, status: 'ok' },
  { about: 'A path outside the workspace.', args: { path: '../escape.txt' }, status: 'error', code: 'PATH_ESCAPES_ROOT' },
];
