// The Session: one conversation with a model and the turn loop that drives it (seed §1).
// startTurn: preflight budget check → model call → token accounting → each tool call through the
// executor (permission hook first) with a post-tool budget check → a response with nothing left
// to dispatch completes the turn. startTurnWithRecovery wraps it with the recovery recipes and the
// handoff to a child session when the context is exhausted. Every step is recorded as it happens.

import type { ChatMessage, ChatResponse, ModelClient, ModelToolSpec, ProviderUsage, ToolCallRequest } from '../model/chat.js';
import type { TerminalState, TurnResult, ToolOutcomeSummary, TurnErrorKind } from './turn-result.js';
import type { SessionParts } from './parts.js';

/** Who wrote a user message: the person, or the runtime steering, recovering or handing off. */
export type MessageOrigin = 'person' | 'steering' | 'recovery' | 'handoff';

const ZERO_USAGE: ProviderUsage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheCreationTokens: 0, reasoningTokens: 0 };

export interface SessionOptions extends SessionParts {
  client: ModelClient;
  /** The conversation so far (a resumed session's messages); the system prompt first. */
  messages: ChatMessage[];
  /** The tools offered to the model. */
  tools: ModelToolSpec[];
  /** Calls the executor may dispatch (the seed's tools_allowed): absent or empty → nothing is dispatched. */
  toolsAllowed: readonly string[];
  maxModelSteps: number;
  /** Stop with budget_exhausted once the session's cost reaches this many dollars. */
  maxBudgetUsd?: number;
  structuredOutput?: { name?: string; schema: Record<string, unknown> };
  /** The signal of the answer in flight (chat makes one per answer); checked before each model step and tool call. */
  abortSignal?: () => AbortSignal | undefined;
  /** Soft steering: a user message to inject after the tool results of a step. */
  onSteeringCheck?: () => string | undefined;
  onDelta?: (delta: { type: 'content' | 'reasoning'; text: string } | { type: 'tool_call'; index: number; name: string }) => void;
  /** A resumed session's last turn number (turns continue from it). */
  firstTurn?: number;
  /** Called when a tool is about to run and when it finished (terminal progress lines). */
  onTool?: (event: { phase: 'start' | 'end'; name: string; arguments: unknown; isError?: boolean; content?: string }) => void;
}

class TurnStop extends Error {
  constructor(
    readonly state: TerminalState,
    readonly kind: TurnErrorKind | null,
    message: string,
  ) {
    super(message);
  }
}

export class Session {
  readonly id: string;
  readonly messages: ChatMessage[];
  /** File ranges the model has read, for the read handler and compaction notes. */
  readonly inspectionLedger: Map<string, Array<[number, number]>> = new Map();
  latestCompaction: { stage: string; tokensBefore: number; tokensAfter: number } | null = null;
  private turn = 0;
  private readonly o: SessionOptions;

  constructor(options: SessionOptions) {
    this.o = options;
    this.id = options.recorder?.sessionId ?? options.sessionId;
    this.messages = options.messages;
    this.turn = options.firstTurn ?? 0;
  }

  get turnNumber(): number {
    return this.turn;
  }

  /** The session's cumulative token usage and cost. */
  totals(): { usage: ProviderUsage; costUsd: number | null } {
    return this.o.metrics.totals();
  }

