// get_session's examples: valid calls on the example store (../example-store.ts) and what each answers.
// A test runs every one on every surface; docs/tools.md prints them.

import { EXAMPLE_PLANE_SESSION } from '../example-store.js';
import type { ToolExample } from '../tool.js';

export const examples: readonly ToolExample[] = [
  { about: "A session's stored details.", args: { session_id: EXAMPLE_PLANE_SESSION }, status: 'ok' },
  { about: 'With a page of its conversation.', args: { session_id: EXAMPLE_PLANE_SESSION, include_transcript: true }, status: 'ok' },
  { about: 'A prefix several sessions share.', args: { session_id: 'SES-' }, status: 'error', code: 'AMBIGUOUS_SESSION' },
];
