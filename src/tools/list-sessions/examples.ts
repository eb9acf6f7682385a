// list_sessions's examples: valid calls on the example store (../example-store.ts) and what each answers.
// A test runs every one on every surface; docs/tools.md prints them.

import type { ToolExample } from '../tool.js';

export const examples: readonly ToolExample[] = [
  { about: 'The five newest top-level sessions.', args: { limit: 5 }, status: 'ok' },
  { about: 'Sub-agents and forks too, ten at a time.', args: { top_level_only: false, limit: 10 }, status: 'ok' },
];