  /** One turn: the user's text in, model steps until an answer or a terminal state. */
  async startTurn(userText: string, origin: MessageOrigin = 'person'): Promise<TurnResult> {
    const o = this.o;
    this.turn += 1;
    const turn = this.turn;
    o.executor.resetTurn();
    this.append({ role: 'user', content: userText }, { turn, origin });
    o.bus.emit('turn_start', { sessionId: this.id, turn, task: userText });
    const turnSpan = o.tracer.startSpan({ kind: 'turn', name: `turn ${turn}`, attributes: { turn } });
    const outcomes: ToolOutcomeSummary[] = [];
    const usage = { ...ZERO_USAGE };
    let costUsd: number | null = 0;
    let steps = 0;
    let finalContent: string | null = null;
    let structuredOutput: unknown;
    let state: TerminalState = 'step_limit';
    let error: TurnResult['error'];

    try {
      for (;;) {
        if (steps >= o.maxModelSteps) {
          state = 'step_limit';
          error = { kind: 'internal', message: `stopped after ${o.maxModelSteps} model steps (--max-steps) without a final answer` };
          break;
        }
        this.checkAbort();
        steps += 1;
        const step = steps;
        const request = this.preflight(turn);
        o.bus.emit('model_step_started', { sessionId: this.id, turn, step });
        const started = Date.now();
        const response = await this.callModel(request, turn, step, turnSpan);
        const durationMs = Date.now() - started;
        const stepUsage = o.metrics.recordStep({ request, response });
        addUsage(usage, stepUsage.usage);
        costUsd = costUsd === null || stepUsage.costUsd === null ? null : costUsd + stepUsage.costUsd;
        o.recorder?.record({
          type: 'model_call',
          turn,
          step,
          provider: o.providerId,
          model: response.model || o.model,
          usage: {
            input_tokens: stepUsage.usage.inputTokens,
            output_tokens: stepUsage.usage.outputTokens,
            cache_read_tokens: stepUsage.usage.cacheReadTokens,
            cache_creation_tokens: stepUsage.usage.cacheCreationTokens,
            reasoning_tokens: stepUsage.usage.reasoningTokens,
          },
          usage_source: stepUsage.source,
          finish_reason: response.finishReason,
          response_id: response.responseId,
          duration_ms: durationMs,
          cost_usd: stepUsage.costUsd ?? 0,
        });
        o.bus.emit('token_usage', { sessionId: this.id, turn, step, usage: stepUsage.usage, source: stepUsage.source, costUsd: stepUsage.costUsd });

        const selection = o.selectDispatch({ toolCalls: response.toolCalls, content: response.content, toolsAllowed: o.toolsAllowed });
        if (selection.filtered.length > 0) {
          o.logger.info('tool calls not in tools_allowed were not run', { turn, step, names: selection.filtered });
        }
        // Only the calls that run stay in the conversation: a call without a result would break
        // the tool-call/tool-result pairing on the next request.
        this.append(
          { role: 'assistant', content: response.content, reasoning: response.reasoning, toolCalls: selection.dispatch.length > 0 ? selection.dispatch : undefined },
          { turn, step },
        );
        if (selection.structuredOutput !== undefined && structuredOutput === undefined) structuredOutput = selection.structuredOutput;
        if (selection.finalContent !== null) finalContent = selection.finalContent;

        if (o.maxBudgetUsd !== undefined && o.metrics.isOverBudget(o.maxBudgetUsd)) {
          throw new TurnStop('budget_exhausted', 'budget_usd', `the session cost reached the --budget of $${o.maxBudgetUsd}`);
        }
        if (selection.done) {
          state = 'completed';
          break;
        }

        for (const call of selection.dispatch) outcomes.push(await this.runTool(call, turn, step, turnSpan));
        this.postToolBudgetCheck(turn);
        const steer = o.onSteeringCheck?.();
        if (steer) this.append({ role: 'user', content: steer }, { turn, origin: 'steering' });
        // Not awaited: the store catches up while the next model call runs (the recorder merges
        // overlapping syncs); the turn's end waits for it.
        void o.recorder?.sync();
      }
    } catch (err) {
      if (err instanceof TurnStop) {
        state = err.state;
        if (err.kind) error = { kind: err.kind, message: err.message };
      } else {
        const described = o.describeError(err);
        state = described.kind === 'aborted' ? 'aborted' : 'error';
        error = described;
      }
    }

    const result: TurnResult = {
      sessionId: this.id,
      turn,
      terminalState: state,
      finalContent,
      ...(structuredOutput !== undefined ? { structuredOutput } : {}),
      steps,
      toolCalls: outcomes.length,
      toolOutcomes: outcomes,
      usage,
      costUsd,
      ...(error ? { error } : {}),
    };
    o.tracer.endSpan(turnSpan, state === 'completed' ? 'ok' : 'error');
    this.recordTurnEnd(result);
    o.bus.emit('turn_end', { sessionId: this.id, turn, terminalState: state, steps, toolCalls: outcomes.length });
    await o.recorder?.sync();
    return result;
  }

