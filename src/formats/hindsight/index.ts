// The Hindsight runtime's own sessions (format `hindsight`): the agent runtime (src/runtime/)
// records every session as append-only JSONL, `<sessions root>/YYYY/MM/DD/<session id>.jsonl`,
// one record per line (records.ts); a handoff child is its own file naming its parent.

import { defineImporter } from '../importer.js';
import { discoverHindsight } from './discover.js';
import { HINDSIGHT_FORMAT } from './layout.js';
import { createHindsightParser } from './parser.js';
import { hindsightProfile } from './profile.js';
import { detectHindsight, hindsightDefaultRoots } from './roots.js';
import { summarizeHindsight } from './summarize.js';
import { hindsightUsageLines } from './usage-lines.js';

/** Parses nothing: a copy kept as evidence only is never read into events. */
const inertParser = { line() {}, snapshot: () => null };

/**
 * @example const result = await runImporter(hindsightFormat, defaultSessionsRoot());
 */
export const hindsightFormat = defineImporter({
  format: HINDSIGHT_FORMAT,
  description:
    'Hindsight runtime sessions ($XDG_DATA_HOME/hindsight/sessions or ~/.local/share/hindsight/sessions: YYYY/MM/DD/<session id>.jsonl), recorded as the runtime runs; a handoff child becomes a sub-agent of its parent.',
  layout: 'Hindsight runtime sessions (sessions/YYYY/MM/DD/<id>.jsonl)',
  detect: detectHindsight,
  defaultRoots: hindsightDefaultRoots,
  discover: discoverHindsight,
  createParser: (file, options) => (file.evidenceOnly ? inertParser : createHindsightParser(file, options)),
  summarize: summarizeHindsight,
  usageLines: hindsightUsageLines,
  profile: hindsightProfile,
});

export { defaultSessionsRoot, HINDSIGHT_FORMAT, sessionRelPath } from './layout.js';
export { sessionSource } from './discover.js';
