// Everything a runtime session is made of, wired once: config → provider client, the store (for
// the analyst's tools and the record), the recorder, logger, tracer, event bus with the permission
// hooks, executor, context budget, metrics, recovery and handoff. The CLI commands and the
// end-to-end tests build sessions here, so what is tested is what runs.

import { packageVersion } from '../../core/package-info.js';
import { defaultSessionsRoot } from '../../formats/hindsight/index.js';
import { defaultDbPath } from '../../store/open.js';
import type { RuntimeMode } from '../../formats/hindsight/records.js';
import type { Store } from '../../store/store.js';
import { findTool } from '../../tools/registry.js';
import { callCost } from '../../usage/cost.js';
import { ActionExecutor, InspectionLedger, handlerToolSpecs, registryToolSpecs } from '../actions/index.js';
import { agentProfile } from '../agents/profiles.js';
import { loadSkills, withSkills } from '../agents/skills.js';
import { loadRuntimeConfig, providerSettingsOf, type RuntimeConfig, type RuntimeFlagValues } from '../config/index.js';
import { compactMessagesMultiStage, effectiveInputLimit, prepareModelMessages, resolveContextBudget, TokenLedger, type ContextBudgetSettings } from '../context/index.js';
import { NodeExecutionEnv } from '../env/node-env.js';
import { createRuntimeEventBus, parseAllowFlag, permissionHook } from '../events/index.js';
import { selectDispatch } from '../executor-rules/index.js';
import { humanLineSink, Logger, recordSink, type LogLevel } from '../logging/index.js';
import { bindMemory, type AgentMemory } from '../memory/memory.js';
import { openAgentMemory } from '../memory/open-memory.js';
import { CostTracker, StepMetrics, TokenCounter } from '../metrics/index.js';
import type { ChatDelta, ChatMessage, ModelClient, ModelToolSpec } from '../model/chat.js';
import { createModelClient, isProviderError, type ProviderFactoryResult } from '../providers/index.js';
import { createRecorder, type SessionRecorder } from '../recording/recorder.js';
import { classifyResultForRecovery, RecoveryManager } from '../recovery/index.js';
import { SpanTracer } from '../telemetry/index.js';
import { buildHandoff } from './handoff.js';
import type { CompletedSpan } from '../telemetry/index.js';
import type { SessionParts } from './parts.js';
import { findSessionFiles, readRecordedConversation } from './resume.js';
import { Session } from './session.js';
import type { TurnResult } from './turn-result.js';
import { startTurnWithRecovery, type RecoveryPort } from './with-recovery.js';

/** The agent commands' flag values as the CLI parsed them. */
export interface AgentFlagValues extends RuntimeFlagValues {
  db?: string;
  workspace?: string;
  allow?: string;
}

export interface RuntimeSetup {
  mode: RuntimeMode;
  flags: AgentFlagValues;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** The signal of the answer in flight: a fixed one (ask, run) or chat's per-answer one. */
  signal?: AbortSignal | (() => AbortSignal);
  onDelta?: (delta: ChatDelta) => void;
  onTool?: (event: { phase: 'start' | 'end'; name: string; arguments: unknown; isError?: boolean; content?: string }) => void;
  /** One line for the person (store unavailable, memory kept in process…), said once each. */
  warn: (line: string) => void;
  /** chat --resume: the recorded session to continue (id or unique prefix). */
  resume?: string;
  /** Ask for structured output (a classify exchange): the answer is one JSON value matching the schema. */
  structuredOutput?: { name?: string; schema: Record<string, unknown> };
  /** Soft steering: a user message to add after a step's tool results (chat types it while the agent works). */
  onSteeringCheck?: () => string | undefined;
  /** Tests: a store already open (left open on close). Default: the store `--db` names, opened here. */
  store?: Store | null;
  /** Benches: a model client in process instead of the provider's (the provider's own time left out). */
  client?: ModelClient;
  /** Tests: context budget overrides (small windows reach compaction quickly). */
  contextBudget?: Partial<ContextBudgetSettings>;
  /** Tests: the provider's retry waits. */
  retry?: { baseDelayMs?: number; maxDelayMs?: number };
}

