// A format's profile: what the tools need to know about a format beyond parsing, as hooks the
// tools call instead of asking which format a session has. Each format folder builds its profile
// with `defineProfile({...})` and hangs it on its importer (`Importer.profile`); tools reach it
// through `profileOf(format)` in registry.ts. Every hook has a generic default (below, in
// GENERIC), so a new format states only what differs: a format with no profile hooks at all still
// gets overviews, timelines, transcripts (from the stored summaries), replay and jsonl export.
//
// Hook contract, for every hook:
// - `line` is the event's evidence line parsed as a JSON object (never null where the type says
//   Obj); the caller fetched and parsed it, and calls the hook once per event.
// - Hooks are pure: they never read the store (the tools read it and hand them what they need);
//   only the rewind planner may read a file the session has (a metadata document).
// - Hooks never throw for odd input: an unexpected shape gives the "does not say" answer
//   (undefined, null, the stored summary), so one strange line never breaks a tool.
//
// Names here are stable (other format folders implement them): add hooks, never rename them.

import type { StoredEvent } from '../core/events.js';

export type Obj = Record<string, unknown>;

/** What hooks may read of a session (the store's SessionRow has these fields and more). */
export interface ProfileSession {
  id: string;
  parentId: string | null;
  kind: string;
  startedAt: string | null;
  /** The summariser's attrs (what it decided, e.g. which ledger it counted tool calls from). */
  attrs: Record<string, unknown>;
}

// ---- Shapes the hooks use -------------------------------------------------------------------

/** What an event's full content may leave out (reconstruct_session full mode, get_events). */
export interface ContentOptions {
  /** Keep text assembled and sent to the model (system prompts, request bodies). */
  includePrompts: boolean;
  /** Keep tool arguments and results. */
  includeToolPayloads: boolean;
}

/** One message of a session's transcript (get_session): the event, and which side of it. */
export interface MessageRef {
  event: StoredEvent;
  role: 'user' | 'assistant';
}

/**
 * A view kind a format decides itself, where the event's kind alone does not tell: `hook` (the
 * agent's harness running a hook) or `agent` (a sub-agent's message mirrored into the parent).
 */
export type FormatViewKind = 'hook' | 'agent';

/** How a session ended, in the format's own terms (the overview's ending facts and about sentence). */
export interface FormatEnding {
  /** The reason of a degradation the session ended in (Control Plane DEGRADATION). */
  degradation: string | null;
  /** The last outcome was budget exhaustion. */
  budgetExhausted: boolean;
}

/** Everything the ending sentence of an errored session may draw on. */
export interface EndingFacts extends FormatEnding {
  /** Tool name of the last call that never got a result, when nothing the user said follows it. */
  unansweredTool: string | null;
  /** The last thing the user "said" was an interruption marker. */
  interruptedByUser: boolean;
  /** Summary of the last error event. */
  lastError: string | null;
}

/** The fields a ledger entry shows (query_ledger, query_ledger_full) beside its place and time. */
export interface LedgerEntryFields {
  id: string | null;
  /** The entry's type as the line says it, else the stored event type. */
  event_type: string;
  submission_id: string | null;
  decision: string | null;
  reason: string | null;
  /** The timestamp as the line writes it. */
  timestamp: string | null;
  metadata: Obj | null;
}

/**
 * Ledgers a root holds for every session at once (Control Plane's ho2m, ho1m, governance): each
 * line names its session, ledgers are addressed by root and name, and a session's share of them
 * is its entries.
 */
export interface SharedLedgers {
  /** Every ledger name, in the order exports list them. */
  names: readonly string[];
  /** The ledger query_ledger reads when none is named. */
  defaultLedger: string;
  /** A session's main ledger when the store does not say. */
  mainLedger: string;
}

