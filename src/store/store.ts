// The Store interface: everything callers may ask of a store, engine-neutral and async, so the
// PostgreSQL engine can replace SQLite without changes to callers. Writes come in batches (one
// per few megabytes of input) so that the async boundary costs nothing on the hot path.

import type { Defect, Format, SessionFacts, SessionKind, SessionStatus, TokenCounts } from '../core/model.js';
import type { ParsedEvent, StoredEvent } from '../core/events.js';
import type { SummaryInput, SummaryOutput } from '../formats/importer.js';

/** A source file as the store tracks it: one row per generation (a rewrite starts a new one). */
export interface FileRecord {
  id: number;
  rootId: number;
  root: string;
  path: string;
  relPath: string;
  format: Format;
  ledger: string;
  ledgerRank: number;
  sessionId: string | null;
  kind: 'jsonl' | 'document';
  evidenceOnly: boolean;
  chainGroup: string | null;
  generation: number;
  superseded: boolean;
  supersededReason: string | null;
  /** Size and mtime seen at the last ingest. */
  size: number;
  mtimeMs: number;
  /** Resume point: byte offset after the last complete line, and the next line number. */
  offset: number;
  nextLine: number;
  lastTsKey: string | null;
  parserState: unknown;
  lines: number;
  badLines: number;
  events: number;
  /** Content hash of a document file (its whole bytes). */
  contentHash: string | null;
}

export type NewFile = Pick<
  FileRecord,
  'rootId' | 'path' | 'relPath' | 'format' | 'ledger' | 'ledgerRank' | 'sessionId' | 'kind' | 'evidenceOnly' | 'chainGroup'
>;

/** One evidence line: where it was and what it hashed to. */
export interface EvidenceLine {
  lineNumber: number;
  offset: number;
  length: number;
  /** SHA-256 of the line's bytes (without '\n'), first 16 bytes. */
  hash: Buffer;
  status: 'ok' | 'blank' | 'bad' | 'incomplete';
}

/** Consecutive lines of one file compressed together (brotli): `data` decompresses to the file's bytes [firstOffset, firstOffset + rawBytes). */
export interface EvidenceBlock {
  firstLine: number;
  firstOffset: number;
  rawBytes: number;
  data: Buffer;
  lines: EvidenceLine[];
  /** The raw bytes' gram filter (src/store/shared/gram-filter.ts), for scans that skip blocks; absent: stored as none. */
  gramFilter?: Buffer;
}

export interface FileCheckpoint {
  size: number;
  mtimeMs: number;
  offset: number;
  nextLine: number;
  lastTsKey: string | null;
  parserState: unknown;
  contentHash?: string | null;
}

export interface IngestBatch {
  fileId: number;
  /** Delete this file's lines, events and defects at or after this line first (a held-back line being re-read). */
  clearFromLine?: number;
  blocks: EvidenceBlock[];
  events: ParsedEvent[];
  defects: Defect[];
  facts: SessionFacts[];
  /** Facts known from the layout: they fill gaps under what the parsers said, never overwrite it. */
  layoutFacts?: SessionFacts[];
  /** Sessions that must be re-summarised even without new events (facts-only changes). */
  touchSessions?: string[];
  checkpoint: FileCheckpoint;
}

export type Summarizer = (format: Format, input: SummaryInput) => SummaryOutput;

