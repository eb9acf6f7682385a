// What Amplifier's on-disk names mean: session id shapes, sub-agent ids, backup file names.
// Pure functions only, so discovery, parsers and the summariser agree on one reading.

export { compareNames } from '../shared/fs-entries.js';

/** `{parent_span}-{child_span}_{agent}` as written by Amplifier's sub-session spawner. */
const SUBAGENT_ID_RE = /^([0-9a-f]{16})-([0-9a-f]{16})_(.+)$/;
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The parent span of a sub-agent spawned directly by a root session (no span of its own). */
export const ROOT_PARENT_SPAN = '0000000000000000';

export interface SubagentId {
  parentSpan: string;
  childSpan: string;
  /**
   * The agent name as sanitised into the id (lower-case, every run of non-alphanumerics turned
   * into '-'), so 'foundation:explorer' reads 'foundation-explorer'. metadata.json has the real name.
   */
  agentSlug: string;
}

/** Parse a sub-agent session id, or null when the id is not one. */
export function parseSubagentId(id: string): SubagentId | null {
  const m = SUBAGENT_ID_RE.exec(id);
  if (!m) return null;
  return { parentSpan: m[1]!, childSpan: m[2]!, agentSlug: m[3]! };
}

/**
 * Amplifier's own top-level test is `"_" not in session_id`; we also require the span shape so a
 * stray folder with an underscore is not promoted to a sub-agent.
 */
export function isSubagentId(id: string): boolean {
  return SUBAGENT_ID_RE.test(id) || (id.includes('_') && !UUID_RE.test(id));
}

export function isUuid(id: string): boolean {
  return UUID_RE.test(id);
}

/** The three files a session folder may hold, with their ledger and merge rank. */
export const SESSION_FILES = [
  { name: 'metadata.json', ledger: 'metadata', rank: 2, kind: 'document' },
  { name: 'transcript.jsonl', ledger: 'transcript', rank: 0, kind: 'jsonl' },
  { name: 'events.jsonl', ledger: 'events', rank: 1, kind: 'jsonl' },
] as const;

export type BackupKind = 'backup' | 'rewind' | 'repair';

export interface BackupName {
  kind: BackupKind;
  /** The file it is a copy of ('transcript.jsonl'). */
  of: string;
  /** The writer's timestamp suffix for rewind/repair backups. */
  stamp?: string;
}

const REWRITE_RE = /^(.+)\.bak-pre-(rewind|repair)-(.+)$/;

/**
 * Classify a backup file name. `<file>.backup` is the previous version kept on every second
 * write (routine); `<file>.bak-pre-rewind-<ts>` / `.bak-pre-repair-<ts>` mean history was rewritten.
 */
export function parseBackupName(name: string): BackupName | null {
  const m = REWRITE_RE.exec(name);
  if (m) return { kind: m[2] as 'rewind' | 'repair', of: m[1]!, stamp: m[3]! };
  if (name.endsWith('.backup') && name.length > '.backup'.length) {
    return { kind: 'backup', of: name.slice(0, -'.backup'.length) };
  }
  return null;
}

