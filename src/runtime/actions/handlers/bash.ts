// bash: one shell command in the workspace (ExecutionEnv.execCommand), its exit code and both
// streams returned; a non-zero exit or a timeout is a failed call, which recovery can act on.

import { z } from 'zod';
import type { ExecResult } from '../../env/execution-env.js';
import { specOf } from '../tool-spec.js';
import type { ActionHandler } from '../types.js';

const input = z
  .object({
    command: z.string().min(1).describe('The command, run with bash -lc in the workspace root.'),
    timeout_ms: z.number().int().min(1).optional().describe('Kill it after this many milliseconds (default 120000).'),
  })
  .strict();

/** The result as the model reads it: the exit line, then each non-empty stream. */
export function formatExecResult(r: ExecResult, timeoutMs: number, maxOutputBytes: number): string {
  const parts = [`exit code ${r.exitCode}${r.timedOut ? ` (killed: timed out after ${timeoutMs} ms)` : r.aborted ? ' (killed: the run was aborted)' : ''}`];
  if (r.stdout) parts.push(`stdout:\n${r.stdout}`);
  if (r.stderr) parts.push(`stderr:\n${r.stderr}`);
  if (!r.stdout && !r.stderr) parts.push('(no output)');
  if (r.truncated) parts.push(`[output cut at ${maxOutputBytes} bytes per stream]`);
  return parts.join('\n');
}

export const bashHandler: ActionHandler<typeof input> = {
  spec: specOf(
    'bash',
    'Run a shell command (bash -lc) in the workspace root and get its exit code, stdout and stderr. Output is capped per stream; long-running commands are killed at the timeout, with any background processes they started.',
    input,
  ),
  input,
  async run(args, ctx, limits) {
    const timeoutMs = Math.min(args.timeout_ms ?? limits.bashTimeoutMs, limits.maxBashTimeoutMs);
    const r = await ctx.env.execCommand(args.command, {
      timeoutMs,
      maxOutputBytes: limits.maxOutputBytes,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
    });
    return {
      isError: r.exitCode !== 0 || r.timedOut || r.aborted,
      content: formatExecResult(r, timeoutMs, limits.maxOutputBytes),
      data: { command: args.command, exitCode: r.exitCode, timedOut: r.timedOut, aborted: r.aborted, truncated: r.truncated, stderr: r.stderr },
    };
  },
};
