// What the Session needs from the rest of the runtime, as narrow ports. The session wiring
// (build-session.ts) fills them from the real components; tests may fill them differently.
// Keeping the loop on ports keeps "do not touch casually" code independent of how each part is built.

import type { RuntimeRecord } from '../../formats/hindsight/records.js';
import type { ChatMessage, ChatResponse, ProviderUsage, ToolCallRequest } from '../model/chat.js';
import type { TurnErrorKind } from './turn-result.js';

type RecordInput = RuntimeRecord extends infer R ? (R extends RuntimeRecord ? Omit<R, 'session_id' | 'seq' | 'ts'> : never) : never;

export interface RecorderPort {
  readonly sessionId: string;
  record(entry: RecordInput): void;
  /** Bring the store up to date with the record (best-effort; never throws). */
  sync(): Promise<void>;
}

export interface DispatchSelection {
  dispatch: ToolCallRequest[];
  structuredOutput: unknown;
  finalContent: string | null;
  filtered: string[];
  done: boolean;
}

export interface CompactionPort {
  messages: readonly ChatMessage[];
  stage: string;
  tokensBefore: number;
  tokensAfter: number;
  failed: boolean;
}

export interface ContextPort {
  /** The effective input limit: the window less the reserved output. */
  inputLimit: number;
  /** The messages for the next call (assembled; compacted when over the limit); `conversation` is what to keep. */
  prepare(messages: readonly ChatMessage[]): {
    messages: readonly ChatMessage[];
    tokens: number;
    conversation: readonly ChatMessage[];
    compaction: CompactionPort | null;
    failed: boolean;
  };
  estimate(messages: readonly ChatMessage[]): number;
  compact(messages: readonly ChatMessage[]): CompactionPort;
}

export interface MetricsPort {
  recordStep(step: { request: readonly ChatMessage[]; response: ChatResponse }): {
    usage: ProviderUsage;
    source: 'provider' | 'estimate';
    costUsd: number | null;
  };
  totals(): { usage: ProviderUsage; costUsd: number | null };
  isOverBudget(maxUsd: number): boolean;
}

export interface TracerPort {
  startSpan(init: { kind: 'turn'; name: string; attributes: Record<string, unknown> }): unknown;
  startChildSpan(parent: unknown, kind: 'model_call' | 'tool_parse' | 'tool_execution', attributes: Record<string, unknown>): unknown;
  addEvent(span: unknown, name: string, attributes: Record<string, unknown>): void;
  endSpan(span: unknown, status: 'ok' | 'error'): void;
}

export interface LoggerPort {
  info(message: string, context?: Record<string, unknown>): void;
  warn(message: string, context?: Record<string, unknown>): void;
}

export interface BusPort {
  emit(name: string, payload: Record<string, unknown>): void;
  emitControl(name: 'pre_tool_use', payload: Record<string, unknown>): Promise<{ allow: boolean; reason?: string }>;
}

export interface ExecutorPort {
  resetTurn(): void;
  execute(call: ToolCallRequest, at: { turn: number; signal?: AbortSignal }): Promise<{ content: string; isError: boolean }>;
}

export interface SessionParts {
  /** Used when there is no recorder (tests, a store-less run). */
  sessionId: string;
  providerId: string;
  model: string;
  executor: ExecutorPort;
  selectDispatch(input: { toolCalls: ToolCallRequest[]; content: string | null; toolsAllowed: readonly string[] }): DispatchSelection;
  context: ContextPort;
  metrics: MetricsPort;
  tracer: TracerPort;
  logger: LoggerPort;
  bus: BusPort;
  recorder: RecorderPort | null;
  /** A thrown error as a kind the loop acts on (aborted, context_exhaustion, provider…). */
  describeError(err: unknown): { kind: TurnErrorKind; message: string };
}
