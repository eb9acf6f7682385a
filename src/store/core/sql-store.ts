// The Store's reads, written once over core/sql.ts: each engine's store extends this class with how
// it opens, locks an ingest, searches message text, and keeps tokens and sync state.

import type { Format, SessionStatus } from '../../core/model.js';
import { keyToIso } from '../../core/time.js';
import type { StoredEvent } from '../../core/events.js';
import type {
  DefectQuery,
  DefectRow,
  EvidenceBlockView,
  EvidenceSkip,
  PackedEvidenceBlockView,
  FileQuery,
  EvidenceLineHash,
  EvidenceRef,
  IngestWriter,
  LedgerEntryLine,
  LedgerEntryQuery,
  LedgerEntryRow,
  LedgerInfo,
  MessageHit,
  MetadataHit,
  ProjectScope,
  RawLineRow,
  SearchFilters,
  SessionTally,
  SessionQuery,
  SessionRow,
  SourceFileRow,
  Store,
  StoreTotals,
  SyncStateSlot,
  TokenTable,
  UsageCallGroupRow,
  UsageCallRow,
  UsageSessionRow,
} from '../store.js';
import { groupLedgers, type LedgerFileRow } from '../shared/ledger-groups.js';
import { ledgerTraits } from '../shared/ledger-traits.js';
import { asciiLower, likePattern } from '../shared/metadata-match.js';
import { defectFromRow, sourceFileFromRow, type DefectRowDb, type SourceFileRowDb } from '../shared/report-rows.js';
import { sessionFromRow, type SessionRowDb } from './rows.js';
import { readEvidenceLineHashes, readEvidenceLines, readLedgerEntries, readLedgerEventTypes, readRawLines, scanEvidence, scanPackedEvidence } from './ledger-reads.js';
import { bindScope, defectInScope, fileInScope, projectInScope } from './project-scope.js';
import { readScopeTotals } from './scope-totals.js';
import { binder, searchSessionMetadata } from './search.js';
import { readTimelinePage } from './session-events.js';
import { first, type Sql } from './sql.js';
import { readUsageCallGroups, readUsageCallRows } from './usage-calls.js';

export const SESSION_SELECT = `SELECT s.*, r.path AS root_path,
  (SELECT count(*) FROM sessions c WHERE c.parent_id = s.id) AS child_count,
  (SELECT count(*) FROM (SELECT DISTINCT d.root_id, d.rel_path, d.line FROM defects d
    WHERE d.session_id = s.id AND d.severity = 'error' AND d.line IS NOT NULL) x) AS bad_lines,
  (SELECT count(*) FROM defects d WHERE d.session_id = s.id AND d.kind = 'rewritten_source') AS rewrites
  FROM sessions s LEFT JOIN roots r ON r.id = s.root_id`;

const LEDGER_ORDER = 'ORDER BY f.ledger_rank, f.ledger, f.chain_group NULLS FIRST, f.id';

export abstract class SqlStore implements Store {
  abstract readonly engine: 'sqlite' | 'postgres';
  abstract readonly location: string;
  protected abstract readonly sql: Sql;
  abstract beginIngest(options?: { wait?: boolean; waitTimeoutMs?: number }): Promise<IngestWriter>;
  abstract searchMessages(query: SearchFilters & { context?: number }): Promise<{ total: number; hits: MessageHit[] }>;
  abstract tokens(): TokenTable;
  abstract syncState(): SyncStateSlot;
  abstract close(): Promise<void>;

  /** The file columns groupLedgers reads (the offset named as SQLite names it). */
  private get ledgerFileColumns(): string {
    return `f.id, f.ledger, f.rel_path, f.path, f.lines, f.generation, f.superseded, f.size, f.mtime_ms, f.${this.sql.dialect.offsetColumn} AS "offset", f.session_id`;
  }

  async listSessions(q: SessionQuery): Promise<{ total: number; sessions: SessionRow[] }> {
    const { total, sessions } = await this.listSessionRows(q);
    return { total, sessions };
  }

