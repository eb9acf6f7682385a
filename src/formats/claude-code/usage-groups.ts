// Claude Code's session groups for the usage pass (Importer.usageGroups): a session's transcript,
// its sub-agents' files and meta documents (`<session>/subagents/`) and its rewind ledger hold all of
// that session's records and its children's (inline sidechains live in the transcript), so each
// top-level session with its folder is one group, keyed by its id. Discovery names every one of
// those files' sessions from the layout (discover.ts).
//
// An older-layout `agent-<id>.jsonl` beside the transcripts, or a transcript whose lines name no
// session, has no session from the layout: its parent is only known from its lines, so the root
// is not cut (null) and the pass puts its files' usage together whole.

import type { SourceFile } from '../importer.js';

export function usageGroups(files: readonly SourceFile[]): string[] | null {
  const keys: string[] = [];
  for (const file of files) {
    const session = file.facts?.[0]?.parentId ?? file.sessionId;
    if (session === undefined) return null;
    keys.push(session);
  }
  return keys;
}
