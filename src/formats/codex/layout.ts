// Where Codex keeps its rollouts and how their names read. Codex (codex-rs/rollout) writes each
// session to `${CODEX_HOME:-~/.codex}/sessions/YYYY/MM/DD/rollout-<local time>-<thread uuid>.jsonl`
// and moves archived ones to `archived_sessions/`; ccusage reads both folders, and a home that has
// neither as a folder of rollouts itself.

export { compareNames } from '../shared/fs-entries.js';

/** The folders of a Codex home that hold rollouts, active first (ccusage's order: the active copy wins). */
export const SESSION_FOLDERS = ['sessions', 'archived_sessions'] as const;

/** Every rollout is one ledger of one session. */
export const ROLLOUT_LEDGER = 'rollout';

/** `rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl` → the uuid at its end. */
const UUID_AT_END = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

export function isRolloutName(name: string): boolean {
  return name.startsWith('rollout-') && name.endsWith('.jsonl');
}

/**
 * The session id a rollout file's name gives: the thread uuid Codex puts at the end of the name
 * (the same id as its session_meta), else the name without `.jsonl`.
 */
export function sessionIdFromName(name: string): string {
  const stem = name.endsWith('.jsonl') ? name.slice(0, -'.jsonl'.length) : name;
  return UUID_AT_END.exec(stem)?.[1]?.toLowerCase() ?? stem;
}


/**
 * The project slug of a working directory, spelled as Claude Code spells its project folders
 * (every character but letters and digits becomes `-`: `/Users/me/my.repo` → `-Users-me-my-repo`),
 * so one project reads the same across formats.
 */
export function projectSlug(cwd: string): string {
  return cwd.replace(/[^A-Za-z0-9]/g, '-');
}
