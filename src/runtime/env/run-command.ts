// One command through `bash -lc`, bounded: a timeout and an abort kill the whole process group
// (so children the command started die with it), and each stream keeps at most a fixed number of
// bytes while the rest is drained, so a chatty command can neither fill memory nor block on a pipe.

import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import type { ExecResult } from './execution-env.js';

export interface RunCommandOptions {
  cwd: string;
  timeoutMs: number;
  maxOutputBytes: number;
  signal?: AbortSignal;
  /** The command's environment (default: this process's). */
  env?: NodeJS.ProcessEnv;
}

/**
 * After bash exits, how long to wait for its pipes to close: a background child (`sleep 60 &`)
 * inherits them and would otherwise hold the result until it ends.
 */
const PIPE_GRACE_MS = 250;

/** Bytes of one stream, kept up to a cap. */
class CappedBuffer {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  truncated = false;
  constructor(private readonly cap: number) {}

  push(chunk: Buffer): void {
    const room = this.cap - this.kept;
    if (room <= 0) {
      if (chunk.length > 0) this.truncated = true;
      return;
    }
    if (chunk.length > room) {
      this.chunks.push(chunk.subarray(0, room));
      this.kept += room;
      this.truncated = true;
      return;
    }
    this.chunks.push(chunk);
    this.kept += chunk.length;
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

function signalNumber(signal: NodeJS.Signals | null): number {
  return signal ? (constants.signals[signal] ?? 0) : 0;
}

/** Run `cmd`; resolves (never rejects) once bash has exited and its output is read. */
export function runCommand(cmd: string, options: RunCommandOptions): Promise<ExecResult> {
  return new Promise((resolvePromise) => {
    const stdout = new CappedBuffer(options.maxOutputBytes);
    const stderr = new CappedBuffer(options.maxOutputBytes);
    let timedOut = false;
    let aborted = false;
    let settled = false;

    if (options.signal?.aborted) {
      resolvePromise({ exitCode: 130, stdout: '', stderr: 'The command was not started: the run was aborted.', timedOut: false, aborted: true, truncated: false });
      return;
    }

    // detached: the command leads its own process group, which a timeout kills as one.
    const child = spawn('bash', ['-lc', cmd], { cwd: options.cwd, env: options.env ?? process.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const killGroup = () => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The group is already gone.
      }
    };

    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, options.timeoutMs);
    const onAbort = () => {
      aborted = true;
      killGroup();
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });

    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));

    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    const finish = (spawnError?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      child.stdout.destroy();
      child.stderr.destroy();
      if (spawnError) {
        resolvePromise({ exitCode: 127, stdout: '', stderr: `Could not start bash: ${spawnError.message}`, timedOut: false, aborted: false, truncated: false });
        return;
      }
      const code = exit?.code ?? 128 + signalNumber(exit?.signal ?? null);
      let errText = stderr.text();
      if (timedOut) errText += `${errText && !errText.endsWith('\n') ? '\n' : ''}[killed after ${options.timeoutMs} ms: timed out]`;
      if (aborted) errText += `${errText && !errText.endsWith('\n') ? '\n' : ''}[killed: the run was aborted]`;
      resolvePromise({ exitCode: code, stdout: stdout.text(), stderr: errText, timedOut, aborted, truncated: stdout.truncated || stderr.truncated });
    };

    child.on('error', (err) => finish(err));
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // The pipes usually close right after. A background child still holding them is killed with
      // its group, and the pipes then close; one that left the group (setsid) holding them is not
      // waited for past a second grace period.
      setTimeout(() => {
        killGroup();
        setTimeout(() => finish(), PIPE_GRACE_MS).unref();
      }, PIPE_GRACE_MS).unref();
    });
    child.on('close', () => finish());
  });
}
