// ActionExecutor: one tool call in, one result out, never a throw. The handler map answers first
// (read, edit, write, bash, memory, view_image); any other name falls through to the Hindsight tool
// registry; a name neither knows is an error listing the names that exist. Same bash command three
// times in one turn is refused without running (seed §2's repetition guard).

import { performance } from 'node:perf_hooks';
import { HindsightError } from '../../core/errors.js';
import { DEFAULT_EXEC_TIMEOUT_MS, DEFAULT_MAX_OUTPUT_BYTES } from '../env/execution-env.js';
import type { ToolCallRequest } from '../model/chat.js';
import { createDefaultHandlerMap } from './handler-map.js';
import { registryToolNames, runRegistryTool } from './registry-fallback.js';
import { describeIssues } from './tool-spec.js';
import type { ActionContext, ActionResult, HandlerLimits, HandlerMap, HandlerOutcome } from './types.js';

export const DEFAULT_HANDLER_LIMITS: HandlerLimits = {
  maxSingleReadResultTokens: 12_000,
  bashTimeoutMs: DEFAULT_EXEC_TIMEOUT_MS,
  maxBashTimeoutMs: 600_000,
  maxOutputBytes: DEFAULT_MAX_OUTPUT_BYTES,
};

/** The run of the same bash command within one turn that is refused (the first two run). */
export const BASH_REPEAT_LIMIT = 3;

export interface ActionExecutorOptions {
  handlers?: HandlerMap;
  limits?: Partial<HandlerLimits>;
  /** Let unknown names fall through to the Hindsight registry (default true). */
  registry?: boolean;
}

const PREVIEW_CHARS = 200;

function preview(text: string): string {
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text;
}

/**
 * @example
 * const executor = new ActionExecutor();
 * const ctx = { env: new NodeExecutionEnv('.'), inspectionLedger: new InspectionLedger(), turn: 1 };
 * const r = await executor.execute({ id: 'c1', name: 'read', arguments: { path: 'README.md' } }, ctx);
 */
export class ActionExecutor {
  readonly handlers: HandlerMap;
  readonly limits: HandlerLimits;
  private readonly registry: boolean;
  private readonly bashRuns = new Map<string, number>();

  constructor(options: ActionExecutorOptions = {}) {
    this.handlers = options.handlers ?? createDefaultHandlerMap();
    this.limits = { ...DEFAULT_HANDLER_LIMITS, ...options.limits };
    this.registry = options.registry ?? true;
  }

  /** A new turn: the repetition guard starts counting again. */
  resetTurn(): void {
    this.bashRuns.clear();
  }

  /** Every tool name this executor answers: its handlers, then the registry's. */
  knownNames(): string[] {
    return [...this.handlers.keys(), ...(this.registry ? registryToolNames() : [])];
  }

  async execute(call: ToolCallRequest, ctx: ActionContext): Promise<ActionResult> {
    const started = performance.now();
    const outcome = await this.outcomeOf(call, ctx);
    return { content: outcome.content, isError: outcome.isError === true, durationMs: performance.now() - started, ...(outcome.data ? { data: outcome.data } : {}) };
  }

  private async outcomeOf(call: ToolCallRequest, ctx: ActionContext): Promise<HandlerOutcome> {
    const args = call.arguments;
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      return { isError: true, content: `${call.name}: the arguments were not a JSON object: ${preview(typeof args === 'string' ? args : JSON.stringify(args))}` };
    }
    if (ctx.signal?.aborted) return { isError: true, content: `${call.name} was not run: the run was aborted.` };
    try {
      const handler = this.handlers.get(call.name);
      if (handler) {
        const parsed = handler.input.safeParse(args);
        if (!parsed.success) return { isError: true, content: `Invalid arguments for ${call.name}: ${describeIssues(parsed.error)}.` };
        if (call.name === 'bash') {
          const refused = this.guardBash(String((parsed.data as { command: string }).command));
          if (refused) return refused;
        }
        return await handler.run(parsed.data, ctx, this.limits);
      }
      if (this.registry) {
        if (!ctx.store && registryToolNames().includes(call.name)) {
          return { isError: true, content: `${call.name} needs the Hindsight store, which is not open in this run.` };
        }
        const envelope = ctx.store ? await runRegistryTool(call.name, args, { store: ctx.store, workspaceRoot: ctx.env.root }) : undefined;
        if (envelope) return { isError: envelope.status === 'error', content: JSON.stringify(envelope), data: envelope };
      }
      return { isError: true, content: `Unknown tool "${call.name}". Tools that exist: ${this.knownNames().join(', ')}.` };
    } catch (err) {
      // A refused path or a missing file is the model's to fix; anything else is still a failed
      // call, not a crashed session.
      if (err instanceof HindsightError) return { isError: true, content: err.message, data: { code: err.code } };
      return { isError: true, content: `${call.name} failed: ${(err as Error).message ?? String(err)}` };
    }
  }

  /** Counts the command; the third identical one in a turn (and later ones) is refused. */
  private guardBash(command: string): HandlerOutcome | undefined {
    const key = command.trim();
    const count = (this.bashRuns.get(key) ?? 0) + 1;
    this.bashRuns.set(key, count);
    if (count < BASH_REPEAT_LIMIT) return undefined;
    return {
      isError: true,
      content: `Not run: this exact command was already run ${count - 1} times this turn and would give the same result. Change the approach (or the command) instead of repeating it.`,
      data: { command, repeated: count, guard: 'bash_repetition' },
    };
  }
}
