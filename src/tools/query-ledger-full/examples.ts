// query_ledger_full's examples: valid calls on the example store (../example-store.ts) and what each answers.
// A test runs every one on every surface; docs/tools.md prints them.

import type { ToolExample } from '../tool.js';

export const examples: readonly ToolExample[] = [
  { about: 'The first five ho2m entries with their metadata.', args: { ledger: 'ho2m', limit: 5 }, status: 'ok' },
];
