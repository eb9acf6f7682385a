// analyze_events's examples: valid calls on the example store (../example-store.ts) and what each answers.
// A test runs every one on every surface; docs/tools.md prints them.

import { EXAMPLE_PLANE_SESSION } from '../example-store.js';
import type { ToolExample } from '../tool.js';

export const examples: readonly ToolExample[] = [
  { about: "A summary of a session's events.", args: { session_id: EXAMPLE_PLANE_SESSION, analysis_type: 'summary' }, status: 'ok' },
];