/**
 * Who the format's agent is, in the words of the OpenTelemetry GenAI conventions (docs/otel.md):
 * the agent's name (`gen_ai.agent.name`) and the provider it calls (`gen_ai.provider.name`, one of
 * the conventions' well-known values where one fits).
 */
export interface AgentIdentity {
  /** null: the format's label. */
  agentName: string | null;
  /**
   * The provider every call of this format goes to; null when the format talks to several (the
   * OTLP export then names each call's provider from its model, src/otel/provider-of-model.ts).
   */
  providerName: string | null;
}

// ---- Replay (export_session replay and markdown) ------------------------------------------------

/** Working directory and branch of a session, to report changes as `ctx` lines. */
export interface ReplayPlace {
  cwd: string | undefined;
  branch: string | undefined;
}

/** What a replay mapper reads and updates while the timeline streams past. */
export interface ReplayContext {
  /** User text longer than this (bytes) is cut and the entry says how much (`cut`). */
  userTextLimit: number;
  /** Tool call id → the sub-agent it ran (filled first when the mapper `linksAgentCalls`). */
  agentOfCall: Map<string, string>;
  /** The session the event being mapped belongs to (the exported one or a sub-agent). */
  sessionId: string;
  /** Working directory and branch per session; a new sub-agent starts from `start`. */
  places: Map<string, ReplayPlace>;
  start: ReplayPlace;
  /** For the markdown transcript: thinking text and tool call ids too (the replay format has neither). */
  detail: boolean;
}

/**
 * Maps one timeline event (and its parsed raw line, when `needsLine` asked for it) to replay
 * entries without `t` (the driver stamps them). The entry vocabulary is the replay format's
 * (src/tools/export-session/replay.ts): r, m, cut, kind, thinking, tool, args, tool_result,
 * status, msg, agent, task, type, size, count, exit, code, turn, wo.
 */
export interface ReplayMapper {
  needsLine(e: StoredEvent): boolean;
  map(e: StoredEvent, line: Obj | undefined, cx: ReplayContext): Obj[];
  /**
   * Before mapping, read the session's events once for tool-call id → sub-agent id (from an
   * event's `attrs.agentId` or `ids.agent`) into `cx.agentOfCall`.
   */
  linksAgentCalls?: boolean;
}

// ---- Rewind (rewind_session) ---------------------------------------------------------------------

/** A rewind target: the turn or message to keep up to, or a time to cut before. */
export type RewindTarget = { kind: 'turn'; n: number } | { kind: 'message'; n: number } | { kind: 'time'; at: string };

/** One line of a transcript as the cut rules see it (only lines that yielded events). */
export interface RewindLine {
  line: number;
  tsKey: string | null;
  /** The message this line is part of (lines sharing a key are one message); null: not a message. */
  message: string | null;
  /** A line that opens a turn (a human prompt). */
  turnStart: boolean;
  /** Tool call ids made on this line, and ids whose results are on it. */
  calls: string[];
  results: string[];
  /** Events on the line (what `removed.events` counts). */
  events: number;
}

/** Where the cut falls. */
export interface RewindCut {
  /** First removed line; `totalLines + 1` when nothing is removed. */
  line: number;
  /** Whether the pairing or message rule moved the cut from where the target put it. */
  adjusted: boolean;
  /** Tool call ids the cut was moved before (their results were past it). */
  movedBefore: string[];
}

/** A live source file as the store recorded it at the last ingest. */
export interface RewindFile {
  fileId: number;
  ledger: string;
  relPath: string;
  path: string;
  lines: number;
  generation: number;
  size: number;
  mtimeMs: number;
  offset: number;
}