  /**
   * listSessions; on a server, `extra` (an SQL expression of no parameters) is computed in the same
   * statement and comes back as `extra` (null when not asked, and on an engine that pays no round trips).
   */
  protected async listSessionRows(q: SessionQuery, extra?: string): Promise<{ total: number; sessions: SessionRow[]; extra: unknown }> {
    const params: unknown[] = [];
    const p = binder(params);
    const conds: string[] = [];
    if (q.format !== undefined) conds.push(`s.format = ${p(q.format)}`);
    if (q.project !== undefined) {
      const n = p(q.project);
      conds.push(`(s.project = ${n} OR s.project_path = ${n})`);
    }
    if (q.projects !== undefined) conds.push(projectInScope(this.sql, 's.project', p(q.projects)));
    if (q.status !== undefined) conds.push(`s.status = ${p(q.status)}`);
    if (q.topLevelOnly) conds.push('s.parent_id IS NULL');
    if (q.parentId !== undefined) conds.push(`s.parent_id = ${p(q.parentId)}`);
    if (q.startedFrom !== undefined) conds.push(`s.started_at >= ${p(q.startedFrom)}`);
    if (q.startedBefore !== undefined) conds.push(`s.started_at < ${p(q.startedBefore)}`);
    if (q.model !== undefined) {
      // ASCII case-insensitive containment, as SQLite's LIKE.
      const d = this.sql.dialect;
      conds.push(`EXISTS (SELECT 1 FROM ${d.jsonTexts('s.models', 'm')} WHERE ${d.asciiLower('m.value')} LIKE ${p(likePattern(asciiLower(q.model)))} ESCAPE '\\')`);
    }
    const clause = conds.length ? `WHERE ${conds.join(' AND ')}` : '';
    const filters = [...params];
    // The page's sessions are chosen on the index of start times (sessions_started: newest first,
    // then those without a start by id), each half stopping at the page's end, and only then read
    // whole with their counts. Sorting every matching row instead read all of the wide rows (and
    // on PostgreSQL counted each one's rewrites) to keep twenty.
    const and = clause ? `${clause} AND` : 'WHERE';
    const end = p(Math.min(q.limit + q.offset, Number.MAX_SAFE_INTEGER));
    const keys = `SELECT * FROM (SELECT s.sid, 0 AS unstarted, s.started_at, s.id FROM sessions s ${and} s.started_at IS NOT NULL
        ORDER BY s.started_at DESC, s.id LIMIT ${end}) a
      UNION ALL SELECT * FROM (SELECT s.sid, 1 AS unstarted, s.started_at, s.id FROM sessions s ${and} s.started_at IS NULL ORDER BY s.id LIMIT ${end}) b
      ORDER BY 2, 3 DESC, 4 LIMIT ${p(q.limit)} OFFSET ${p(q.offset)}`;
    const page = `${SESSION_SELECT} JOIN (${keys}) k ON k.sid = s.sid`;
    const counting = `SELECT count(*) AS n FROM sessions s ${clause}`;
    if (!this.sql.dialect.roundTrips) {
      const [counted, rows] = await Promise.all([
        first<{ n: number }>(this.sql, counting, filters),
        this.sql.all<SessionRowDb>(`${page} ORDER BY s.started_at IS NULL, s.started_at DESC, s.id`, params),
      ]);
      return { total: counted!.n, sessions: rows.map(sessionFromRow), extra: null };
    }
    // On a server, the count beside the page in one statement (one round trip on one connection):
    // one row holding only the count when the page is empty. `extra` rides on one row only (it may
    // be a long text: twenty copies would cost twenty times its transfer).
    const rows = await this.sql.all<SessionRowDb & { listed_total: number; listed_extra: unknown }>(
      `SELECT c.n AS listed_total, ${extra === undefined ? 'NULL' : `CASE WHEN row_number() OVER () = 1 THEN ${extra} END`} AS listed_extra, x.*
       FROM (${counting}) c LEFT JOIN (${page}) x ON 1 = 1
       ORDER BY x.started_at IS NULL, x.started_at DESC, x.id`,
      params,
    );
    const carried = rows.find((r) => r.listed_extra !== null)?.listed_extra ?? null;
    return { total: rows[0]!.listed_total, sessions: rows.filter((r) => r.id !== null).map(sessionFromRow), extra: carried };
  }

  async getSession(id: string): Promise<SessionRow | null> {
    const row = await first<SessionRowDb>(this.sql, `${SESSION_SELECT} WHERE s.id = $1`, [id]);
    return row ? sessionFromRow(row) : null;
  }

  /** The rows of the sessions with these ids that exist, by id: one statement for many lookups. */
  protected async sessionsById(ids: readonly string[]): Promise<Map<string, SessionRow>> {
    const rows = await this.sql.all<SessionRowDb>(`${SESSION_SELECT} WHERE ${this.sql.dialect.inArray('s.id', '$1', 'text')}`, [ids]);
    return new Map(rows.map((r) => [r.id, sessionFromRow(r)]));
  }

  async searchSessionMetadata(query: SearchFilters): Promise<{ total: number; hits: MetadataHit[] }> {
    return searchSessionMetadata(this.sql, query);
  }

  async sessionLedgers(id: string): Promise<LedgerInfo[]> {
    return (await this.sessionLedgerRows(id)).ledgers;
  }