export interface Runtime {
  readonly sessionId: string;
  readonly recordPath: string;
  readonly session: Session;
  readonly provider: ProviderFactoryResult['metadata'];
  readonly config: RuntimeConfig;
  /** One user turn, with recovery and handoff. */
  turn(text: string): Promise<TurnResult>;
  close(): Promise<void>;
}

/** Environment variables a command run by the agent must not see: the provider keys among them. */
const SECRET_ENV = /(KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL)/i;

function commandEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !SECRET_ENV.test(name)));
}

function humanLevel(flags: AgentFlagValues, env: NodeJS.ProcessEnv, config: RuntimeConfig): LogLevel {
  // The record keeps info and above whatever the terminal shows; the terminal stays quiet (warn)
  // unless a level was asked for.
  const asked = flags['log-level'] !== undefined || env.HINDSIGHT_LOG_LEVEL !== undefined;
  return asked ? config.logLevel : 'warn';
}

async function openStoreQuietly(db: string | undefined, warn: (line: string) => void): Promise<Store | null> {
  try {
    const { openStore } = await import('../../store/open.js');
    return await openStore({ db, mustExist: false });
  } catch (err) {
    warn(`the store could not be opened (${(err as Error).message}); the analyst's tools will say so, and the session is still recorded to its file`);
    return null;
  }
}