/** What a format's rewind planner works out; the tool turns it into its result and applies it. */
export interface RewindFormatPlan {
  /** The file whose lines the target counts in (its messages and turns). */
  transcript: RewindFile;
  lines: RewindLine[];
  cut: RewindCut;
  /** Files to truncate, transcript first: everything from `cutLine` on goes (past the end: left alone). */
  changes: { file: RewindFile; cutLine: number }[];
  removedEvents: number;
  removedToolCalls: number;
  /** Child sessions started past the cut; their files stay. */
  subagents: { session_id: string; kind: string; files: string[] }[];
  /** A metadata document the rewind leaves alone, and whether its turn count goes stale. */
  metadata: { file: string; turn_count: number | null; stale: boolean } | null;
  warnings: string[];
}

/** What the rewind tool reads from the store for a format's planner. */
export interface RewindInput {
  session: ProfileSession;
  /** The session's live files as last ingested (the ledgers the store lists for it). */
  files: RewindFile[];
  /** Events by file id, each list in line order; descendants' events too when the hooks ask (`withDescendants`). */
  eventsByFile: Map<number, StoredEvent[]>;
  /** The session's direct children, each with its own live files. */
  children: { session: ProfileSession; files: RewindFile[] }[];
}

export interface RewindHooks {
  /** The session's files hold lines of its descendants too (inline sidechains): read their events as well. */
  withDescendants: boolean;
  /**
   * Plan a cut of the session at `target` (the cut rules are src/formats/shared/rewind-cut.ts).
   * Throw REWIND_REFUSED (src/formats/shared/rewind-errors.ts) for a session of this format that
   * cannot be cut (a sub-agent whose result lives in its parent), INVALID_ARGUMENTS for a target
   * out of range.
   */
  plan(input: RewindInput, target: RewindTarget): Promise<RewindFormatPlan>;
  /** The session's own folder, where the rewind ledger is appended, given its transcript's path. */
  sessionFolder(session: ProfileSession, transcriptPath: string): string;
}

// ---- The profile ---------------------------------------------------------------------------------

export interface FormatProfile {
  /** The format's name for people ("Claude Code"), in sentences, errors and the viewer's lists. */
  label: string;

  // -- Turns and messages

  /**
   * The events that are the user's turns, in timeline order (overview turn count and messages,
   * analyze_events timeline). Default: user messages not marked `attrs.nonHuman`.
   */
  userTurns(events: readonly StoredEvent[]): StoredEvent[];
  /**
   * Whether a user-turn event opens its turn (`opens`: a prompt, then the work) or closes it
   * (`closes`: the format records a turn after the fact, with the work before it). Default: opens.
   */
  turnMarker: 'opens' | 'closes';
  /** The messages of get_session's transcript, in order. Default: user and assistant message events. */
  transcriptMessages(events: readonly StoredEvent[]): MessageRef[];
  /** A transcript message's full text from its line; null: the stored summary stands in. Default: null. */
  messageText(ref: MessageRef, line: Obj): string | null;

  // -- Payloads read from the evidence line

  /**
   * An event's full content (reconstruct_session full mode), with prompts and tool payloads
   * removed unless asked for and each removal listed in `omitted` with its size. Default: the line.
   */
  eventContent(e: StoredEvent, line: Obj, opts: ContentOptions): Obj;
  /** The input block a tool call was given (files touched read paths from it). Default: `arguments`/`input` of the line or its `metadata`. */
  toolCallInput(e: StoredEvent, line: Obj): Obj | undefined;
  /** What a failed tool call sent back (the overview's errors); undefined: the line does not say. Default: undefined. */
  failureText(e: StoredEvent, line: Obj): string | undefined;

  // -- Compact timeline rows

  /** The stored summary of `e` is conversation text, which compact mode replaces. Default: user, assistant and thinking messages. */
  isTextEvent(e: StoredEvent): boolean;
  /** A text event's summary without its text: what it is and, from the line, how long. Default: the kind in words. */
  textFreeSummary(e: StoredEvent, line: Obj | null): string;
  /** Facts a timeline row shows beside the generic ones (ids, tool, usage, attrs). Default: none. */
  eventFacts(e: StoredEvent): Obj;
  /** The view kind the format decides itself (hooks, mirrored sub-agent messages); null: by the event's kind. Default: null. */
  viewKind(e: StoredEvent): FormatViewKind | null;

