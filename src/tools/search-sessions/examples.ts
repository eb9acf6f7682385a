// search_sessions's examples: valid calls on the example store (../example-store.ts) and what each answers.
// A test runs every one on every surface; docs/tools.md prints them.

import type { ToolExample } from '../tool.js';

export const examples: readonly ToolExample[] = [
  { about: 'Sessions that mention a word.', args: { query: 'budget' }, status: 'ok' },
  { about: 'Only titles, first messages and projects.', args: { query: 'budget', scope: 'metadata' }, status: 'ok' },
];