  /**
   * sessionLedgers; `extra` (an SQL expression, $1 being the id) is computed in the same statement
   * and comes back as `extra` (null when not asked, and when the session has no ledger file).
   */
  protected async sessionLedgerRows(id: string, extra?: string): Promise<{ ledgers: LedgerInfo[]; extra: unknown }> {
    // The session's own files, its descendants' where those are its ledgers too, files holding its
    // events (inline sidechains), and the root's shared ledgers (ledger-traits.ts). One statement
    // (on a server, one round trip): every file one of these rules admits, with the rule that
    // admits it and the session's format, whose traits then choose among them. Each rule is an
    // index lookup (inSubquery: on PostgreSQL, `IN (subquery)` made their OR a scan of every file).
    const d = this.sql.dialect;
    // `extra` rides on one row only (twenty copies of a long value would cost twenty transfers).
    const carried = extra === undefined ? '' : `, CASE WHEN row_number() OVER () = 1 THEN ${extra} END AS ledgers_extra`;
    const rows = await this.sql.all<LedgerFileRow & { format: string; own: unknown; nested: unknown; shared: unknown; ledgers_extra?: unknown }>(
      `WITH RECURSIVE tree(id) AS (SELECT ${d.textParam('$1')} UNION SELECT s.id FROM sessions s JOIN tree t ON s.parent_id = t.id),
       me AS (SELECT sid, root_id, format FROM sessions WHERE id = $1),
       held AS (${d.distinctByIndex('events', 'sid', '(SELECT sid FROM me)', 'file_id')})
       SELECT ${this.ledgerFileColumns}, me.format,
         (f.session_id = $1 OR f.id IN (SELECT file_id FROM held)) AS own,
         (f.session_id IN (SELECT id FROM tree)) AS nested,
         (f.session_id IS NULL AND f.root_id = me.root_id) AS shared${carried}
       FROM me, files f
       WHERE f.session_id = $1 OR ${d.inSubquery('f.session_id', 'SELECT id FROM tree')} OR (f.session_id IS NULL AND f.root_id = me.root_id)
          OR ${d.inSubquery('f.id', 'SELECT file_id FROM held')}
       ${LEDGER_ORDER}`,
      [id],
    );
    if (rows.length === 0) return { ledgers: [], extra: null };
    const traits = await ledgerTraits(rows[0]!.format);
    const ledgers = groupLedgers(rows.filter((r) => r.own || (traits.nested && r.nested) || (traits.shared && r.shared)));
    return { ledgers, extra: rows.find((r) => r.ledgers_extra != null)?.ledgers_extra ?? null };
  }

  async listRoots(format?: Format): Promise<{ path: string; format: Format }[]> {
    return format
      ? this.sql.all<{ path: string; format: Format }>('SELECT path, format FROM roots WHERE format = $1 ORDER BY path', [format])
      : this.sql.all<{ path: string; format: Format }>('SELECT path, format FROM roots ORDER BY path');
  }

  async rootLedgers(rootPath: string): Promise<LedgerInfo[]> {
    const rows = await this.sql.all<LedgerFileRow>(
      `SELECT ${this.ledgerFileColumns} FROM files f JOIN roots r ON r.id = f.root_id WHERE r.path = $1 ${LEDGER_ORDER}`,
      [rootPath],
    );
    return groupLedgers(rows);
  }

  async rawLines(fileIds: number[], from: number, limit: number): Promise<RawLineRow[]> {
    return readRawLines(this.sql, fileIds, from, limit);
  }

  async sessionTimeline(id: string, options: { offset: number; limit: number; descendants: boolean }): Promise<{ total: number; events: StoredEvent[] }> {
    return readTimelinePage(this.sql, id, options.descendants, options.offset, options.limit);
  }

  async sessionDescendants(id: string): Promise<string[]> {
    const rows = await this.sql.arrays(
      `WITH RECURSIVE tree(id) AS (SELECT id FROM sessions WHERE parent_id = $1 UNION SELECT s.id FROM sessions s JOIN tree t ON s.parent_id = t.id)
       SELECT id FROM tree ORDER BY id`,
      [id],
    );
    return rows.map((r) => r[0] as string);
  }

  async sessionDescendantRows(id: string): Promise<SessionRow[]> {
    const rows = await this.sql.all<SessionRowDb>(
      `WITH RECURSIVE tree(id) AS (SELECT id FROM sessions WHERE parent_id = $1 UNION SELECT s.id FROM sessions s JOIN tree t ON s.parent_id = t.id)
       ${SESSION_SELECT} WHERE ${this.sql.dialect.inSubquery('s.id', 'SELECT id FROM tree')}`,
      [id],
    );
    return rows.map(sessionFromRow);
  }

