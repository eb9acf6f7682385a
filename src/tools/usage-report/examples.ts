// usage_report's examples: valid calls on the example store (../example-store.ts) and what each answers.
// A test runs every one on every surface; docs/tools.md prints them.

import type { ToolExample } from '../tool.js';

export const examples: readonly ToolExample[] = [
  { about: 'Tokens and cost per day.', args: { group_by: 'daily' }, status: 'ok' },
  { about: 'Per session, a row per model.', args: { group_by: 'session', breakdown: true }, status: 'ok' },
  { about: 'A time zone that does not exist.', args: { timezone: 'Mars/Olympus' }, status: 'error', code: 'INVALID_ARGUMENTS' },
];
