// The runtime's event names (seed §12) and what each carries. The session emits them; extensions,
// the recorder and terminals subscribe. One map for lifecycle events, one for control hooks.

import type { ProviderUsage } from '../model/chat.js';
import { EventBus, type EventBusOptions } from './event-bus.js';

interface InSession {
  sessionId: string;
}

interface InTurn extends InSession {
  /** 1-based turn number within the session. */
  turn: number;
}

interface InStep extends InTurn {
  /** 1-based model step within the turn. */
  step: number;
}

interface ToolCallRef extends InStep {
  callId: string;
  toolName: string;
}

export interface RuntimeEvents {
  session_start: InSession & { provider: string; model: string; cwd: string; agent?: string };
  session_shutdown: InSession & { reason?: string };
  turn_start: InTurn & { task: string };
  /** terminalState: completed, error, budget_exhausted, step_limit, aborted, handoff. */
  turn_end: InTurn & { terminalState: string; steps: number; toolCalls: number; content: string | null; error?: string };
  model_step_started: InStep & { messageCount: number; estimatedInputTokens: number };
  /** A tool call the executor is about to run (after pre_tool_use allowed it). */
  tool_started: ToolCallRef & { arguments: Record<string, unknown> | string };
  tool_finished: ToolCallRef & { isError: boolean; content: string; durationMs: number };
  /** Fine-grained: the handler itself starting and ending (also emitted for a refused call, with `blocked`). */
  tool_execution_start: ToolCallRef;
  tool_execution_end: ToolCallRef & { isError: boolean; durationMs: number; blocked?: string };
  /** A diff an edit or write is about to apply, for terminals that show it. */
  patch_preview: ToolCallRef & { path: string; diff: string };
  token_usage: InStep & { usage: ProviderUsage; source: 'provider' | 'estimate'; costUsd: number | null };
  session_compact: InTurn & { stage: string; tokensBefore: number; tokensAfter: number; messagesBefore: number; messagesAfter: number };
}

export interface RuntimeControls {
  /** Asked before every tool call; a refusal becomes the call's error result. */
  pre_tool_use: ToolCallRef & { arguments: Record<string, unknown> | string };
}

export type RuntimeEventName = keyof RuntimeEvents;
export type RuntimeControlName = keyof RuntimeControls;

export const RUNTIME_EVENT_NAMES: readonly RuntimeEventName[] = [
  'session_start',
  'session_shutdown',
  'turn_start',
  'turn_end',
  'model_step_started',
  'tool_started',
  'tool_finished',
  'tool_execution_start',
  'tool_execution_end',
  'patch_preview',
  'token_usage',
  'session_compact',
];

export type RuntimeEventBus = EventBus<RuntimeEvents, RuntimeControls>;

export function createRuntimeEventBus(options?: EventBusOptions): RuntimeEventBus {
  return new EventBus<RuntimeEvents, RuntimeControls>(options);
}
