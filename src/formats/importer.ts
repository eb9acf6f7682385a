// The importer contract: detect · discover · parse (line → events) · summarize.
//
// The ingest pipeline owns reading, line splitting, evidence, JSON parsing and generic bad-line
// handling (blank, malformed, non-object, invalid UTF-8, incomplete last line, oversized). An
// importer sees one parsed JSON object per line and says what it means; it never touches the
// store. Parsers are incremental: `snapshot()` is saved with the file's checkpoint and handed
// back to `createParser` when appended lines arrive, so nothing is re-read.

import type {
  CorrelationIds,
  Defect,
  DefectSeverity,
  EventKind,
  EventUsage,
  Format,
  SessionFacts,
  SessionSummary,
} from '../core/model.js';
import type { LlmCall, StoredEvent } from '../core/events.js';
import type { FormatProfile } from './profile.js';

/** One file an importer wants ingested. */
export interface SourceFile {
  /** Absolute path. */
  path: string;
  /**
   * The root as its owner knows it when the files are read from a copy (sync mirrors a machine's
   * evidence into a stage folder): a Control Plane session's project is this path, not the copy's.
   */
  projectRoot?: string;
  /** Absolute path of the root it was discovered under (what the user ingested). */
  root: string;
  /** Path relative to `root`, with `/` separators; used in every report. */
  relPath: string;
  /** Ledger name (decisions.md): 'ho2m', 'transcript', 'agent-<id>', 'events', 'metadata', … */
  ledger: string;
  /** Merge priority of the ledger when timestamps tie (lower first). */
  ledgerRank: number;
  /**
   * The session every line of this file belongs to, when there is exactly one (Claude Code,
   * Amplifier). Control Plane ledgers leave it undefined: each entry names its session.
   */
  sessionId?: string;
  /** `jsonl`: one JSON value per line. `document`: one JSON document (metadata.json). */
  kind: 'jsonl' | 'document';
  /** Kept as evidence only, never parsed into events (backups of rewritten history). */
  evidenceOnly?: boolean;
  /** Set when the bytes are rows of a database, not a file's (`path` then only names them). */
  rows?: RowSource;
  /**
   * Files that continue one another (a Control Plane ledger's rotated segments, then its active
   * file) share a chain group; discover returns them in reading order, and the parser of each
   * receives the snapshot of the previous one as `chainState`.
   */
  chainGroup?: string;
  /** Facts known from the layout alone (project from the slug, parent from the path). */
  facts?: SessionFacts[];
  /** Findings made while discovering (missing metadata, backups, segment order). */
  notes?: Defect[];
}

/**
 * Rows of a SQLite database read as a JSONL source (src/ingest/sqlite-rows.ts): each row of `sql`
 * is one line, its columns as a JSON object, a last column named `data` embedded verbatim (the
 * row's own JSON), so the evidence of a row is its bytes with its table and id beside them.
 */
export interface RowSource {
  /** Absolute path of the database, opened read-only. */
  db: string;
  /** One SELECT, in a stable order; only the tables it names are ever read. */
  sql: string;
  params?: (string | number)[];
  /**
   * Changes whenever the rows may have (a cheap aggregate taken at discovery): stands for the
   * file's mtime, so unchanged rows are skipped without being read.
   */
  version: number;
}

/** An event as an importer emits it; the pipeline adds file, line, sequence and time. */
export interface EventInput {
  /** Owning session; defaults to the file's `sessionId`. Required for Control Plane. */
  sessionId?: string;
  /** Index within the line when one line yields several events (content blocks). */
  part?: number;
  /** The source's own timestamp string (any ISO form); omit when the line has none. */
  timestamp?: string | null;
  /** Native event type ('EXCHANGE', 'assistant', 'tool:pre', …). */
  type: string;
  kind: EventKind;
  actor?: string | null;
  turn?: number | null;
  ids?: CorrelationIds;
  /** Tie-break inside equal timestamps and ledger rank (Control Plane: the entry id). */
  tiebreak?: string;
  usage?: EventUsage;
  toolName?: string;
  toolStatus?: 'ok' | 'error';
  /** One line of plain text, bounded by the pipeline (about 300 characters). */
  summary?: string;
  /** Message text to index for search (user / assistant text), bounded by the pipeline. */
  text?: string;
  /** Small facts the summariser and tools need (stop_reason, level, decision, wo_type…). */
  attrs?: Record<string, unknown>;
}

export interface DefectInput {
  severity: DefectSeverity;
  kind: string;
  message: string;
  sessionId?: string | null;
  /** Defaults to the current line. */
  line?: number | null;
}

/** What a parser may do for the line it is looking at. */
export interface LineContext {
  readonly file: SourceFile;
  readonly lineNumber: number;
  readonly byteOffset: number;
  readonly byteLength: number;
  /** The line as decoded text (for a huge line, its head only). Needed for exact hashing. */
  readonly raw: string;
  emit(event: EventInput): void;
  defect(defect: DefectInput): void;
  facts(facts: SessionFacts): void;
}

export interface LineParser {
  /** A line that parsed as a JSON object. */
  line(obj: Record<string, unknown>, ctx: LineContext): void;
  /**
   * A line too large to parse whole (tens of megabytes): `head` is its first bytes decoded.
   * Project what is needed from it (type, timestamp) with a bounded scan.
   */
  hugeLine?(head: string, ctx: LineContext): void;
  /** A `document` file's parsed content (null when it is not valid JSON; the pipeline reports that). */
  document?(doc: unknown, ctx: LineContext): void;
  /** Serializable state to resume after the last consumed line (kept small). */
  snapshot(): unknown;
}

