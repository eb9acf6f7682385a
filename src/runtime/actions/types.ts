// What the executor and its handlers share: the context a call runs in, what a call answers, and
// the shape of a handler (its model-facing spec, its argument schema and its run function).

import type { z } from 'zod';
import type { Store } from '../../store/store.js';
import type { ModelToolSpec } from '../model/chat.js';
import type { ExecutionEnv } from '../env/execution-env.js';
import type { SessionMemory } from '../memory/memory.js';
import type { InspectionLedger } from './inspection-ledger.js';

export interface ActionContext {
  env: ExecutionEnv;
  /** The Hindsight store, for registry tools (list_sessions, …); absent when it could not be opened. */
  store?: Store;
  /** This session's memory (bindMemory); absent when the run has none. */
  memory?: SessionMemory;
  inspectionLedger: InspectionLedger;
  /** The turn the call belongs to (recorded with inspected ranges). */
  turn: number;
  signal?: AbortSignal;
}

/** A tool call's answer, as it goes back to the model in a tool message. */
export interface ActionResult {
  content: string;
  isError: boolean;
  durationMs: number;
  /** Structured facts for the recorder and the session (exit code, path, envelope…); never sent to the model. */
  data?: Record<string, unknown>;
}

/** What a handler returns; the executor times it. */
export type HandlerOutcome = Omit<ActionResult, 'durationMs' | 'isError'> & { isError?: boolean };

/** Limits the executor passes to handlers. */
export interface HandlerLimits {
  /** A read result is cut at this many tokens × 4 characters (seed §7 default 12000). */
  maxSingleReadResultTokens: number;
  /** bash's timeout when the call gives none, and the most a call may ask for. */
  bashTimeoutMs: number;
  maxBashTimeoutMs: number;
  /** Bytes kept per stream of a command's output. */
  maxOutputBytes: number;
}

export interface ActionHandler<S extends z.ZodTypeAny = z.ZodTypeAny> {
  spec: ModelToolSpec;
  input: S;
  run(args: z.infer<S>, ctx: ActionContext, limits: HandlerLimits): Promise<HandlerOutcome>;
}

export type HandlerMap = Map<string, ActionHandler>;