export interface IngestWriter {
  rootId(path: string, format: Format): Promise<number>;
  /** The live (not superseded) generation of a file, if known. */
  currentFile(path: string): Promise<FileRecord | null>;
  createFile(file: NewFile, generation: number): Promise<FileRecord>;
  /**
   * A live file of the same root and chain group whose first line hashed to `hash`: the file a
   * rotated segment used to be (writers rename the active file and start a new one).
   */
  findByFirstLine(rootId: number, chainGroup: string, hash: Buffer): Promise<FileRecord[]>;
  /**
   * Live, parsed (not evidence-only) files of other roots that hold the same ledger as `file`:
   * same format, ledger, session and chain group. Candidates for `file` being a copy of one.
   */
  sameLedgerElsewhere(file: Pick<NewFile, 'rootId' | 'format' | 'ledger' | 'sessionId' | 'chainGroup'>): Promise<FileRecord[]>;
  /**
   * A file turned out to copy another root's (a duplicate source): its events go (their sessions
   * get re-summarised), its evidence stays, and from now on it is read as evidence only, of no session.
   */
  markDuplicate(fileId: number): Promise<void>;
  /** A file was renamed (rotated): its record, evidence and events follow it to the new path. */
  renameFile(fileId: number, path: string, relPath: string): Promise<FileRecord>;
  /** Retire a generation: its evidence stays, its events go; its sessions get re-summarised. */
  supersedeFile(fileId: number, reason: string): Promise<void>;
  /** Record defects not tied to a batch (discovery notes); idempotent by (file, line, kind). Returns how many were new. */
  addDefects(rootId: number, defects: Defect[]): Promise<number>;
  /** Write one batch atomically, with the file's new checkpoint. */
  writeBatch(batch: IngestBatch): Promise<void>;
  /**
   * A file's stored lines from `fromLine` (the first line of a block: 1, or one past the last line
   * returned) through at most `maxBlocks` blocks, in line order; [] past the end. Used to re-hash a
   * changed source against its evidence without holding every line in memory.
   */
  storedLines(fileId: number, fromLine: number, maxBlocks: number): Promise<EvidenceLine[]>;
  /** Where a stored line was and what it hashed to (to check that a source was not rewritten). */
  lineAt(fileId: number, lineNumber: number): Promise<Pick<EvidenceLine, 'offset' | 'length' | 'hash'> | null>;
  /** Just move the checkpoint (e.g. a file re-stat'd unchanged). */
  touchFile(fileId: number, checkpoint: Pick<FileCheckpoint, 'size' | 'mtimeMs'>): Promise<void>;
  /** Re-summarise every session marked dirty; returns how many. */
  summarizeDirty(summarize: Summarizer): Promise<number>;
  release(): Promise<void>;
}

export interface SessionQuery {
  format?: Format;
  project?: string;
  status?: SessionStatus;
  topLevelOnly?: boolean;
  parentId?: string;
  /** Only sessions whose start time key is in [startedFrom, startedBefore) (core/date-range.ts). */
  startedFrom?: string;
  startedBefore?: string;
  /** Only sessions that used a model whose name contains this text (ASCII case-insensitive). */
  model?: string;
  /** Only sessions of these projects (ProjectScope). */
  projects?: ProjectScope;
  limit: number;
  offset: number;
}

/**
 * The projects a team token may see (src/surfaces/access/scope), pushed into a read so the engine
 * filters before it pages. A session is in scope when its `project` (the slug, exactly) is one of
 * them. A root is in scope when its path is one of them and its format keeps shared ledgers (a
 * Control Plane root: store/shared/ledger-traits.ts `projectRoots`); a root of per-session files
 * holds many projects, so naming its path gives nothing. A file is in scope when its session is,
 * or when it names no session and its root is. A finding is in scope when its session is; one
 * naming no session, when its root is or it is about a file in scope.
 */
export type ProjectScope = readonly string[];

/**
 * One term of a search query, as the user meant it (the engine turns terms into its own syntax,
 * so no user text is ever parsed as an operator): a word, a "quoted phrase", or a prefix*.
 */
export interface SearchTerm {
  kind: 'word' | 'phrase' | 'prefix';
  /** The term's text without quotes or `*`; it holds at least one letter or digit. */
  text: string;
}

/** Filters shared by the metadata and the message search. */
export interface SearchFilters {
  /** Every term must match (AND). */
  terms: SearchTerm[];
  project?: string;
  /** Only sessions of these projects (ProjectScope). */
  projects?: ProjectScope;
  format?: Format;
  startedFrom?: string;
  startedBefore?: string;
  limit: number;
  offset: number;
}

/** A session's searchable metadata fields, in the order a match is attributed to them. */
export const METADATA_FIELDS = ['title', 'first_user_message', 'id', 'agent_name', 'project', 'project_path'] as const;
export type MetadataField = (typeof METADATA_FIELDS)[number];

export interface MetadataHit {
  sessionId: string;
  format: Format;
  project: string | null;
  startedAt: string | null;
  /** The first field (METADATA_FIELDS order) that holds every term, else the first that holds the first term. */
  field: MetadataField;
  /** That field's full value. */
  value: string;
}

/** A message near a search hit, in the same session and file. */
export interface NeighbourMessage {
  lineNumber: number;
  eventType: string;
  kind: string;
  /** The event's one-line summary (≤ 160 characters). */
  summary: string;
}

