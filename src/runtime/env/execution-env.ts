// The one boundary between the agent and the machine: every file the runtime's handlers touch and
// every command they run goes through an ExecutionEnv. The Node implementation confines itself to
// a workspace root; the in-memory one lets tests run handlers without a disk or a shell.

import { defineError } from '../../core/errors.js';

/** How a command is run. Paths are relative to the workspace root. */
export interface ExecOptions {
  /** The working folder, relative to the root (default: the root). */
  cwd?: string;
  /** Killed (its whole process group) after this long; default DEFAULT_EXEC_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Bytes kept per stream (stdout, stderr); the rest is read and dropped. Default DEFAULT_MAX_OUTPUT_BYTES. */
  maxOutputBytes?: number;
  /** Aborting kills the command as a timeout does. */
  signal?: AbortSignal;
}

export interface ExecResult {
  /** The shell's exit status; a command killed by a signal reports 128 + the signal's number, as bash does. */
  exitCode: number;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** The caller's signal stopped it. */
  aborted: boolean;
  /** Either stream went past maxOutputBytes and was cut there. */
  truncated: boolean;
}

export type EntryKind = 'file' | 'folder' | 'other';

export interface EntryInfo {
  kind: EntryKind;
  /** Bytes (files); 0 for folders. */
  size: number;
}

export interface DirEntry {
  name: string;
  kind: EntryKind;
}

/**
 * Files and processes, confined to `root`. Paths are relative to the root; an absolute path is
 * accepted only when it lies inside the root. A path that leads out is refused with
 * PATH_OUTSIDE_WORKSPACE, never silently rewritten.
 */
export interface ExecutionEnv {
  /** The workspace root (a real path for the Node env). */
  readonly root: string;
  /** Whether a file or folder exists at the path. */
  fileExists(path: string): boolean;
  /** A file's text (UTF-8). */
  readFile(path: string): Promise<string>;
  /** A file's bytes (images and other binary files). */
  readBytes(path: string): Promise<Uint8Array>;
  /** Write a text file, creating its parent folders. */
  writeFile(path: string, content: string): Promise<void>;
  /** Create a folder and its parents; an existing folder is fine. */
  makeDir(path: string): Promise<void>;
  /** What is at the path, or null when nothing is. */
  stat(path: string): Promise<EntryInfo | null>;
  /** A folder's entries, sorted by name. */
  listDir(path: string): Promise<DirEntry[]>;
  /** Run `cmd` with `bash -lc` in the root (or options.cwd inside it). Never rejects for a failing command. */
  execCommand(cmd: string, options?: ExecOptions): Promise<ExecResult>;
}

export const DEFAULT_EXEC_TIMEOUT_MS = 120_000;
export const DEFAULT_MAX_OUTPUT_BYTES = 64 * 1024;

export const PathOutsideWorkspace = defineError(
  'PATH_OUTSIDE_WORKSPACE',
  (path: string, why: string) => `Refused path "${path}": ${why}. Give a path inside the workspace root, relative to it.`,
);

export const WorkspaceFileNotFound = defineError(
  'FILE_NOT_FOUND',
  (path: string) => `No file at "${path}" in the workspace. Check the path (relative to the workspace root).`,
);

export const WorkspaceWrongKind = defineError(
  'WRONG_KIND',
  (path: string, expected: EntryKind, actual: EntryKind) => `"${path}" is a ${actual}, not a ${expected}.`,
);