  /** Append a message to the conversation and to the record. */
  append(message: ChatMessage, at: { turn: number; step?: number; origin?: MessageOrigin }): void {
    this.messages.push(message);
    const rec = this.o.recorder;
    if (!rec) return;
    if (message.role === 'system' || message.role === 'user')
      rec.record({ type: 'message', role: message.role, content: message.content, turn: at.turn, ...(at.origin && at.origin !== 'person' ? { origin: at.origin } : {}) });
    else if (message.role === 'assistant')
      rec.record({
        type: 'message',
        role: 'assistant',
        content: message.content,
        ...(message.reasoning ? { reasoning: message.reasoning } : {}),
        ...(message.toolCalls?.length ? { tool_calls: message.toolCalls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })) } : {}),
        turn: at.turn,
        step: at.step ?? 0,
      });
  }

  recordTurnEnd(result: TurnResult): void {
    this.o.recorder?.record({
      type: 'turn_end',
      turn: result.turn,
      terminal_state: result.terminalState,
      steps: result.steps,
      tool_calls: result.toolCalls,
      content: result.finalContent,
      ...(result.error ? { error: result.error.message } : {}),
    });
  }

  private signal(): AbortSignal | undefined {
    return this.o.abortSignal?.();
  }

  private checkAbort(): void {
    if (this.signal()?.aborted) throw new TurnStop('aborted', 'aborted', 'aborted by the user');
  }

  /** The messages to send: assembled every call; compacted in stages when over the limit (stage 4 fails closed). */
  private preflight(turn: number): ChatMessage[] {
    const before = this.messages.length;
    const prepared = this.o.context.prepare(this.messages);
    if (prepared.failed) throw this.exhausted(prepared.tokens);
    if (prepared.compaction) {
      this.messages.splice(0, this.messages.length, ...prepared.conversation);
      this.noteCompaction(turn, prepared.compaction, before);
    }
    return [...prepared.messages];
  }

  /** After tool results: a conversation already over the limit is compacted now rather than at the next call. */
  private postToolBudgetCheck(turn: number): void {
    const o = this.o;
    if (o.context.estimate(this.messages) <= o.context.inputLimit) return;
    this.compact(turn);
  }

  /** Replace the conversation by its compacted form, or fail closed. */
  private compact(turn: number): void {
    const before = this.messages.length;
    const result = this.o.context.compact(this.messages);
    if (result.failed) throw this.exhausted(result.tokensBefore);
    this.messages.splice(0, this.messages.length, ...result.messages);
    this.noteCompaction(turn, result, before);
  }

  private noteCompaction(turn: number, c: { stage: string; tokensBefore: number; tokensAfter: number }, messagesBefore: number): void {
    const o = this.o;
    this.latestCompaction = { stage: c.stage, tokensBefore: c.tokensBefore, tokensAfter: c.tokensAfter };
    o.recorder?.record({
      type: 'compaction',
      turn,
      stage: c.stage,
      tokens_before: c.tokensBefore,
      tokens_after: c.tokensAfter,
      messages_before: messagesBefore,
      messages_after: this.messages.length,
    });
    o.bus.emit('session_compact', { sessionId: this.id, turn, stage: c.stage, tokensBefore: c.tokensBefore, tokensAfter: c.tokensAfter });
    o.logger.info('context compacted', { turn, stage: c.stage, tokensBefore: c.tokensBefore, tokensAfter: c.tokensAfter });
  }

  private exhausted(tokens: number): TurnStop {
    return new TurnStop(
      'budget_exhausted',
      'context_exhaustion',
      `the conversation (~${tokens} tokens) does not fit the context window even after compaction`,
    );
  }

  private async callModel(messages: ChatMessage[], turn: number, step: number, turnSpan: unknown): Promise<ChatResponse> {
    const o = this.o;
    const span = o.tracer.startChildSpan(turnSpan, 'model_call', { turn, step, model: o.model, provider: o.providerId });
    try {
      const response = await o.client.chat({
        messages,
        tools: o.tools,
        ...(o.structuredOutput ? { structuredOutput: o.structuredOutput } : {}),
        ...(this.signal() ? { signal: this.signal() } : {}),
        ...(o.onDelta ? { onDelta: o.onDelta } : {}),
      });
      o.tracer.addEvent(span, 'response_received', { toolCallCount: response.toolCalls.length, finishReason: response.finishReason });
      o.tracer.endSpan(span, 'ok');
      if (response.parseErrors?.length) {
        const parse = o.tracer.startChildSpan(turnSpan, 'tool_parse', { turn, step, errors: response.parseErrors.length });
        o.tracer.endSpan(parse, 'error');
        o.logger.warn('the tool-call parser could not read part of the output', { turn, step, errors: response.parseErrors });
      }
      return response;
    } catch (err) {
      o.tracer.endSpan(span, 'error');
      if (o.describeError(err).kind === 'context_exhaustion') throw this.exhausted(o.context.estimate(this.messages));
      throw err;
    }
  }

  private async runTool(call: ToolCallRequest, turn: number, step: number, turnSpan: unknown): Promise<ToolOutcomeSummary> {
    const o = this.o;
    // An abort between tool calls still answers the calls already in the conversation.
    const aborted = this.signal()?.aborted ?? false;
    const span = o.tracer.startChildSpan(turnSpan, 'tool_execution', { turn, step, tool: call.name, callId: call.id });
    const started = Date.now();
    let content: string;
    let isError: boolean;
    o.onTool?.({ phase: 'start', name: call.name, arguments: call.arguments });
    o.bus.emit('tool_started', { sessionId: this.id, turn, step, callId: call.id, toolName: call.name, arguments: call.arguments });
    if (aborted) {
      content = 'not run: the session was aborted';
      isError = true;
    } else {
      const decision = await o.bus.emitControl('pre_tool_use', { sessionId: this.id, turn, step, callId: call.id, toolName: call.name, arguments: call.arguments });
      if (!decision.allow) {
        content = `refused: ${decision.reason ?? 'a pre_tool_use hook blocked this call'}`;
        isError = true;
      } else {
        o.bus.emit('tool_execution_start', { sessionId: this.id, turn, step, callId: call.id, toolName: call.name });
        const signal = this.signal();
        const outcome = await o.executor.execute(call, { turn, ...(signal ? { signal } : {}) });
        content = outcome.content;
        isError = outcome.isError;
        o.bus.emit('tool_execution_end', { sessionId: this.id, turn, step, callId: call.id, toolName: call.name, isError });
      }
    }
    const durationMs = Date.now() - started;
    o.tracer.endSpan(span, isError ? 'error' : 'ok');
    this.messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content, ...(isError ? { isError } : {}) });
    o.recorder?.record({ type: 'tool_result', turn, step, call_id: call.id, name: call.name, content, is_error: isError, duration_ms: durationMs });
    o.bus.emit('tool_finished', { sessionId: this.id, turn, step, callId: call.id, toolName: call.name, isError, durationMs });
    o.onTool?.({ phase: 'end', name: call.name, arguments: call.arguments, isError, content });
    if (aborted) throw new TurnStop('aborted', 'aborted', 'aborted by the user');
    return { callId: call.id, name: call.name, arguments: call.arguments, isError, content };
  }
}

function addUsage(into: ProviderUsage, add: ProviderUsage): void {
  into.inputTokens += add.inputTokens;
  into.outputTokens += add.outputTokens;
  into.cacheReadTokens += add.cacheReadTokens;
  into.cacheCreationTokens += add.cacheCreationTokens;
  into.reasoningTokens += add.reasoningTokens;
}
