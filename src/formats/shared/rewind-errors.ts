// The rewind's own errors, defined once: format rewind planners refuse with REWIND_REFUSED, the
// apply step with SOURCE_CHANGED and SESSION_LIVE.

import { defineError } from '../../core/errors.js';

export const RewindRefused = defineError('REWIND_REFUSED', (why: string) => `Rewind refused: ${why}`);
export const SourceChanged = defineError(
  'SOURCE_CHANGED',
  (file: string, why: string, root: string) =>
    `${file} changed since it was ingested (${why}); the plan would cut at the wrong place. Run \`hindsight ingest ${root}\` first, then rewind again.`,
);
export const SessionLive = defineError(
  'SESSION_LIVE',
  (files: string[]) =>
    `${files.join(', ')} changed in the last 60 seconds: the session is probably still running, and its agent would keep writing past the cut. Stop it first, or pass force: true.`,
);