  // -- Counting

  /** An event carrying usage is a record of an LLM call to count (analyze_events, inspect_metrics). Default: every one. */
  countsUsage(e: StoredEvent): boolean;
  /** The log records no call latency, so it is measured between lines (analyze_events calls). Default: false. */
  latencyBetweenLines: boolean;
  /**
   * Model names the log writes for responses no model made (Claude Code's `<synthetic>`): left
   * out of per-model lists and of the replay's model changes. Default: none.
   */
  placeholderModels: readonly string[];
  /**
   * The format's own tool names (lower case) mapped to the generic names the shared tool tables
   * know — bash, read, edit, write, grep, list_files, web_search, webfetch, delegate, todo_write —
   * so "ran 9 shell commands", files touched and the replay's summaries read the same for every
   * format without a table outside the format's folder. Default: none (the names are generic).
   */
  toolAliases: Readonly<Record<string, string>>;
  /** The one ledger tool calls are counted from (when two ledgers record each call); null: every ledger. Default: null. */
  toolLedger(session: ProfileSession, events: readonly StoredEvent[]): string | null;

  // -- Problems and endings

  /**
   * The type of an error or warning event in the overview's lists, in any case (the overview
   * writes it in snake_case); null: the generic one (the native type). Default: null.
   */
  problemType(e: StoredEvent): string | null;
  /** The format's own ending facts from the session's events (timeline order). Default: none. */
  ending(events: readonly StoredEvent[]): FormatEnding;
  /**
   * The about paragraph's last sentence for an errored session; null: the generic one (its last
   * error). `reason(text)` renders a long reason as the paragraph quotes one (one line, clipped at
   * a word, no closing punctuation). Default: null.
   */
  erroredEnding(ending: EndingFacts, reason: (text: string) => string): string | null;

  // -- Ledgers and export

  /**
   * Ledgers shared by every session of a root (see SharedLedgers); null: a session's ledgers are
   * its own files. It also picks the jsonl export's lines: a session's entries of the shared
   * ledgers in `names` order, else each of its own JSONL ledgers whole. Default: null.
   */
  sharedLedgers: SharedLedgers | null;
  /** What a ledger line shows as an entry (query_ledger). Default: uuid/id, type and timestamp from common shapes, the line as metadata. */
  ledgerEntry(value: Obj | null, type: string): LedgerEntryFields;
  /** A ledger that is one JSON document, not lines (left out of the jsonl export). Default: `metadata` and `*.meta`. */
  isDocumentLedger(ledger: string): boolean;
  /** The replay mapping (export_session replay and markdown). Default: from the stored events alone. */
  replay: ReplayMapper;

  // -- Telemetry

  /** The agent and provider names of the OTLP export (src/otel/). Default: the label, the provider left to each call's model. */
  agentIdentity: AgentIdentity;

  // -- Rewind

  /** How to cut a session back; null: this format cannot be rewound (say why in `rewindRefusal`). */
  rewind: RewindHooks | null;
  /** Why this format cannot be rewound, as a sentence (the REWIND_REFUSED error says it). Default: a generic sentence. */
  rewindRefusal: string;
}

// ---- Defaults ------------------------------------------------------------------------------------

const TEXT_KINDS = new Set(['user_message', 'assistant_message', 'thinking']);
const KIND_WORDS: Record<string, string> = { user_message: 'User message', assistant_message: 'Assistant text', thinking: 'Thinking' };

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const obj = (v: unknown): Obj | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : null);

/** Tool arguments are sometimes a JSON string (OpenAI-style `arguments`). */
export function objectOf(v: unknown): Obj | undefined {
  if (typeof v === 'string') {
    try {
      return obj(JSON.parse(v)) ?? undefined;
    } catch {
      return undefined;
    }
  }
  return obj(v) ?? undefined;
}