  async evidenceLines(refs: EvidenceRef[]): Promise<RawLineRow[]> {
    return readEvidenceLines(this.sql, refs);
  }

  async evidenceLineHashes(refs: EvidenceRef[]): Promise<EvidenceLineHash[]> {
    return readEvidenceLineHashes(this.sql, refs);
  }

  async ledgerEntries(query: LedgerEntryQuery): Promise<{ total: number; entries: LedgerEntryRow[] }> {
    return readLedgerEntries(this.sql, query);
  }

  async ledgerEntryLines(query: LedgerEntryQuery): Promise<{ total: number; entries: LedgerEntryLine[] }> {
    // The two reads in turn (in process, a round trip costs nothing); a server's store folds them.
    const { total, entries } = await this.ledgerEntries(query);
    if (entries.length === 0) return { total, entries: [] };
    const lines = await this.evidenceLines(entries.map((e) => ({ fileId: e.fileId, lineNumber: e.lineNumber })));
    const byAddress = new Map(lines.map((l) => [`${l.fileId}:${l.lineNumber}`, l.raw]));
    return { total, entries: entries.map((e) => ({ ...e, raw: byAddress.get(`${e.fileId}:${e.lineNumber}`) ?? null })) };
  }

  async ledgerEventTypes(fileIds: number[]): Promise<{ type: string; count: number }[]> {
    return readLedgerEventTypes(this.sql, fileIds);
  }

  async scanEvidence(fileIds: number[], visit: (block: EvidenceBlockView) => boolean | void, skip?: EvidenceSkip): Promise<void> {
    return scanEvidence(this.sql, fileIds, visit, skip);
  }

  async scanPackedEvidence(fileIds: number[], visit: (block: PackedEvidenceBlockView) => boolean | void, skip?: EvidenceSkip): Promise<void> {
    return scanPackedEvidence(this.sql, fileIds, visit, skip);
  }

  async listFiles(q: FileQuery): Promise<{ total: number; files: SourceFileRow[] }> {
    const params: unknown[] = [];
    const p = binder(params);
    const clause = q.projects !== undefined ? `WHERE ${fileInScope(this.sql, 'f', await bindScope(this.sql, q.projects, p))}` : '';
    const filters = [...params];
    const [counted, rows] = await Promise.all([
      first<{ n: number }>(this.sql, `SELECT count(*) AS n FROM files f ${clause}`, filters),
      this.sql.all<SourceFileRowDb>(
        `SELECT r.path AS root, f.rel_path, f.format, f.ledger, f.session_id, f.generation, f.superseded,
         f.superseded_reason, f.size, f.lines, f.bad_lines, f.events FROM files f JOIN roots r ON r.id = f.root_id ${clause}
         ORDER BY r.path, f.rel_path, f.generation LIMIT ${p(q.limit)} OFFSET ${p(q.offset)}`,
        params,
      ),
    ]);
    return { total: counted!.n, files: rows.map(sourceFileFromRow) };
  }

  async listDefects(q: DefectQuery): Promise<{ total: number; defects: DefectRow[] }> {
    const params: unknown[] = [];
    const p = binder(params);
    const conds: string[] = [];
    if (q.severity !== undefined) conds.push(`d.severity = ${p(q.severity)}`);
    if (q.kind !== undefined) conds.push(`d.kind = ${p(q.kind)}`);
    if (q.sessionId !== undefined) conds.push(`d.session_id = ${p(q.sessionId)}`);
    if (q.projects !== undefined) conds.push(defectInScope(this.sql, 'd', await bindScope(this.sql, q.projects, p)));
    const clause = conds.length ? `WHERE ${conds.join(' AND ')}` : '';
    const filters = [...params];
    const [counted, rows] = await Promise.all([
      first<{ n: number }>(this.sql, `SELECT count(*) AS n FROM defects d ${clause}`, filters),
      // d.id last: ties in insertion order.
      this.sql.all<DefectRowDb>(
        `SELECT r.path AS root, d.rel_path, d.line, d.severity, d.kind, d.message, d.session_id FROM defects d
         JOIN roots r ON r.id = d.root_id ${clause}
         ORDER BY r.path, d.rel_path, coalesce(d.line, 0), d.kind, d.id LIMIT ${p(q.limit)} OFFSET ${p(q.offset)}`,
        params,
      ),
    ]);
    return { total: counted!.n, defects: rows.map(defectFromRow) };
  }

