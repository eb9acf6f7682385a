// export_session's examples: valid calls on the example store (../example-store.ts) and what each answers.
// A test runs every one on every surface; docs/tools.md prints them.

import { EXAMPLE_PLANE_SESSION, EXAMPLE_SESSION } from '../example-store.js';
import type { ToolExample } from '../tool.js';

export const examples: readonly ToolExample[] = [
  { about: 'A session as a markdown transcript.', args: { session_id: EXAMPLE_PLANE_SESSION, format: 'markdown' }, status: 'ok' },
  { about: 'The compact replay, without sub-agents.', args: { session_id: EXAMPLE_SESSION, include_subagents: false }, status: 'ok' },
];
