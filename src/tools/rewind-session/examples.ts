// rewind_session's examples: valid calls on the example store (../example-store.ts) and what each answers.
// A test runs every one on every surface; docs/tools.md prints them.

import { EXAMPLE_INTERRUPTED_SESSION, EXAMPLE_PLANE_SESSION } from '../example-store.js';
import type { ToolExample } from '../tool.js';

export const examples: readonly ToolExample[] = [
  { about: 'The plan to cut a Claude Code session back to its first turn (a dry run).', args: { session_id: EXAMPLE_INTERRUPTED_SESSION, to_turn: 1 }, status: 'ok' },
  { about: 'A Control Plane session, which cannot be rewound.', args: { session_id: EXAMPLE_PLANE_SESSION, to_turn: 1 }, status: 'error', code: 'REWIND_REFUSED' },
];
