// get_events's examples: valid calls on the example store (../example-store.ts) and what each answers.
// A test runs every one on every surface; docs/tools.md prints them.

import { EXAMPLE_PLANE_SESSION } from '../example-store.js';
import type { ToolExample } from '../tool.js';

export const examples: readonly ToolExample[] = [
  { about: 'The first five events of a session.', args: { session_id: EXAMPLE_PLANE_SESSION, limit: 5 }, status: 'ok' },
];
