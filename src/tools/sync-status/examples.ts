// sync_status's examples: valid calls on the example store (../example-store.ts) and what each answers.
// A test runs every one on every surface; docs/tools.md prints them.

import type { ToolExample } from '../tool.js';

export const examples: readonly ToolExample[] = [
  { about: 'Without a configured remote: ok, connected false, saying how to configure one.', args: {}, status: 'ok' },
];
