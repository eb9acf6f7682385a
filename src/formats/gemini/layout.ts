// What Gemini CLI's on-disk names mean (packages/core: Storage, ChatRecordingService,
// ProjectRegistry). Pure names and patterns, so discovery, detection and parsers agree.
//
//   ~/.gemini/                      the home (GEMINI_DIR)
//     projects.json                 { projects: { <absolute project path>: <slug> } }
//     tmp/                          what GEMINI_DATA_DIR names for ccusage
//       <slug or sha256(path)>/     one folder per project (older CLIs: the hash; newer: a slug)
//         .project_root             the project's absolute path (newer CLIs)
//         logs.json                 the prompt log (not a session)
//         chats/
//           session-<start>-<id8>.json    older CLIs: one document, rewritten on every save
//           session-<start>-<id8>.jsonl   newer CLIs: a header line, then appended records
//           <parentSessionId>/<id>.jsonl  a sub-agent's conversation

export { compareNames } from '../shared/fs-entries.js';

export const TMP_DIR = 'tmp';
export const CHATS_DIR = 'chats';
export const PROJECT_ROOT_FILE = '.project_root';
export const PROJECTS_FILE = 'projects.json';
export const HISTORY_DIR = 'history';

/** A main session file of either layout. */
export const SESSION_FILE_RE = /^session-.+\.jsonl?$/;
/** A sub-agent's conversation inside `chats/<parentSessionId>/`. */
export const SUBAGENT_FILE_RE = /^[^.].*\.jsonl$/;

/** The session's conversation, JSONL layout. */
export const CHAT_LEDGER = 'chat';
/**
 * The session's conversation, legacy layout: one pretty-printed JSON document. A ledger name of
 * its own because its lines are not records (exports leave it out, as they do every document).
 */
export const DOCUMENT_LEDGER = 'chat.json';
/** A `.json` document the CLI migrated to `.jsonl` when the session was resumed (kept as evidence only). */
export const LEGACY_LEDGER = 'chat-legacy';


/** The file name without its `.json` / `.jsonl` extension. */
export function stemOf(name: string): string {
  return name.replace(/\.jsonl?$/, '');
}

/** The child session id of a sub-agent, as every format names children: `<parent>:<agent>`. */
export function subagentSessionId(parentId: string, agentId: string): string {
  return `${parentId}:${agentId}`;
}
