// Where the runtime writes its sessions and how their paths read: one file per session,
// `<sessions root>/YYYY/MM/DD/<session id>.jsonl` (the UTC day the session started), the root
// being `$XDG_DATA_HOME/hindsight/sessions`, else `~/.local/share/hindsight/sessions`.

import { homedir } from 'node:os';
import { join } from 'node:path';

export { compareNames } from '../shared/fs-entries.js';

/** The format id: the runtime's own sessions. */
export const HINDSIGHT_FORMAT = 'hindsight';

/** A session is one file, one ledger. */
export const SESSION_LEDGER = 'session';

/** The folder below the data home that holds the date folders. */
export const SESSIONS_FOLDER = 'sessions';

/** Date folders (`2026`, `05`, `11`) are the only folders the recorder makes below the root. */
export const DATE_FOLDER = /^\d{2,4}$/;

/**
 * Where sessions are recorded on this machine (whether or not the folder exists yet).
 *
 * @example defaultSessionsRoot({ XDG_DATA_HOME: '/data' }, '/home/me') // '/data/hindsight/sessions'
 */
export function defaultSessionsRoot(env: NodeJS.ProcessEnv = process.env, home: string = homedir()): string {
  const dataHome = env.XDG_DATA_HOME?.trim() || join(home, '.local', 'share');
  return join(dataHome, HINDSIGHT_FORMAT, SESSIONS_FOLDER);
}

/**
 * A session's file, relative to the sessions root, for a session started at `at` (UTC day).
 *
 * @example sessionRelPath('5f0c…', new Date('2026-05-11T08:00:00Z')) // '2026/05/11/5f0c….jsonl'
 */
export function sessionRelPath(sessionId: string, at: Date): string {
  const day = at.toISOString().slice(0, 10).split('-');
  return `${day[0]}/${day[1]}/${day[2]}/${sessionId}.jsonl`;
}

/** `<id>.jsonl` → the session id; null for a name that is not a session file. */
export function sessionIdFromName(name: string): string | null {
  if (!name.endsWith('.jsonl')) return null;
  const stem = name.slice(0, -'.jsonl'.length);
  return /^[\w.:-]{1,200}$/.test(stem) ? stem : null;
}

/**
 * A session file's first line, as the detector recognises it: a session_start record that names
 * the runtime version that wrote it.
 */
export function isSessionHead(firstLine: string): boolean {
  return /"type"\s*:\s*"session_start"/.test(firstLine) && /"hindsight_version"\s*:/.test(firstLine);
}

/**
 * The project slug of a working directory, spelled as the other formats spell it (every
 * character but letters and digits becomes `-`), so one project reads the same across formats.
 */
export function projectSlug(cwd: string): string {
  return cwd.replace(/[^A-Za-z0-9]/g, '-');
}
