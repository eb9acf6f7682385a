// The session model shared by importers, the store and the tools: one definition per concept.

/** A format id. The formats themselves are listed once, in src/formats/registry.ts. */
export type Format = string;

export const SESSION_KINDS = ['root', 'subagent', 'fork', 'sidechain', 'compaction'] as const;
export type SessionKind = (typeof SESSION_KINDS)[number];

export const SESSION_STATUSES = ['completed', 'active', 'errored', 'interrupted'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

export const EVENT_KINDS = [
  'session_start',
  'session_end',
  'user_message',
  'assistant_message',
  'thinking',
  'tool_call',
  'tool_result',
  'llm_call',
  'error',
  'warning',
  'compaction',
  'subagent_start',
  'subagent_end',
  'system',
  'other',
] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

/** Token counts of one LLM call, by kind. The kinds never overlap: their sum is the call's total. */
export interface TokenCounts {
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
  /**
   * Tokens billed at the output rate that are NOT inside `output`: Gemini's thinking tokens (and
   * whatever its total holds beyond the named fields), which ccusage leaves out of its output column
   * but counts in its total and prices as output. Codex's reasoning is already inside its output and
   * is never put here. Absent means 0 (every other format).
   */
  reasoning?: number;
}

export const ZERO_TOKENS: Readonly<TokenCounts> = Object.freeze({ input: 0, output: 0, cacheWrite: 0, cacheRead: 0 });

/** Every token of the counts: the five kinds added (reasoning counts when present). */
export function tokenTotal(t: TokenCounts): number {
  return t.input + t.output + t.cacheWrite + t.cacheRead + (t.reasoning ?? 0);
}

/**
 * Usage carried by an event. `key` identifies the LLM call: several events with the same key are
 * the same call written more than once (Claude Code splits one response over several lines), and
 * the summariser keeps the largest. Events without usage omit it.
 */
export interface EventUsage extends TokenCounts {
  key: string;
  model: string | null;
}

/** Correlation ids an event may carry. */
export interface CorrelationIds {
  workOrder?: string;
  toolCall?: string;
  message?: string;
  request?: string;
  agent?: string;
  entry?: string;
}

/**
 * The one huge-line rule, for every format and file kind: a line (or a JSON document such as
 * metadata.json) longer than this many bytes is kept whole as evidence but never parsed whole.
 * A JSONL parser gets a bounded head of it (`hugeLine`), a document is not parsed, and either
 * way the line gets an info `oversized_line` finding. 8 MiB is far above any line an agent
 * writes for its own bookkeeping, and below the pasted images and dumped requests that are not.
 */
export const HUGE_LINE_BYTES = 8 * 1024 * 1024;

export const DEFECT_SEVERITIES = ['error', 'warning', 'info'] as const;
export type DefectSeverity = (typeof DEFECT_SEVERITIES)[number];

/**
 * A finding about the input: a bad line, a gap, a rewrite, a broken hash chain. Only `error`
 * defects count as bad lines (decisions.md).
 */
export interface Defect {
  severity: DefectSeverity;
  kind: string;
  /** Path of the source file relative to its root ('' when the defect concerns the root). */
  file: string;
  line: number | null;
  message: string;
  sessionId?: string | null;
}

/**
 * What an importer knows about a session. Facts from several lines and files merge: a later
 * defined field wins over an earlier one, undefined never erases.
 */
export interface SessionFacts {
  id: string;
  format: Format;
  project?: string;
  projectPath?: string;
  parentId?: string | null;
  kind?: SessionKind;
  title?: string;
  agentName?: string;
  mainLedger?: string;
  /** Small format-specific facts (e.g. Amplifier metadata fields). */
  attrs?: Record<string, unknown>;
}

/** Summary of a session, recomputed from its events after every ingest that touches it. */
export interface SessionSummary {
  status: SessionStatus;
  startedAt: string | null;
  endedAt: string | null;
  turnCount: number;
  firstUserMessage: string | null;
  lastResponsePreview: string | null;
  models: string[];
  /** Tokens of this session's own LLM calls (children excluded), each call counted once. */
  tokens: TokenCounts;
  llmCalls: number;
  eventCount: number;
  toolCalls: number;
  toolErrors: number;
  errors: number;
  warnings: number;
  compactions: number;
  /** Format-specific extras for tools (bounded). */
  attrs?: Record<string, unknown>;
}
