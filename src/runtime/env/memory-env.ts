// An ExecutionEnv held in memory, for tests: files in a Map, commands answered from a scripted
// table (anything else is "command not found", exit 127, as bash says). It applies the same
// confinement rules as the Node env on its virtual root, so handler tests see the same refusals.

import { posix } from 'node:path';
import {
  PathOutsideWorkspace,
  WorkspaceFileNotFound,
  WorkspaceWrongKind,
  type DirEntry,
  type EntryInfo,
  type ExecOptions,
  type ExecResult,
  type ExecutionEnv,
} from './execution-env.js';

/** A scripted answer: a fixed result (missing fields are filled: exit 0, empty output) or a function of the command. */
export type ScriptedCommand = Partial<ExecResult> | ((cmd: string, options: ExecOptions) => Partial<ExecResult>);

export interface MemoryEnvOptions {
  root?: string;
  /** Files by workspace path. Strings are UTF-8 text. */
  files?: Record<string, string | Uint8Array>;
  /** Answers by command text (exact, else trimmed); a RegExp entry (checked in order) matches any command it finds. */
  commands?: Record<string, ScriptedCommand>;
  patterns?: readonly [RegExp, ScriptedCommand][];
}

const MEMORY_ROOT = '/workspace';

/**
 * @example
 * const env = new MemoryExecutionEnv({ files: { 'a.txt': 'hi\n' }, commands: { 'echo hi': { stdout: 'hi\n' } } });
 * await env.execCommand('echo hi'); // { exitCode: 0, stdout: 'hi\n', … }
 */
export class MemoryExecutionEnv implements ExecutionEnv {
  readonly root: string;
  private readonly files = new Map<string, Uint8Array>();
  private readonly folders = new Set<string>();
  private readonly commands: Record<string, ScriptedCommand>;
  private readonly patterns: readonly [RegExp, ScriptedCommand][];
  /** Every command asked for, in order, with its options (for assertions). */
  readonly ran: { cmd: string; options: ExecOptions }[] = [];

  constructor(options: MemoryEnvOptions = {}) {
    this.root = options.root ?? MEMORY_ROOT;
    this.folders.add(this.root);
    this.commands = options.commands ?? {};
    this.patterns = options.patterns ?? [];
    for (const [path, content] of Object.entries(options.files ?? {})) this.put(this.resolvePath(path), content);
  }

  /** The absolute virtual path of a workspace path, refusing what leads out of the root. */
  resolvePath(path: string): string {
    if (path.includes('\0')) throw PathOutsideWorkspace(path.replace(/\0/g, '\\0'), 'it contains a NUL byte');
    const absolute = posix.isAbsolute(path);
    const full = posix.resolve(this.root, path);
    if (full !== this.root && !full.startsWith(`${this.root}/`)) {
      throw PathOutsideWorkspace(path, absolute ? `it is an absolute path outside the workspace root ${this.root}` : 'it leads out of the workspace root by ".."');
    }
    return full;
  }

  private put(full: string, content: string | Uint8Array): void {
    for (let dir = posix.dirname(full); dir.length >= this.root.length; dir = posix.dirname(dir)) {
      if (this.files.has(dir)) throw WorkspaceWrongKind(posix.relative(this.root, dir), 'folder', 'file');
      this.folders.add(dir);
      if (dir === this.root) break;
    }
    if (this.folders.has(full)) throw WorkspaceWrongKind(posix.relative(this.root, full) || '.', 'file', 'folder');
    this.files.set(full, typeof content === 'string' ? Buffer.from(content, 'utf8') : content);
  }

  fileExists(path: string): boolean {
    const full = this.resolvePath(path);
    return this.files.has(full) || this.folders.has(full);
  }

  async readFile(path: string): Promise<string> {
    return Buffer.from(await this.readBytes(path)).toString('utf8');
  }

  async readBytes(path: string): Promise<Uint8Array> {
    const full = this.resolvePath(path);
    const bytes = this.files.get(full);
    if (bytes) return bytes;
    if (this.folders.has(full)) throw WorkspaceWrongKind(path, 'file', 'folder');
    throw WorkspaceFileNotFound(path);
  }

  async writeFile(path: string, content: string): Promise<void> {
    this.put(this.resolvePath(path), content);
  }

  async makeDir(path: string): Promise<void> {
    const full = this.resolvePath(path);
    for (let dir = full; dir.length >= this.root.length; dir = posix.dirname(dir)) {
      if (this.files.has(dir)) throw WorkspaceWrongKind(posix.relative(this.root, dir), 'folder', 'file');
      this.folders.add(dir);
      if (dir === this.root) break;
    }
  }

  async stat(path: string): Promise<EntryInfo | null> {
    const full = this.resolvePath(path);
    const bytes = this.files.get(full);
    if (bytes) return { kind: 'file', size: bytes.length };
    return this.folders.has(full) ? { kind: 'folder', size: 0 } : null;
  }

  async listDir(path: string): Promise<DirEntry[]> {
    const full = this.resolvePath(path);
    if (this.files.has(full)) throw WorkspaceWrongKind(path, 'folder', 'file');
    if (!this.folders.has(full)) throw WorkspaceFileNotFound(path);
    const out: DirEntry[] = [];
    for (const f of this.files.keys()) if (posix.dirname(f) === full) out.push({ name: posix.basename(f), kind: 'file' });
    for (const d of this.folders) if (d !== full && posix.dirname(d) === full) out.push({ name: posix.basename(d), kind: 'folder' });
    return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async execCommand(cmd: string, options: ExecOptions = {}): Promise<ExecResult> {
    this.ran.push({ cmd, options });
    if (options.cwd !== undefined) this.resolvePath(options.cwd);
    const none: ExecResult = { exitCode: 0, stdout: '', stderr: '', timedOut: false, aborted: false, truncated: false };
    if (options.signal?.aborted) return { ...none, exitCode: 130, aborted: true, stderr: 'The command was not started: the run was aborted.' };
    const script = this.commands[cmd] ?? this.commands[cmd.trim()] ?? this.patterns.find(([re]) => re.test(cmd))?.[1];
    if (script === undefined) {
      const word = cmd.trim().split(/\s+/)[0] ?? cmd;
      return { ...none, exitCode: 127, stderr: `bash: ${word}: command not found\n` };
    }
    return { ...none, ...(typeof script === 'function' ? script(cmd, options) : script) };
  }
}
