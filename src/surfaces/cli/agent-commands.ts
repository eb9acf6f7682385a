// `hindsight ask | chat | run | doctor | skills`: the agent runtime on the command line. Streams
// the answer as it comes on a terminal; prints plain lines (the final answer) when piped; --json
// prints the result and the session id. Loaded only when one of these commands runs.

import { createInterface } from 'node:readline';
import type { TurnResult } from '../../runtime/session/turn-result.js';
import type { AgentFlagValues, Runtime, RuntimeSetup } from '../../runtime/session/build-runtime.js';
import { UsageError } from './usage-error.js';

export interface AgentCommandInput {
  command: 'ask' | 'chat' | 'run' | 'doctor' | 'skills';
  positionals: string[];
  flags: AgentFlagValues & { json: boolean; resume?: string };
}

export interface AgentIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/** The parsed command line's values as the agent commands read them. */
export function agentFlagsOf(values: Record<string, unknown>): AgentCommandInput['flags'] {
  const str = (name: string) => (typeof values[name] === 'string' || typeof values[name] === 'number' ? String(values[name]) : undefined);
  const flags: AgentCommandInput['flags'] = { json: values.json === true };
  for (const name of ['provider', 'model', 'base-url', 'parser', 'budget', 'max-steps', 'log-level', 'db', 'workspace', 'allow', 'resume'] as const) {
    const v = str(name);
    if (v !== undefined) (flags as unknown as Record<string, unknown>)[name] = v;
  }
  return flags;
}

const defaultIo = (): AgentIo => ({ stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, cwd: process.cwd() });

export async function runAgentCommand(input: AgentCommandInput, io: AgentIo = defaultIo()): Promise<number> {
  switch (input.command) {
    case 'skills':
      return skillsCommand(input, io);
    case 'doctor': {
      const { runDoctor } = await import('../../runtime/session/doctor.js');
      const report = await runDoctor({ flags: input.flags, env: io.env, cwd: io.cwd });
      if (input.flags.json) io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      else for (const check of report.checks) io.stdout.write(`${check.ok ? '✓' : '✗'} ${check.name}: ${check.detail}\n`);
      return report.ok ? 0 : 1;
    }
    case 'ask':
    case 'run': {
      const text = input.positionals.join(' ').trim();
      if (!text) throw new UsageError(`${input.command} needs ${input.command === 'ask' ? 'a QUESTION' : 'a TASK'}`);
      return oneShot(input, text, io);
    }
    case 'chat':
      return chatCommand(input, io);
  }
}

async function skillsCommand(input: AgentCommandInput, io: AgentIo): Promise<number> {
  const { loadSkills, skillFolders } = await import('../../runtime/agents/skills.js');
  const workspace = input.flags.workspace ?? io.cwd;
  const skills = loadSkills(io.env, workspace);
  if (input.flags.json) {
    io.stdout.write(`${JSON.stringify({ folders: skillFolders(io.env, workspace), skills: skills.map(({ text, ...s }) => ({ ...s, bytes: Buffer.byteLength(text) })) }, null, 2)}\n`);
    return 0;
  }
  const folders = skillFolders(io.env, workspace);
  if (skills.length === 0) io.stdout.write(`No skills. Add markdown files to ${folders.user} or ${folders.workspace}.\n`);
  for (const s of skills) io.stdout.write(`${s.name.padEnd(24)} ${s.source.padEnd(9)} ${s.summary}\n  ${s.path}\n`);
  return 0;
}

/** The printer of one answer: deltas as they stream on a terminal, the final text otherwise. */
function answerPrinter(io: AgentIo, json: boolean) {
  const live = !json && io.stdout.isTTY === true;
  let streamed = false;
  return {
    onDelta: live
      ? (d: { type: string; text?: string }) => {
          if (d.type === 'content' && d.text) {
            io.stdout.write(d.text);
            streamed = true;
          }
        }
      : undefined,
    onTool: json
      ? undefined
      : (t: { phase: 'start' | 'end'; name: string; arguments: unknown; isError?: boolean }) => {
          if (t.phase === 'start') io.stderr.write(`· ${t.name} ${preview(t.arguments)}\n`);
          else if (t.isError) io.stderr.write(`  ${t.name} failed\n`);
        },
    finish(result: TurnResult): void {
      if (json) {
        io.stdout.write(`${JSON.stringify(resultJson(result), null, 2)}\n`);
        return;
      }
      if (streamed) io.stdout.write('\n');
      else if (result.finalContent) io.stdout.write(`${result.finalContent}\n`);
      streamed = false;
      if (result.terminalState !== 'completed') io.stderr.write(`hindsight: the turn ended ${result.terminalState}${result.error ? `: ${result.error.message}` : ''}\n`);
    },
  };
}

