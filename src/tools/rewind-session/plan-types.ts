// Shapes shared by the format modules, the plan and the apply step, and the rewind's own errors.

import { defineError } from '../../core/errors.js';
import type { Cut, LineInfo } from './cut.js';
import type { SourceFile } from './source.js';

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

/** One file the rewind truncates: everything from `cutLine` on goes. */
export interface FileChange {
  file: SourceFile;
  cutLine: number;
}

/** What a format module works out; plan.ts turns it into the result. */
export interface FormatPlan {
  transcript: SourceFile;
  lines: LineInfo[];
  cut: Cut;
  /** Transcript first; a file whose cut is past its last line is left alone. */
  changes: FileChange[];
  removedEvents: number;
  removedToolCalls: number;
  /** Child sessions started past the cut (their Task/delegate call is cut away, or forked later); their files stay. */
  subagents: { session_id: string; kind: string; files: string[] }[];
  metadata: { file: string; turn_count: number | null; stale: boolean } | null;
  warnings: string[];
}
