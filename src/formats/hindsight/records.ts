// The lines of a Hindsight runtime session file (format `hindsight`): one JSON object per line,
// appended as the session runs, never rewritten. The runtime's recorder writes them; this
// folder's parser reads them. Every line carries its type, the session id, a sequence number
// (0, 1, 2… per file) and an ISO timestamp.

/** How the runtime was started: `hindsight ask`, `hindsight chat`, `hindsight run`. */
export type RuntimeMode = 'ask' | 'chat' | 'run';

/** How a turn ended (seed §1). */
export type TerminalState = 'completed' | 'error' | 'budget_exhausted' | 'step_limit' | 'aborted' | 'handoff';

export interface RecordBase {
  session_id: string;
  seq: number;
  ts: string;
}

export interface RecordedToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown> | string;
}

export interface RecordedUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_creation_tokens: number;
  reasoning_tokens: number;
}

export type RuntimeRecord = RecordBase &
  (
    | {
        type: 'session_start';
        mode: RuntimeMode;
        provider: string;
        model: string;
        /** The folder the session ran in (run: its workspace). */
        cwd: string;
        agent: string;
        tools_allowed: string[];
        /** Set for a handoff child or a resumed session. */
        parent_session_id?: string;
        resumed_from?: string;
        hindsight_version: string;
      }
    | {
        type: 'message';
        role: 'system' | 'user';
        content: string;
        turn: number;
        /**
         * Who put a user message into the conversation when it was not the person starting the
         * turn: a steering message typed mid-turn, a recovery nudge, a handoff manifest. Absent:
         * the person's own prompt. Only `person` and `steering` count as the person's words.
         */
        origin?: 'person' | 'steering' | 'recovery' | 'handoff';
      }
    | {
        type: 'message';
        role: 'assistant';
        content: string | null;
        reasoning?: string | null;
        tool_calls?: RecordedToolCall[];
        turn: number;
        step: number;
      }
    | {
        type: 'model_call';
        turn: number;
        step: number;
        provider: string;
        model: string;
        usage: RecordedUsage;
        /** 'provider' when the provider reported the tokens, 'estimate' for the chars/4 estimate. */
        usage_source: 'provider' | 'estimate';
        finish_reason: string | null;
        response_id: string | null;
        duration_ms: number;
        cost_usd: number;
      }
    | {
        type: 'tool_result';
        turn: number;
        step: number;
        call_id: string;
        name: string;
        content: string;
        is_error: boolean;
        duration_ms: number;
      }
    | {
        type: 'span';
        span_id: string;
        parent_span_id: string | null;
        kind: 'turn' | 'model_call' | 'tool_parse' | 'tool_execution';
        name: string;
        start: string;
        end: string;
        duration_ms: number;
        attributes: Record<string, unknown>;
      }
    | { type: 'log'; level: 'trace' | 'debug' | 'info' | 'warn' | 'error'; message: string; context: Record<string, unknown> }
    | { type: 'compaction'; turn: number; stage: string; tokens_before: number; tokens_after: number; messages_before: number; messages_after: number }
    | { type: 'recovery'; turn: number; scenario: string; attempt: number; recovered: boolean; message: string }
    | { type: 'handoff'; turn: number; child_session_id: string; reason: string; manifest: string }
    | {
        type: 'turn_end';
        turn: number;
        terminal_state: TerminalState;
        steps: number;
        tool_calls: number;
        /** The final answer (structured output as JSON text). */
        content: string | null;
        error?: string;
      }
  );

export type RuntimeRecordType = RuntimeRecord['type'];