  async totals(projects?: ProjectScope): Promise<StoreTotals> {
    if (projects !== undefined) return readScopeTotals(this.sql, projects);
    const byFormatRows = await this.sql.all<{ format: string; files: number; bytes: number | null; lines: number | null; sessions: number }>(
      `SELECT f.format, count(*) AS files, sum(f.size) AS bytes, sum(f.lines) AS lines,
       (SELECT count(*) FROM sessions s WHERE s.format = f.format) AS sessions
       FROM files f WHERE f.superseded = 0 GROUP BY f.format ORDER BY f.format`,
    );
    const byFormat: StoreTotals['byFormat'] = {};
    for (const r of byFormatRows) byFormat[r.format] = { files: r.files, sessions: r.sessions, bytes: r.bytes ?? 0, lines: r.lines ?? 0 };
    const t = (await first<Record<string, number | null>>(
      this.sql,
      `SELECT (SELECT count(*) FROM roots) AS roots,
        (SELECT count(*) FROM files WHERE superseded = 0) AS files,
        (SELECT count(*) FROM sessions) AS sessions,
        (SELECT count(*) FROM events) AS events,
        (SELECT sum(lines) FROM files) AS lines,
        (SELECT count(*) FROM (SELECT DISTINCT root_id, rel_path, line FROM defects WHERE severity = 'error' AND line IS NOT NULL) x) AS bad_lines,
        (SELECT sum(size) FROM files WHERE superseded = 0) AS bytes,
        (SELECT sum(${this.sql.dialect.blobLength('data')}) FROM blocks) AS stored,
        (SELECT count(*) FROM defects WHERE kind = 'rewritten_source') AS rewrites,
        (SELECT count(*) FROM defects WHERE kind IN ('hash_mismatch', 'previous_hash_mismatch')) AS chain_breaks`,
    ))!;
    return {
      roots: t.roots ?? 0,
      files: t.files ?? 0,
      sessions: t.sessions ?? 0,
      events: t.events ?? 0,
      lines: t.lines ?? 0,
      badLines: t.bad_lines ?? 0,
      bytes: t.bytes ?? 0,
      storedEvidenceBytes: t.stored ?? 0,
      rewrites: t.rewrites ?? 0,
      chainBreaks: t.chain_breaks ?? 0,
      byFormat,
    };
  }

  async usageCallGroups(longContextThreshold: number, projects?: ProjectScope): Promise<{ sessions: UsageSessionRow[]; groups: UsageCallGroupRow[] }> {
    return readUsageCallGroups(this.sql, longContextThreshold, projects);
  }

  async usageCallHours(longContextThreshold: number, projects?: ProjectScope): Promise<{ sessions: UsageSessionRow[]; groups: UsageCallGroupRow[] }> {
    return readUsageCallGroups(this.sql, longContextThreshold, projects, 'hour');
  }

  async usageCallRows(projects?: ProjectScope): Promise<{ sessions: UsageSessionRow[]; calls: UsageCallRow[] }> {
    return readUsageCallRows(this.sql, projects);
  }

  async sessionTallies(projects?: ProjectScope): Promise<SessionTally[]> {
    const columns = 'SELECT id, parent_id, project, project_path, format, status, started_at, llm_calls, tool_calls, tool_errors FROM sessions';
    const rows =
      projects === undefined
        ? await this.sql.arrays(columns)
        : await this.sql.arrays(`${columns} WHERE ${projectInScope(this.sql, 'project', '$1')}`, [projects]);
    return rows.map((r) => ({
      id: r[0] as string,
      parentId: r[1] as string | null,
      project: r[2] as string | null,
      projectPath: r[3] as string | null,
      format: r[4] as Format,
      status: r[5] as SessionStatus,
      startedAt: keyToIso(r[6] as string | null),
      llmCalls: r[7] as number,
      toolCalls: r[8] as number,
      toolErrors: r[9] as number,
    }));
  }

  async dataVersion(): Promise<string | null> {
    if (this.engine === 'sqlite') {
      // data_version moves when another connection commits; total_changes counts this one's own writes.
      const row = await first<{ v: number; c: number }>(this.sql, 'SELECT (SELECT data_version FROM pragma_data_version) AS v, total_changes() AS c');
      return row ? `${row.v}:${row.c}` : null;
    }
    // The server's WAL insert position: every commit advances it before it becomes visible, so a
    // changed store always reads as a new version (unrelated writes do too, which only costs a miss).
    // A standby in recovery cannot answer: nothing is kept there.
    try {
      const row = await first<{ v: string }>(this.sql, 'SELECT pg_current_wal_insert_lsn()::text AS v');
      return row?.v ?? null;
    } catch {
      return null;
    }
  }
}