export interface MessageHit {
  sessionId: string;
  format: Format;
  project: string | null;
  startedAt: string | null;
  fileId: number;
  ledger: string;
  lineNumber: number;
  eventType: string;
  kind: string;
  summary: string;
  /** Relevance, higher is better (the engine's rank, rounded so that results are stable). */
  score: number;
  before: NeighbourMessage[];
  after: NeighbourMessage[];
}

export interface SessionRow {
  id: string;
  format: Format;
  project: string | null;
  projectPath: string | null;
  root: string | null;
  parentId: string | null;
  kind: SessionKind;
  title: string | null;
  agentName: string | null;
  mainLedger: string | null;
  status: SessionStatus;
  startedAt: string | null;
  endedAt: string | null;
  turnCount: number;
  firstUserMessage: string | null;
  lastResponsePreview: string | null;
  models: string[];
  /** Own LLM calls. */
  tokensOwn: TokenCounts;
  /** Own plus every descendant's. */
  tokensTotal: TokenCounts;
  llmCalls: number;
  eventCount: number;
  toolCalls: number;
  toolErrors: number;
  errors: number;
  warnings: number;
  compactions: number;
  childCount: number;
  badLines: number;
  rewrites: number;
  attrs: Record<string, unknown>;
  facts: SessionFacts;
}

export interface LedgerInfo {
  ledger: string;
  files: {
    fileId: number;
    relPath: string;
    path: string;
    lines: number;
    generation: number;
    superseded: boolean;
    /** The source as last ingested: size, mtime and the offset after the last complete line. */
    size: number;
    mtimeMs: number;
    offset: number;
    /**
     * The session the file is the ledger of, as discovery named it (a sub-agent's own file names the
     * sub-agent even when its parent lists it too); null for a file of many sessions.
     */
    sessionId: string | null;
  }[];
}

export interface RawLineRow {
  file: string;
  fileId: number;
  lineNumber: number;
  offset: number;
  raw: Buffer;
  status: EvidenceLine['status'];
  hash: string;
}

/** A line's stored length and hash (Store.evidenceLineHashes). */
export interface EvidenceLineHash {
  fileId: number;
  lineNumber: number;
  length: number;
  hash: Buffer;
}

/** Where one evidence line is: the store's file id and the line number in that file. */
export interface EvidenceRef {
  fileId: number;
  lineNumber: number;
}

export interface LedgerEntryQuery {
  fileIds: number[];
  type?: string;
  sessionId?: string;
  offset: number;
  limit: number;
}

/** A ledger entry's address and index columns; its content is the evidence line. */
export interface LedgerEntryRow {
  fileId: number;
  file: string;
  lineNumber: number;
  type: string;
  /** null for an entry that names no session. */
  sessionId: string | null;
  tsKey: string | null;
}

/** A ledger entry with its evidence line's bytes (null when its address holds no stored line). */
export interface LedgerEntryLine extends LedgerEntryRow {
  raw: Buffer | null;
}

/** A decompressed evidence block: `data` holds the raw bytes of lines firstLine…, each line at its `start` in data. */
export interface EvidenceBlockView {
  fileId: number;
  file: string;
  data: Buffer;
  lines: { lineNumber: number; start: number; length: number; status: EvidenceLine['status'] }[];
}

/**
 * An evidence block as it is stored (compressed), with its lines: for a reader that inflates it
 * elsewhere (grep's search workers, with inflateEvidence from src/store/shared/visit-blocks.ts).
 */
export interface PackedEvidenceBlockView {
  fileId: number;
  file: string;
  lines: EvidenceBlockView['lines'];
  packed: PackedEvidence;
}

/**
 * Blocks a scan may leave out (neither inflated nor visited): those that cannot hold `holding`
 * (bytes every line the caller wants contains), ignoring the case of ASCII letters, as far as the
 * block's stored gram filter tells. A block without one is visited. A store that changes the bytes
 * it shows (redaction) must ignore it: the shown bytes are not the ones the filter describes.
 */
export interface EvidenceSkip {
  holding: Uint8Array;
  /** Told of each block left out (the caller may count a file as read though none of its blocks was visited). */
  left?(fileId: number): void;
}

/** A block's stored bytes and its size once inflated. */
export interface PackedEvidence {
  data: Buffer;
  rawBytes: number;
}

export interface SourceFileRow {
  root: string;
  file: string;
  format: Format;
  ledger: string;
  sessionId: string | null;
  generation: number;
  superseded: boolean;
  supersededReason: string | null;
  size: number;
  lines: number;
  badLines: number;
  events: number;
}