/** The generic replay: each message, tool call and result from its stored event alone. */
const GENERIC_REPLAY: ReplayMapper = {
  needsLine: () => false,
  map(e) {
    switch (e.kind) {
      case 'user_message':
        return e.attrs.nonHuman === true ? [{ r: 'system', msg: e.summary }] : [{ r: 'user', m: e.summary }];
      case 'assistant_message':
        return [{ r: 'assistant', m: e.summary }];
      case 'thinking':
        return [{ r: 'assistant', thinking: true }];
      case 'tool_call':
        return [{ r: 'assistant', tool: e.toolName ?? 'unknown', args: {} }];
      case 'tool_result':
        return [{ r: 'user', tool_result: e.toolName ?? 'unknown', status: e.toolStatus === 'error' ? 'error' : 'success' }];
      case 'error':
        return [{ r: 'system', msg: e.summary, status: 'error' }];
      case 'warning':
      case 'compaction':
        return [{ r: 'system', msg: e.summary }];
      default:
        return [];
    }
  },
};

/** The generic rule of each hook: what a format gets for every hook it leaves out. */
export const GENERIC: Omit<FormatProfile, 'label'> = {
  userTurns: (events) => events.filter((e) => e.kind === 'user_message' && e.attrs.nonHuman !== true),
  turnMarker: 'opens',
  transcriptMessages: (events) =>
    events
      .filter((e) => e.kind === 'user_message' || e.kind === 'assistant_message')
      .map((e) => ({ event: e, role: e.kind === 'user_message' ? ('user' as const) : ('assistant' as const) })),
  messageText: () => null,
  eventContent: (_e, line) => ({ ...line }),
  toolCallInput: (_e, line) => {
    const metadata = obj(line.metadata);
    return objectOf(metadata?.arguments ?? metadata?.tool_input ?? line.arguments ?? line.input);
  },
  failureText: () => undefined,
  isTextEvent: (e) => TEXT_KINDS.has(e.kind),
  textFreeSummary: (e) => KIND_WORDS[e.kind] ?? e.summary,
  eventFacts: () => ({}),
  viewKind: () => null,
  countsUsage: () => true,
  latencyBetweenLines: false,
  placeholderModels: [],
  toolAliases: {},
  toolLedger: () => null,
  problemType: () => null,
  ending: () => ({ degradation: null, budgetExhausted: false }),
  erroredEnding: () => null,
  sharedLedgers: null,
  ledgerEntry: (value, type) => ({
    // Common shapes: uuid or id; timestamp, ts or metadata.timestamp.
    id: str(value?.uuid) ?? str(value?.id),
    event_type: type,
    submission_id: null,
    decision: null,
    reason: null,
    timestamp: str(value?.timestamp) ?? str(value?.ts) ?? str(obj(value?.metadata)?.timestamp),
    metadata: value,
  }),
  isDocumentLedger: (ledger) => ledger === 'metadata' || ledger.endsWith('.meta'),
  replay: GENERIC_REPLAY,
  agentIdentity: { agentName: null, providerName: null },
  rewind: null,
  rewindRefusal: 'Hindsight does not know how to cut this format back safely.',
};

/** A profile: the format's label and the hooks it implements; every other hook is GENERIC's. */
export type ProfileHooks = Pick<FormatProfile, 'label'> & Partial<Omit<FormatProfile, 'label'>>;

/**
 * Define a format's profile; hooks left out take their generic default.
 *
 * @example export const profile = defineProfile({ label: 'Codex CLI', userTurns: (events) => … });
 */
export function defineProfile(hooks: ProfileHooks): FormatProfile {
  return { ...GENERIC, ...hooks };
}

/** The profile of a format this build does not know (a store written by a newer version): every hook generic. */
export function genericProfile(format: string): FormatProfile {
  return defineProfile({ label: format });
}