function preview(args: unknown): string {
  const text = typeof args === 'string' ? args : JSON.stringify(args);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

function resultJson(result: TurnResult): Record<string, unknown> {
  return {
    status: result.terminalState === 'completed' ? 'ok' : 'error',
    session_id: result.sessionId,
    terminal_state: result.terminalState,
    content: result.finalContent,
    ...(result.structuredOutput !== undefined ? { structured_output: result.structuredOutput } : {}),
    steps: result.steps,
    tool_calls: result.toolCalls,
    usage: {
      input_tokens: result.usage.inputTokens,
      output_tokens: result.usage.outputTokens,
      cache_read_tokens: result.usage.cacheReadTokens,
      cache_creation_tokens: result.usage.cacheCreationTokens,
      reasoning_tokens: result.usage.reasoningTokens,
    },
    cost_usd: result.costUsd,
    ...(result.error ? { error: result.error } : {}),
    ...(result.handoffSessionId ? { handoff_session_id: result.handoffSessionId } : {}),
  };
}

/**
 * The runtime, or a usage error (exit 2, one sentence, no stack) when it cannot be set up: a bad
 * config file or flag, a provider without its key, a session to resume that does not exist.
 */
async function startRuntime(setup: RuntimeSetup): Promise<Runtime> {
  const { buildRuntime } = await import('../../runtime/session/build-runtime.js');
  try {
    return await buildRuntime(setup);
  } catch (err) {
    if (err instanceof Error && SETUP_ERRORS.has(err.name)) throw new UsageError(err.message);
    throw err;
  }
}

/** Errors that mean "fix the set-up": the config, the provider settings, the session named. */
const SETUP_ERRORS = new Set(['ConfigError', 'ProviderConfigError', 'ResumeError']);

async function oneShot(input: AgentCommandInput, text: string, io: AgentIo): Promise<number> {
  const printer = answerPrinter(io, input.flags.json);
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once('SIGINT', onSigint);
  const runtime = await startRuntime({
    mode: input.command === 'run' ? 'run' : 'ask',
    flags: input.flags,
    env: io.env,
    cwd: io.cwd,
    signal: controller.signal,
    onDelta: printer.onDelta,
    onTool: printer.onTool,
    warn: (line) => io.stderr.write(`hindsight: ${line}\n`),
  });
  try {
    const result = await runtime.turn(text);
    printer.finish(result);
    if (!input.flags.json && io.stderr.isTTY) io.stderr.write(`session ${result.sessionId}\n`);
    return result.terminalState === 'completed' ? 0 : 1;
  } finally {
    process.removeListener('SIGINT', onSigint);
    await runtime.close();
  }
}

async function chatCommand(input: AgentCommandInput, io: AgentIo): Promise<number> {
  const printer = answerPrinter(io, input.flags.json);
  // One controller per answer: Ctrl-C stops the answer in flight, not the chat.
  let controller = new AbortController();
  // Lines typed while the agent works steer it: each is added after the current step's tool results.
  const steering: string[] = [];
  const runtime = await startRuntime({
    mode: 'chat',
    flags: input.flags,
    env: io.env,
    cwd: io.cwd,
    signal: () => controller.signal,
    onDelta: printer.onDelta,
    onTool: printer.onTool,
    onSteeringCheck: () => steering.shift(),
    warn: (line) => io.stderr.write(`hindsight: ${line}\n`),
    ...(input.flags.resume ? { resume: input.flags.resume } : {}),
  });
  const rl = createInterface({ input: io.stdin, output: io.stdout, terminal: io.stdin.isTTY === true });
  if (io.stdin.isTTY) io.stdout.write(`session ${runtime.sessionId}${input.flags.resume ? ` (resumed from ${input.flags.resume})` : ''}; type while it works to steer it, Ctrl-C stops an answer, /exit or Ctrl-D ends\n`);
  let failures = 0;
  let busy = false;
  const pending: string[] = [];
  const done = new Promise<void>((resolve) => {
    const next = async (): Promise<void> => {
      const text = pending.shift();
      if (text === undefined) return;
      if (text === '/exit' || text === '/quit') {
        rl.close();
        return;
      }
      busy = true;
      controller = new AbortController();
      const result = await runtime.turn(text);
      busy = false;
      printer.finish(result);
      if (result.terminalState !== 'completed' && result.terminalState !== 'aborted' && result.terminalState !== 'handoff') failures += 1;
      await next();
    };
    rl.on('line', (line) => {
      const text = line.trim();
      if (!text) return;
      // Typed on a terminal while the agent works: steering. Piped lines are turns, one after another.
      if (busy && io.stdin.isTTY === true && text !== '/exit' && text !== '/quit') {
        steering.push(text);
        return;
      }
      pending.push(text);
      if (!busy) void next();
    });
    rl.on('SIGINT', () => {
      if (busy) controller.abort();
      else rl.close();
    });
    rl.on('close', () => {
      const wait = () => (busy || pending.length > 0 ? setTimeout(wait, 50) : resolve());
      wait();
    });
  });
  try {
    await done;
  } finally {
    await runtime.close();
  }
  return failures > 0 ? 1 : 0;
}