export interface DefectRow extends Defect {
  root: string;
}

export interface DefectQuery {
  severity?: Defect['severity'];
  kind?: string;
  sessionId?: string;
  /** Only findings in the scope of these projects (ProjectScope). */
  projects?: ProjectScope;
  limit: number;
  offset: number;
}

export interface FileQuery {
  /** Only files in the scope of these projects (ProjectScope). */
  projects?: ProjectScope;
  limit: number;
  offset: number;
}

export interface StoreTotals {
  roots: number;
  files: number;
  sessions: number;
  events: number;
  lines: number;
  badLines: number;
  bytes: number;
  storedEvidenceBytes: number;
  rewrites: number;
  chainBreaks: number;
  byFormat: Record<string, { files: number; sessions: number; bytes: number; lines: number }>;
}

/** A session as usage reports need it: enough to fold sub-agents into their top-level session. */
export interface UsageSessionRow {
  id: string;
  parentId: string | null;
  project: string | null;
  projectPath: string | null;
  format: Format;
}

/** A session's outcome and counts as the metrics aggregates read them (Store.sessionTallies). */
export interface SessionTally extends UsageSessionRow {
  status: SessionStatus;
  /** As SessionRow.startedAt. */
  startedAt: string | null;
  llmCalls: number;
  toolCalls: number;
  toolErrors: number;
}

/** The tokens and recorded cost of stored LLM calls, one call's or a group's summed. */
export interface StoredCallTokens {
  input: number;
  output: number;
  cacheWrite: number;
  cacheWrite1h: number;
  cacheRead: number;
  /** Output-priced tokens outside output (TokenCounts.reasoning); 0 for formats without them. */
  reasoning: number;
  /** The cost the logs recorded (Amplifier cost_usd), summed for a group; null when none was recorded. */
  recordedUsd: number | null;
}

/**
 * LLM calls (each counted once, by the summarisers' rule: src/usage/calls.ts) of one session, UTC
 * day, model, long-context side and recorded-cost presence, summed: prices are linear inside such
 * a group, so a report priced group by group equals one priced call by call.
 */
export interface UsageCallGroupRow extends StoredCallTokens {
  sessionId: string;
  model: string | null;
  /** Whether the calls' prompts (input + cache write + cache read) were over the threshold asked for. */
  long: boolean;
  calls: number;
  /** Milliseconds of the first and the last call; null for calls without a time. */
  firstMs: number | null;
  lastMs: number | null;
}

/**
 * One stored LLM call (each counted once, by the summarisers' rule: src/core/llm-calls.ts), with its
 * own time: for reports that cut calls by instant rather than by day (5-hour blocks).
 */
export interface UsageCallRow extends StoredCallTokens {
  sessionId: string;
  /** Sequence of the chosen record in its session: orders the calls of one instant. */
  seq: number;
  /** Milliseconds of the call, and nanoseconds within that millisecond (0 when the log has none); null, 0 for a call without a time. */
  tsMs: number | null;
  tsNs: number;
  model: string | null;
}

