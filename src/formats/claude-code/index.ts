// The Claude Code importer: transcripts under `<config>/projects/<slug>/`, sub-agent files and
// inline sidechains as child sessions, usage counted once per API response.

import { defineImporter } from '../importer.js';
import { createRewindParser, REWIND_LEDGER } from '../rewind-ledger.js';
import { discoverClaudeCode } from './discover.js';
import { createClaudeCodeParser } from './parser.js';
import { defaultClaudeRoots, detectClaudeCode } from './roots.js';
import { claudeProfile } from './profile.js';
import { claudeCodeUsageCalls, summarizeClaudeCode } from './summarize.js';
import { usageGroups } from './usage-groups.js';
import { usageLines } from './usage-lines.js';

/**
 * @example const result = await runImporter(claudeCode, `${home}/.claude`);
 */
export const claudeCode = defineImporter({
  format: 'claude-code',
  description:
    'Claude Code transcripts (~/.claude or CLAUDE_CONFIG_DIR: projects/<slug>/<session>.jsonl), with sub-agents and sidechains as child sessions.',
  layout: 'a Claude Code config folder (projects/<slug>/<session>.jsonl)',
  detect: detectClaudeCode,
  defaultRoots: defaultClaudeRoots,
  discover: discoverClaudeCode,
  // Hindsight's own rewind ledger (src/formats/rewind-ledger.ts) is not a Claude Code transcript.
  createParser: (file, options) => (file.ledger === REWIND_LEDGER ? createRewindParser(file) : createClaudeCodeParser(file, options)),
  summarize: summarizeClaudeCode,
  usageCalls: claudeCodeUsageCalls,
  // A sub-agent's file (`<session>/subagents/agent-<id>.jsonl`) is also its parent's `agent-<id>` ledger.
  nestedChildLedgers: true,
  usageLines,
  usageGroups,
  profile: claudeProfile,
});