export async function buildRuntime(setup: RuntimeSetup): Promise<Runtime> {
  const { flags, env, mode } = setup;
  const config = loadRuntimeConfig(flags, env);
  const provider = createModelClient(
    providerSettingsOf(config),
    {
      env,
      onRetry: (notice) => setup.warn(`the provider call failed (${notice.error.message}); retry ${notice.attempt} in ${Math.round(notice.delayMs / 100) / 10} s`),
      ...(setup.retry ? { retry: setup.retry } : {}),
    },
  );
  const meta = provider.metadata;
  const workspace = flags.workspace ?? setup.cwd;
  const profile = agentProfile(mode, config.toolsAllowed ?? undefined);

  const ownsStore = setup.store === undefined;
  const store = setup.store !== undefined ? setup.store : await openStoreQuietly(flags.db, setup.warn);

  // Resume: the recorded conversation comes back from its file; the record continues in it.
  let resumed: ReturnType<typeof readRecordedConversation> | null = null;
  if (setup.resume) resumed = resolveResume(setup.resume, env);

  const signalOf = typeof setup.signal === 'function' ? setup.signal : () => setup.signal as AbortSignal | undefined;
  const memoryOpened = await openAgentMemory(store?.location ?? flags.db ?? defaultDbPath(env), env);
  if (memoryOpened.warning) setup.warn(memoryOpened.warning);
  const memory: AgentMemory = memoryOpened.memory;
  const executionEnv = new NodeExecutionEnv(workspace, { env: commandEnv(env) });
  const executor = new ActionExecutor();
  const inspectionLedger = new InspectionLedger();
  const handlerNames = new Set(executor.handlers.keys());
  const tools: ModelToolSpec[] = [
    ...handlerToolSpecs().filter((t) => profile.tools.includes(t.name)),
    ...registryToolSpecs(profile.tools.filter((n) => !handlerNames.has(n))),
  ];
  const systemPrompt = withSkills(profile.systemPrompt, loadSkills(env, workspace));
  const budget = resolveContextBudget(setup.contextBudget ?? {});
  const ledger = new TokenLedger();
  // One meter for the run: a handoff child's calls count towards the same --budget.
  const metrics = new StepMetrics(new TokenCounter(), new CostTracker({ priceCall: (model, tokens) => callCost(model, tokens, null, 'calculate').usd }), {
    model: meta.model,
    local: meta.local,
  });
  const bus = createRuntimeEventBus({ onHandlerError: (info) => process.stderr.write(`hindsight: an event handler failed: ${String(info.error)}\n`) });
  bus.onControl('pre_tool_use', permissionHook(parseAllowFlag(mode === 'run' ? flags.allow : undefined)));
  // Registry tools that change files (rewind with apply) are the person's to run, never the agent's.
  bus.onControl('pre_tool_use', (e) =>
    findTool(e.toolName)?.destructive ? { allow: false, reason: `${e.toolName} changes files; run it yourself with the hindsight command` } : { allow: true },
  );
  const human = humanLineSink({ minLevel: humanLevel(flags, env, config), write: (line) => process.stderr.write(`${line}\n`) });

  /** A session recorded by `recorder`: its own logger, tracer and memory view over the shared parts. */
  const sessionFor = (recorder: SessionRecorder, messages: ChatMessage[], firstTurn?: number): Session => {
    const sessionId = recorder.sessionId;
    const logger = new Logger({ level: config.logLevel, context: { sessionId }, sinks: [human, recordSink((entry) => recorder.record(entry))] });
    const tracer = new SpanTracer({ seed: sessionId, onEnd: (span) => recorder.record(spanRecord(span)) });
    const parts: SessionParts = {
      sessionId,
      providerId: meta.providerId,
      model: meta.model,
      executor: {
        resetTurn: () => executor.resetTurn(),
        execute: (call, at) =>
          executor.execute(call, {
            env: executionEnv,
            ...(store ? { store } : {}),
            memory: bindMemory(memory, sessionId),
            inspectionLedger,
            turn: at.turn,
            ...(at.signal ? { signal: at.signal } : {}),
          }),
      },
      selectDispatch,
      context: {
        inputLimit: effectiveInputLimit(budget),
        prepare: (conversation) => {
          const r = prepareModelMessages(conversation, budget, { ledger });
          return { messages: r.messages, tokens: r.stats.tokens, conversation: r.conversation, compaction: r.compaction, failed: r.failed };
        },
        estimate: (conversation) => ledger.total(conversation),
        compact: (conversation) => compactMessagesMultiStage(conversation, budget, { ledger }),
      },
      metrics,
      tracer: tracerPort(tracer),
      logger,
      bus: bus as unknown as SessionParts['bus'],
      recorder,
      describeError,
    };
    return new Session({
      ...parts,
      client: setup.client ?? provider.client,
      messages,
      tools,
      toolsAllowed: profile.tools,
      maxModelSteps: config.maxSteps,
      ...(config.budgetUsd !== null ? { maxBudgetUsd: config.budgetUsd } : {}),
      abortSignal: signalOf,
      ...(setup.onDelta ? { onDelta: setup.onDelta } : {}),
      ...(setup.onTool ? { onTool: setup.onTool } : {}),
      ...(setup.structuredOutput ? { structuredOutput: setup.structuredOutput } : {}),
      ...(setup.onSteeringCheck ? { onSteeringCheck: setup.onSteeringCheck } : {}),
      ...(firstTurn !== undefined ? { firstTurn } : {}),
    });
  };

  /** A new session's record: its start line and system prompt. */
  const startRecord = (recorder: SessionRecorder, parentId?: string): ChatMessage[] => {
    recorder.record({
      type: 'session_start',
      mode,
      provider: meta.providerId,
      model: meta.model,
      cwd: workspace,
      agent: profile.name,
      tools_allowed: [...profile.tools],
      ...(parentId ? { parent_session_id: parentId } : {}),
      hindsight_version: packageVersion(),
    });
    recorder.record({ type: 'message', role: 'system', content: systemPrompt, turn: 0 });
    return [{ role: 'system', content: systemPrompt }];
  };

  const recorderOptions = { store, env, onStoreWarning: (message: string) => setup.warn(message) };
  const recorder = createRecorder({ ...recorderOptions, ...(resumed ? { sessionId: resumed.sessionId } : {}) });
  const session = resumed ? sessionFor(recorder, resumed.messages, resumed.turns) : sessionFor(recorder, startRecord(recorder));
  const sessionId = session.id;
  bus.emit('session_start', { sessionId, mode, provider: meta.providerId, model: meta.model } as never);

  const recovery = recoveryPort(new RecoveryManager());
  const handoff = buildHandoff({
    parentRecorder: recorder,
    async newChild(parentId) {
      const childRecorder = createRecorder(recorderOptions);
      const child = sessionFor(childRecorder, startRecord(childRecorder, parentId));
      await memory.inherit(parentId, child.id);
      return { session: child, recorder: childRecorder };
    },
  });

  return {
    sessionId,
    recordPath: recorder.path,
    session,
    provider: meta,
    config,
    turn: (text) => startTurnWithRecovery(session, text, recovery, { handoff, recorder, signal: signalOf() }),
    async close() {
      bus.emit('session_shutdown', { sessionId } as never);
      await recorder.close();
      await memory.close?.();
      if (ownsStore) await store?.close();
    },
  };
}

