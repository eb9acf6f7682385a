// inspect_metrics's examples: valid calls on the example store (../example-store.ts) and what each answers.
// A test runs every one on every surface; docs/tools.md prints them.

import { EXAMPLE_SESSION } from '../example-store.js';
import type { ToolExample } from '../tool.js';

export const examples: readonly ToolExample[] = [
  { about: 'Statistics over ten years up to a fixed day.', args: { view: 'stats', until: '2026-12-31', days: 3660 }, status: 'ok' },
  { about: 'The newest sessions.', args: { view: 'recent', limit: 5 }, status: 'ok' },
  { about: 'One session turn by turn.', args: { view: 'session', session_id: EXAMPLE_SESSION }, status: 'ok' },
];
