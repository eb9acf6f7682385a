// The ExecutionEnv on the real machine, confined to a workspace root (confine-path.ts): every
// path is checked by real path before it is touched, and commands run in the root or a folder
// inside it.

import { existsSync, realpathSync, statSync, type Stats } from 'node:fs';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { confineToRoot } from './confine-path.js';
import {
  DEFAULT_EXEC_TIMEOUT_MS,
  DEFAULT_MAX_OUTPUT_BYTES,
  WorkspaceFileNotFound,
  WorkspaceWrongKind,
  type DirEntry,
  type EntryInfo,
  type EntryKind,
  type ExecOptions,
  type ExecResult,
  type ExecutionEnv,
} from './execution-env.js';
import { runCommand } from './run-command.js';

function kindOf(s: Stats): EntryKind {
  return s.isFile() ? 'file' : s.isDirectory() ? 'folder' : 'other';
}

function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/**
 * @example
 * const env = new NodeExecutionEnv('/work/project');
 * await env.writeFile('notes/todo.md', '- test\n');
 * const { exitCode, stdout } = await env.execCommand('ls notes');
 */
export interface NodeEnvOptions {
  /**
   * The environment commands run with (default: this process's). `bash -l` reads the login
   * profile from $HOME, so a different HOME gives commands a different profile.
   */
  env?: NodeJS.ProcessEnv;
}

export class NodeExecutionEnv implements ExecutionEnv {
  readonly root: string;
  private readonly givenRoot: string;
  private readonly commandEnv: NodeJS.ProcessEnv | undefined;

  constructor(root: string, options: NodeEnvOptions = {}) {
    this.commandEnv = options.env;
    this.givenRoot = resolve(root);
    let real: string;
    try {
      real = realpathSync(this.givenRoot);
    } catch {
      throw new Error(`The workspace root ${this.givenRoot} does not exist; create it or pick another folder.`);
    }
    if (!statSync(real).isDirectory()) throw new Error(`The workspace root ${this.givenRoot} is not a folder.`);
    this.root = real;
  }

  /** The real absolute path of a workspace path (throws PATH_OUTSIDE_WORKSPACE for one that leads out). */
  resolvePath(path: string): string {
    return confineToRoot(this.root, path, this.givenRoot);
  }

  fileExists(path: string): boolean {
    return existsSync(this.resolvePath(path));
  }

  async readFile(path: string): Promise<string> {
    return (await this.readBytes(path)).toString('utf8');
  }

  async readBytes(path: string): Promise<Buffer> {
    const real = this.resolvePath(path);
    try {
      return await readFile(real);
    } catch (err) {
      if (isMissing(err)) throw WorkspaceFileNotFound(path);
      if ((err as NodeJS.ErrnoException).code === 'EISDIR') throw WorkspaceWrongKind(path, 'file', 'folder');
      throw err;
    }
  }

  async writeFile(path: string, content: string): Promise<void> {
    const real = this.resolvePath(path);
    await mkdir(dirname(real), { recursive: true });
    try {
      await writeFile(real, content, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EISDIR') throw WorkspaceWrongKind(path, 'file', 'folder');
      throw err;
    }
  }

  async makeDir(path: string): Promise<void> {
    await mkdir(this.resolvePath(path), { recursive: true });
  }

  async stat(path: string): Promise<EntryInfo | null> {
    try {
      const s = await stat(this.resolvePath(path));
      const kind = kindOf(s);
      return { kind, size: kind === 'file' ? s.size : 0 };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async listDir(path: string): Promise<DirEntry[]> {
    const real = this.resolvePath(path);
    const info = await this.stat(path);
    if (!info) throw WorkspaceFileNotFound(path);
    if (info.kind !== 'folder') throw WorkspaceWrongKind(path, 'folder', info.kind);
    const entries = await readdir(real, { withFileTypes: true });
    return entries
      .map((e) => ({ name: e.name, kind: (e.isFile() ? 'file' : e.isDirectory() ? 'folder' : 'other') as EntryKind }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async execCommand(cmd: string, options: ExecOptions = {}): Promise<ExecResult> {
    const cwd = this.resolvePath(options.cwd ?? '.');
    const info = await this.stat(options.cwd ?? '.');
    if (info?.kind !== 'folder') {
      return {
        exitCode: 1,
        stdout: '',
        stderr: `The working folder "${options.cwd}" ${info ? `is a ${info.kind}` : 'does not exist'} in the workspace.`,
        timedOut: false,
        aborted: false,
        truncated: false,
      };
    }
    return runCommand(cmd, {
      cwd,
      timeoutMs: options.timeoutMs ?? DEFAULT_EXEC_TIMEOUT_MS,
      maxOutputBytes: options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(this.commandEnv ? { env: this.commandEnv } : {}),
    });
  }
}
