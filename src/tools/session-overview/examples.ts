// session_overview's examples: valid calls on the example store (../example-store.ts) and what each answers.
// A test runs every one on every surface; docs/tools.md prints them.

import { EXAMPLE_PLANE_SESSION, EXAMPLE_SESSION } from '../example-store.js';
import type { ToolExample } from '../tool.js';

export const examples: readonly ToolExample[] = [
  { about: 'What a Claude Code session was about.', args: { session_id: EXAMPLE_SESSION }, status: 'ok' },
  { about: 'A Control Plane session, secrets shown.', args: { session_id: EXAMPLE_PLANE_SESSION, redact: false }, status: 'ok' },
  { about: 'An id no session has.', args: { session_id: 'no-such-session' }, status: 'error', code: 'SESSION_NOT_FOUND' },
];
