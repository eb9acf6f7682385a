// The Codex CLI importer: `${CODEX_HOME:-~/.codex}/sessions/YYYY/MM/DD/rollout-*.jsonl` (and
// `archived_sessions/`), one rollout per session; forks and spawned sub-agents are child sessions.

import { defineImporter } from '../importer.js';
import { discoverCodex } from './discover.js';
import { createCodexParser } from './parser.js';
import { codexProfile } from './profile.js';
import { codexDefaultRoots, detectCodex } from './roots.js';
import { summarizeCodex } from './summarize.js';

/** Parses nothing: a copy kept as evidence only is never read into events. */
const inertParser = { line() {}, snapshot: () => null };

/**
 * @example const result = await runImporter(codex, `${os.homedir()}/.codex`);
 */
export const codex = defineImporter({
  format: 'codex',
  description:
    'Codex CLI rollouts ($CODEX_HOME or ~/.codex: sessions/YYYY/MM/DD/rollout-*.jsonl and archived_sessions/), one session per rollout; forks and spawned agents become child sessions.',
  layout: 'a Codex home (sessions/YYYY/MM/DD/rollout-*.jsonl)',
  detect: detectCodex,
  defaultRoots: codexDefaultRoots,
  discover: discoverCodex,
  createParser: (file, options) => (file.evidenceOnly ? inertParser : createCodexParser(file, options)),
  summarize: summarizeCodex,
  profile: codexProfile,
});