export interface ParserOptions {
  /** What this parser's own `snapshot()` returned after the last committed line, on resume. */
  resumeState?: unknown;
  /** The previous file in the same chain group's final snapshot (rotated segments). */
  chainState?: unknown;
}

// StoredEvent moved to src/core/events.ts (layers point down); re-exported here until the lead
// sweeps the importers of this path.
export type { StoredEvent };

export interface SummaryInput {
  facts: SessionFacts;
  /** All events of the session in timeline order (time key, ledger rank, tiebreak, file, line, part). */
  events: StoredEvent[];
  /**
   * Usage keys of the calls the session's children record first-hand (their LlmCall rows that are
   * not mirrors): a mirrored copy of one of these calls no longer counts here. Empty when none.
   */
  childCalls?: ReadonlySet<string>;
}

export interface SummaryOutput {
  summary: SessionSummary;
  /** Findings derived from the whole session (orphan tool calls…); replace the previous ones. */
  defects: Defect[];
  /**
   * The session's LLM calls, each once (src/core/llm-calls.ts), as the store keeps them for usage
   * reports. Omitted: the store applies llmCalls() to the events itself.
   */
  calls?: LlmCall[];
  /**
   * Seqs of events whose usage stops counting for good (a mirror whose call a child records): the
   * store clears their usage, so every reader of the events sees each call once.
   */
  dropUsage?: number[];
}

export interface Importer {
  format: Format;
  /** One sentence for `hindsight ingest --help` and docs. */
  description: string;
  /** What a root of this format looks like, in a few words, for the error when no format fits a path. */
  layout: string;
  /** True when `path` looks like a root of this format (by layout, cheaply). */
  detect(path: string): Promise<boolean>;
  /** Default roots that exist on this machine, from the environment. */
  defaultRoots(env: NodeJS.ProcessEnv, home: string): Promise<string[]>;
  /**
   * Every file under `root` to ingest, in reading order, with discovery notes. Findings that
   * belong to no file (an unreadable projects folder, a symlink loop) go to `rootNotes` when
   * the caller passes it, else onto the first file (so that a root with no file still reports).
   */
  discover(root: string, rootNotes?: Defect[]): Promise<SourceFile[]>;
  createParser(file: SourceFile, options: ParserOptions): LineParser;
  summarize(input: SummaryInput): SummaryOutput;
  /**
   * The session's LLM calls alone — summarize()'s `calls` and `dropUsage`, without the rest of the
   * summary — for the usage pass (src/ingest/usage-pass-sessions.ts). Absent: the pass summarises.
   */
  usageCalls?(input: SummaryInput): Pick<SummaryOutput, 'calls' | 'dropUsage'>;
  /**
   * A child session's files sit inside its parent's folder and are also the parent's ledgers
   * (Claude Code's `<session>/subagents/agent-<id>.jsonl`): the parent's ledgers include them.
   */
  nestedChildLedgers?: boolean;
  /**
   * The usage pass (a first usage report before any ingest, src/ingest/usage-pass.ts) parses only
   * the lines this keeps for `file`, with the parser it names. null: every line of this file, with
   * createParser's parser. Absent: the format has no usage pass (the pass gives way to an ingest).
   */
  usageLines?(file: SourceFile, options: ParserOptions): UsageLines | null;
  /**
   * For the usage pass, optional: `files` (one root's, discovery order) cut into session groups,
   * one key per file. Files of one key hold every record of their sessions — events, facts, child
   * sessions — so each group can be read and summarised on its own thread, and only its grouped
   * calls travel (src/ingest/usage-pass-split.ts). A chain group stays within one key. The pass
   * checks the claim (no session in two groups, no parent in another) and reads the root whole
   * when it fails. null, or absent: the files' usage is put together whole.
   */
  usageGroups?(files: readonly SourceFile[]): string[] | null;
  /** What the tools need to know about the format beyond parsing (src/formats/profile.ts). */
  profile: FormatProfile;
}

/** What a usage pass reads of one file (Importer.usageLines). */
export interface UsageLines {
  /** Every line that can change which LLM calls the file's sessions record, when, or their projects; the rest is never decoded. */
  keep(line: Buffer): boolean;
  /**
   * Optional, for speed: keep() over a whole file at once, its marks searched across the file's
   * bytes instead of line by line. `next(from)` (from: a line start) is the offset of a mark inside
   * the first line at or after `from` that may be kept — no line before that one is — or -1 when
   * no later line is; `keep(start, end)` then decides that line, b[start, end), as keep() would.
   */
  scan?(bytes: Buffer): { next(from: number): number; keep(start: number, end: number): boolean };
  /**
   * A parser for the kept lines that emits the usage events and facts createParser's would, and
   * may leave every other event out (omitted: createParser's).
   */
  parser?: LineParser;
}

/**
 * Define an importer once; the registry and the pipeline loop over these.
 *
 * @example export const claudeCode = defineImporter({ format: 'claude-code', ... });
 */
export function defineImporter(importer: Importer): Importer {
  return importer;
}