/** The session to resume cannot be: none or several match, or its file has no start line. */
export class ResumeError extends Error {
  override name = 'ResumeError';
}

/** The recorded session `ref` names (id or unique prefix) under the runtime's sessions root. */
function resolveResume(ref: string, env: NodeJS.ProcessEnv): ReturnType<typeof readRecordedConversation> {
  const root = defaultSessionsRoot(env);
  const files = findSessionFiles(root, ref);
  if (files.length === 0) throw new ResumeError(`no recorded runtime session starts with "${ref}" under ${root} (see hindsight sessions --format hindsight)`);
  if (files.length > 1) throw new ResumeError(`"${ref}" matches ${files.length} recorded sessions; give more of the id`);
  const resumed = readRecordedConversation(files[0]!);
  if (!resumed.sessionId) throw new ResumeError(`${files[0]} has no session_start line, so it cannot be resumed`);
  return resumed;
}

function recoveryPort(manager: RecoveryManager): RecoveryPort {
  const outcomeOf = (result: TurnResult) => ({
    terminalState: result.terminalState,
    finalContent: result.finalContent,
    lastToolResults: result.toolOutcomes,
    recentCalls: result.toolOutcomes.map((t) => ({ name: t.name, arguments: t.arguments })),
    ...(result.error ? { errorKind: result.error.kind } : {}),
  });
  return {
    resetForTurn: () => manager.resetForTurn(),
    classify: (result) => classifyResultForRecovery(outcomeOf(result)),
    attempt: (scenario, result) => {
      const action = manager.attemptRecovery({ scenario: scenario as never, result: outcomeOf(result) });
      return action ? { message: action.message, attempt: action.attempt } : null;
    },
  };
}

/** A thrown error as the loop's kinds: provider errors by their kind, aborts as aborted. */
export function describeError(err: unknown): { kind: 'provider' | 'context_exhaustion' | 'aborted' | 'internal'; message: string } {
  if (isProviderError(err)) {
    if (err.kind === 'aborted') return { kind: 'aborted', message: 'aborted by the user' };
    if (err.kind === 'context_length') return { kind: 'context_exhaustion', message: err.message };
    return { kind: 'provider', message: err.message };
  }
  if (err instanceof Error && err.name === 'AbortError') return { kind: 'aborted', message: 'aborted by the user' };
  return { kind: 'internal', message: err instanceof Error ? err.message : String(err) };
}

function spanRecord(span: CompletedSpan) {
  return {
    type: 'span' as const,
    span_id: span.spanId,
    parent_span_id: span.parentSpanId,
    kind: span.kind,
    name: span.name,
    start: span.start,
    end: span.end,
    duration_ms: span.durationMs,
    attributes: { ...span.attributes, status: span.status, ...(span.error ? { error: span.error } : {}), ...(span.events.length ? { events: span.events } : {}) },
  };
}

type Active = Parameters<SpanTracer['endSpan']>[0];

function tracerPort(tracer: SpanTracer): SessionParts['tracer'] {
  return {
    startSpan: (init) => tracer.startSpan(init as never),
    startChildSpan: (parent, kind, attributes) => tracer.startChildSpan(parent as Active, kind, attributes as never),
    addEvent: (span, name, attributes) => tracer.addEvent(span as Active, name, attributes as never),
    endSpan: (span, status) => void tracer.endSpan(span as Active, status),
  };
}
