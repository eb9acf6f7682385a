// The Amplifier importer: ~/.amplifier/projects/<slug>/sessions/<id>/{metadata.json,
// transcript.jsonl, events.jsonl}, one session per folder (sub-agents and forks included).

import { defineImporter, type LineParser } from '../importer.js';
import { createRewindParser, REWIND_LEDGER } from '../rewind-ledger.js';
import { amplifierDefaultRoots } from './default-roots.js';
import { discoverAmplifier } from './discover.js';
import { createEventsParser } from './events-parser.js';
import { createMetadataParser } from './metadata-parser.js';
import { looksLikeAmplifier } from './root-shape.js';
import { amplifierProfile } from './profile.js';
import { summarizeAmplifier } from './summarize.js';
import { createTranscriptParser } from './transcript-parser.js';

/** Parses nothing: a ledger this importer does not know is kept as evidence only. */
const inertParser: LineParser = {
  line() {},
  snapshot: () => null,
};

/**
 * @example const result = await runImporter(amplifier, `${os.homedir()}/.amplifier`);
 */
export const amplifier = defineImporter({
  format: 'amplifier',
  description:
    'Amplifier sessions (~/.amplifier or $AMPLIFIER_HOME): projects/<slug>/sessions/<id>/ with metadata.json, transcript.jsonl and events.jsonl; sub-agents and forks become their own sessions.',
  layout: 'an Amplifier home (projects/<slug>/sessions/<id>/)',
  detect: looksLikeAmplifier,
  defaultRoots: amplifierDefaultRoots,
  discover: discoverAmplifier,
  createParser(file, options) {
    if (file.ledger === 'metadata') return createMetadataParser(file);
    if (file.ledger === 'transcript') return createTranscriptParser(file, options.resumeState);
    if (file.ledger === 'events') return createEventsParser(file, options.resumeState);
    if (file.ledger === REWIND_LEDGER) return createRewindParser(file);
    return inertParser;
  },
  summarize: summarizeAmplifier,
  profile: amplifierProfile,
});