/** A team token as a store keeps it: everything but the token itself (surfaces/access/tokens mints them). */
export interface TokenRow {
  id: string;
  /** SHA-256 of the token, hex. */
  token_hash: string;
  user_name: string;
  /** JSON array of project names. */
  projects: string;
  read_only: number | boolean;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

/**
 * The store's token table. It is created on the first insert, so a store that never had a token
 * is never changed by reading it, and reads of it need no table.
 */
export interface TokenTable {
  insert(row: TokenRow): Promise<void>;
  /** Every token, oldest first (created_at, then id), revoked ones included. */
  all(): Promise<TokenRow[]>;
  byId(id: string): Promise<TokenRow | null>;
  /** Set revoked_at unless the token is revoked already (the first date stays). */
  revoke(id: string, at: string): Promise<void>;
  /** The unrevoked token with this hash. */
  activeByHash(hash: string): Promise<TokenRow | null>;
  /** Whether any token was ever inserted. */
  any(): Promise<boolean>;
  /** Record a use; best effort (a busy store skips it rather than delay a request). */
  touch(id: string, at: string): Promise<void>;
}

/**
 * A small document sync keeps with a store (src/sync/sync-state.ts gives it meaning): beside a
 * SQLite store the file `<db>.sync.json`, in a PostgreSQL store a one-row table of its schema.
 */
export interface SyncStateSlot {
  /** The document, or null when nothing was written yet. */
  read(): Promise<string | null>;
  /** Replace the document whole (a crash leaves the old one or the new one, never half). */
  write(text: string): Promise<void>;
}

export interface Store {
  readonly engine: 'sqlite' | 'postgres';
  /** Where the data lives (a file path or a connection string without secrets). */
  readonly location: string;
  /** Take the single-writer ingest lock; `wait` queues behind a running ingest instead of failing. */
  beginIngest(options?: { wait?: boolean; waitTimeoutMs?: number }): Promise<IngestWriter>;
  listSessions(query: SessionQuery): Promise<{ total: number; sessions: SessionRow[] }>;
  /**
   * listSessions with the sync document (what syncState().read() gives) read beside it: on a server,
   * in the same statement, where the two reads in parallel cost a second statement on every listing.
   * Optional: a view of a store without it is asked the two reads.
   */
  listSessionsWithSyncState?(query: SessionQuery): Promise<{ total: number; sessions: SessionRow[]; syncState: string | null }>;
  getSession(id: string): Promise<SessionRow | null>;
  /**
   * Sessions whose metadata (METADATA_FIELDS) holds every term as a case-insensitive substring,
   * best field first (METADATA_FIELDS order), then newest, then id. `total` counts every match.
   */
  searchSessionMetadata(query: SearchFilters): Promise<{ total: number; hits: MetadataHit[] }>;
  /**
   * Indexed message text (user and assistant messages) holding every term, one hit per source
   * line, most relevant first, then newest session, then id and line. `context` adds up to that
   * many neighbouring messages before and after each hit. `total` counts every matching line.
   */
  searchMessages(query: SearchFilters & { context?: number }): Promise<{ total: number; hits: MessageHit[] }>;
  /** Ledgers that hold evidence for the session (its own files, its children's, or its plane root's). */
  sessionLedgers(id: string): Promise<LedgerInfo[]>;
  /** The roots ingested (what the user pointed at), optionally of one format. */
  listRoots(format?: Format): Promise<{ path: string; format: Format }[]>;
  /** Ledgers of a root (its live and superseded files per ledger, in reading order). */
  rootLedgers(rootPath: string): Promise<LedgerInfo[]>;
  /** Evidence lines of the given files in ledger order, starting at position `from` (1-based) of their concatenation. */
  rawLines(fileIds: number[], from: number, limit: number): Promise<RawLineRow[]>;
  /**
   * One page of a session's timeline in the order of compareTimeline (core/timeline-order.ts);
   * with `descendants`, its sub-agents' and forks' events are merged in (each event names its
   * own session and ledger). `total` counts every event of the merged timeline.
   */
  sessionTimeline(id: string, options: { offset: number; limit: number; descendants: boolean }): Promise<{ total: number; events: StoredEvent[] }>;
  /**
   * getSession and sessionLedgers of one id (exactly; no prefix) in one read: on a server, one
   * statement where the two in parallel cost two. Optional: a view of a store without it is asked
   * the two reads.
   */
  sessionWithLedgers?(id: string): Promise<{ session: SessionRow | null; ledgers: LedgerInfo[] }>;
  /** Ids of every session below this one (children, their children…), in id order. */
  sessionDescendants(id: string): Promise<string[]>;
  /**
   * The rows of every session below this one, in no particular order: what sessionDescendants and
   * a getSession per id give, in one read. Optional: a view of a store without it is asked that way.
   */
  sessionDescendantRows?(id: string): Promise<SessionRow[]>;
  /** Exact evidence lines by address, in the order asked; addresses that hold no line are left out. */
  evidenceLines(refs: EvidenceRef[]): Promise<RawLineRow[]>;
  /**
   * The stored length and hash (core/line-hash.ts) of lines by address, in the order asked, read
   * from the blocks' line indexes without inflating a block; addresses that hold no line are left
   * out. Optional: a view of a store without it (one that changes the lines it shows) is asked
   * evidenceLines instead.
   */
  evidenceLineHashes?(refs: EvidenceRef[]): Promise<EvidenceLineHash[]>;
  /**
   * Entries of one ledger (its files, in reading order), optionally of one event type and one
   * session, paginated in ledger order. Entries that belong to no session are included unless
   * `sessionId` is given. `total` counts every match.
   */
  ledgerEntries(query: LedgerEntryQuery): Promise<{ total: number; entries: LedgerEntryRow[] }>;
  /**
   * ledgerEntries with each entry's evidence line (evidenceLines' bytes; null where no line is
   * stored at its address): on a server, the page and the blocks holding it in one round trip
   * instead of two in turn. Optional: a view of a store without it is asked those two reads.
   */
  ledgerEntryLines?(query: LedgerEntryQuery): Promise<{ total: number; entries: LedgerEntryLine[] }>;
  /** Distinct event types of a ledger with their counts (for error messages and overviews). */
  ledgerEventTypes(fileIds: number[]): Promise<{ type: string; count: number }[]>;
  /**
   * Visit the evidence of the given files in reading order, one decompressed block at a time
   * (several blocks are decompressed ahead, in parallel). Return false from `visit` to stop.
   */
  scanEvidence(fileIds: number[], visit: (block: EvidenceBlockView) => boolean | void, skip?: EvidenceSkip): Promise<void>;
  /**
   * Optional: scanEvidence without inflating the blocks, for a reader that inflates them on other
   * threads. A store that must change the bytes it shows (redaction) leaves it out: callers then
   * use scanEvidence.
   */
  scanPackedEvidence?(fileIds: number[], visit: (block: PackedEvidenceBlockView) => boolean | void, skip?: EvidenceSkip): Promise<void>;
  listFiles(query: FileQuery): Promise<{ total: number; files: SourceFileRow[] }>;
  listDefects(query: DefectQuery): Promise<{ total: number; defects: DefectRow[] }>;
  /**
   * What the store holds. `projects`: what the scope of these projects (ProjectScope) holds, its
   * stored evidence bytes being the whole store's compression ratio applied to its bytes.
   */
  totals(projects?: ProjectScope): Promise<StoreTotals>;
  /**
   * Optional: every session and the store's LLM calls already grouped (UsageCallGroupRow), in any
   * order; `longContextThreshold` splits the long-context side. A store without it is read call by
   * call through sessionTimeline (src/usage/calls.ts), with the same figures. `projects`: only
   * the sessions of these projects (ProjectScope) and their calls.
   */
  usageCallGroups?(longContextThreshold: number, projects?: ProjectScope): Promise<{ sessions: UsageSessionRow[]; groups: UsageCallGroupRow[] }>;
  /**
   * Optional: as usageCallGroups, but the calls summed per UTC hour instead of day, and the calls at
   * an hour's first millisecond apart from the rest of that hour: each group's calls then fall in one
   * 5-hour block whatever the blocks (src/usage/blocks.ts). A store without it is read call by call
   * (usageCallRows, else sessionTimeline), with the same blocks.
   */
  usageCallHours?(longContextThreshold: number, projects?: ProjectScope): Promise<{ sessions: UsageSessionRow[]; groups: UsageCallGroupRow[] }>;
  /**
   * Optional: every session and the store's LLM calls one by one (UsageCallRow), in any order. A
   * store without it is read through sessionTimeline (src/usage/calls.ts), with the same calls.
   */
  usageCallRows?(projects?: ProjectScope): Promise<{ sessions: UsageSessionRow[]; calls: UsageCallRow[] }>;
  /**
   * Optional: every session's SessionTally, in any order (one narrow read instead of listSessions'
   * pages). A store without it is read through listSessions, with the same figures. `projects`:
   * only the sessions of these projects (ProjectScope).
   */
  sessionTallies?(projects?: ProjectScope): Promise<SessionTally[]>;
  /**
   * Optional: a token that differs whenever a write has committed since it was read (from this
   * connection or any other), so an answer computed from the whole store can be kept while it is
   * unchanged (src/analysis/version-cache.ts). null, or no method: nothing may be kept.
   */
  dataVersion?(): Promise<string | null>;
  /**
   * Optional: a token that differs whenever anything a view of one session is made from may have
   * changed: the rows (as getSession reads them) of the session with exactly this id, of its parent
   * and of every descendant, and the state (size, offset, lines, mtime, generation, superseded,
   * path) of every file that may hold its evidence (sessionLedgers' candidates); in one read, so a
   * kept answer costs one round trip on a server. null: no session has this id (a prefix, or gone).
   */
  sessionDataVersion?(id: string): Promise<string | null>;
  /** The team tokens kept in this store (its file or its schema). */
  tokens(): TokenTable;
  /** What sync remembers beside this store (sync-state.ts reads and writes it). */
  syncState(): SyncStateSlot;
  close(): Promise<void>;
}
