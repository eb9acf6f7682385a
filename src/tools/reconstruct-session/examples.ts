// reconstruct_session's examples: valid calls on the example store (../example-store.ts) and what each answers.
// A test runs every one on every surface; docs/tools.md prints them.

import { EXAMPLE_SESSION } from '../example-store.js';
import type { ToolExample } from '../tool.js';

export const examples: readonly ToolExample[] = [
  { about: 'The first 20 rows of the merged timeline.', args: { session_id: EXAMPLE_SESSION, limit: 20 }, status: 'ok' },
  { about: "Only the user's and the assistant's words, in full.", args: { session_id: EXAMPLE_SESSION, kinds: ['user', 'assistant'], verbosity: 'full' }, status: 'ok' },
];
