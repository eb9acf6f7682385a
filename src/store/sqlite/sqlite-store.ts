// The embedded default engine: one SQLite file (WAL), opened with migrations applied.

import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { StoreOpenFailed } from '../../core/errors.js';
import type { Format } from '../../core/model.js';
import type { StoredEvent } from '../../core/events.js';
import type {
  DefectQuery,
  DefectRow,
  EvidenceBlockView,
  EvidenceRef,
  LedgerEntryQuery,
  LedgerEntryRow,
  IngestWriter,
  LedgerInfo,
  MessageHit,
  MetadataHit,
  RawLineRow,
  SearchFilters,
  SessionQuery,
  SessionRow,
  SourceFileRow,
  Store,
  StoreTotals,
  SyncStateSlot,
  TokenTable,
  UsageCallGroupRow,
  UsageSessionRow,
} from '../store.js';
import { syncStateFile } from './sync-state-file.js';
import { sqliteTokens } from './tokens.js';
import { acquireIngestLock } from './ingest-lock.js';
import { unpackLines } from './line-index.js';
import { migrate } from './migrations.js';
import { sessionFromRow, type SessionRowDb } from './rows.js';
import { readEvidenceLines, readLedgerEntries, readLedgerEventTypes, scanEvidence } from './ledger-reads.js';
import { searchMessages, searchSessionMetadata } from './search.js';
import { readTimelinePage } from './session-events.js';
import { readUsageCallGroups } from './usage-calls.js';
import { groupLedgers, type LedgerFileRow } from '../shared/ledger-groups.js';
import { ledgerTraits } from '../shared/ledger-traits.js';
import { defectFromRow, sourceFileFromRow, type DefectRowDb, type SourceFileRowDb } from '../shared/report-rows.js';

const SESSION_SELECT = `SELECT s.*, r.path AS root_path,
  (SELECT count(*) FROM sessions c WHERE c.parent_id = s.id) AS child_count,
  (SELECT count(*) FROM (SELECT DISTINCT d.root_id, d.rel_path, d.line FROM defects d
    WHERE d.session_id = s.id AND d.severity = 'error' AND d.line IS NOT NULL)) AS bad_lines,
  (SELECT count(*) FROM defects d WHERE d.session_id = s.id AND d.kind = 'rewritten_source') AS rewrites
  FROM sessions s LEFT JOIN roots r ON r.id = s.root_id`;

/** `WHERE a = @a AND …` for the filters that are set (values bound by name). */
function whereClause(filters: [sql: string, name: string, value: unknown][]): { clause: string; params: Record<string, unknown> } {
  const set = filters.filter(([, , v]) => v !== undefined && v !== false);
  const params: Record<string, unknown> = {};
  for (const [, name, value] of set) if (name) params[name] = value;
  return { clause: set.length ? `WHERE ${set.map(([sql]) => sql).join(' AND ')}` : '', params };
}

export interface SqliteStoreOptions {
  readonly?: boolean;
}

export class SqliteStore implements Store {
  readonly engine = 'sqlite' as const;
  readonly db: Database.Database;

  constructor(
    readonly location: string,
    options: SqliteStoreOptions = {},
  ) {
    try {
      if (location !== ':memory:') {
        if (existsSync(location) && statSync(location).isDirectory()) throw new Error('it is a folder');
        mkdirSync(dirname(location), { recursive: true });
      }
      this.db = new Database(location, { readonly: options.readonly ?? false });
    } catch (err) {
      throw StoreOpenFailed(location, (err as Error).message);
    }
    try {
      // The first statements are where a file that is not SQLite shows itself ("file is not a
      // database"): one sentence naming the file, never a SqliteError stack trace.
      this.db.pragma('journal_mode = WAL');
      this.db.pragma('synchronous = NORMAL');
      this.db.pragma('busy_timeout = 10000');
      this.db.pragma('cache_size = -16000');
      // Checkpoint the WAL every ~64 MB rather than every 4 MB: each checkpoint syncs to disk.
      this.db.pragma('wal_autocheckpoint = 16384');
      this.db.pragma('foreign_keys = ON');
      if (!options.readonly) migrate(this.db);
    } catch (err) {
      this.db.close();
      if ((err as { code?: string }).code === 'SQLITE_NOTADB') throw StoreOpenFailed(location, 'it is not a SQLite database');
      throw StoreOpenFailed(location, (err as Error).message);
    }
  }

  async beginIngest(options: { wait?: boolean; waitTimeoutMs?: number } = {}): Promise<IngestWriter> {
    // Loaded here: read commands (a tool call, a view) never pay for the ingest writer's modules.
    const { SqliteIngestWriter } = await import('./sqlite-writer.js');
    const release = await acquireIngestLock(this.location, options);
    return new SqliteIngestWriter(this.db, release);
  }

  async listSessions(q: SessionQuery): Promise<{ total: number; sessions: SessionRow[] }> {
    const { clause, params } = whereClause([
      ['s.format = @format', 'format', q.format],
      ['(s.project = @project OR s.project_path = @project)', 'project', q.project],
      ['s.status = @status', 'status', q.status],
      ['s.parent_id IS NULL', '', q.topLevelOnly],
      ['s.parent_id = @parentId', 'parentId', q.parentId],
      ['s.started_at >= @startedFrom', 'startedFrom', q.startedFrom],
      ['s.started_at < @startedBefore', 'startedBefore', q.startedBefore],
      [
        "EXISTS (SELECT 1 FROM json_each(s.models) m WHERE m.value LIKE @model ESCAPE '\\')",
        'model',
        q.model === undefined ? undefined : `%${q.model.replace(/[\\%_]/g, (c) => `\\${c}`)}%`,
      ],
    ]);
    const total = (this.db.prepare(`SELECT count(*) AS n FROM sessions s ${clause}`).get(params) as { n: number }).n;
    const rows = this.db
      .prepare(`${SESSION_SELECT} ${clause} ORDER BY s.started_at IS NULL, s.started_at DESC, s.id LIMIT @limit OFFSET @offset`)
      .all({ ...params, limit: q.limit, offset: q.offset }) as SessionRowDb[];
    return { total, sessions: rows.map(sessionFromRow) };
  }

  async getSession(id: string): Promise<SessionRow | null> {
    const row = this.db.prepare(`${SESSION_SELECT} WHERE s.id = ?`).get(id) as SessionRowDb | undefined;
    return row ? sessionFromRow(row) : null;
  }

  async searchSessionMetadata(query: SearchFilters): Promise<{ total: number; hits: MetadataHit[] }> {
    return searchSessionMetadata(this.db, query);
  }

  async searchMessages(query: SearchFilters & { context?: number }): Promise<{ total: number; hits: MessageHit[] }> {
    return searchMessages(this.db, query);
  }

  async sessionLedgers(id: string): Promise<LedgerInfo[]> {
    const session = this.db.prepare('SELECT sid, root_id, format FROM sessions WHERE id = ?').get(id) as
      | { sid: number; root_id: number; format: string }
      | undefined;
    if (!session) return [];
    // The session's own files, its descendants' where those are its ledgers too, files holding its
    // events (inline sidechains), and the root's shared ledgers (ledger-traits.ts).
    const traits = await ledgerTraits(session.format);
    const rows = this.db
      .prepare(
        `WITH RECURSIVE tree(id) AS (SELECT @id UNION SELECT s.id FROM sessions s JOIN tree t ON s.parent_id = t.id)
         SELECT f.id, f.ledger, f.rel_path, f.path, f.lines, f.generation, f.superseded, f.size, f.mtime_ms, f.offset, f.ledger_rank FROM files f
         WHERE f.session_id = @id
            OR (@nested = 1 AND f.session_id IN (SELECT id FROM tree))
            OR (@shared = 1 AND f.session_id IS NULL AND f.root_id = @rootId)
            OR f.id IN (SELECT DISTINCT e.file_id FROM events e WHERE e.sid = @sid)
         ORDER BY f.ledger_rank, f.ledger, f.chain_group, f.id`,
      )
      .all({
        id,
        nested: traits.nested ? 1 : 0,
        shared: traits.shared ? 1 : 0,
        rootId: session.root_id,
        sid: session.sid,
      }) as LedgerFileRow[];
    return groupLedgers(rows);
  }

  async listRoots(format?: Format): Promise<{ path: string; format: Format }[]> {
    const rows = (
      format
        ? this.db.prepare('SELECT path, format FROM roots WHERE format = ? ORDER BY path').all(format)
        : this.db.prepare('SELECT path, format FROM roots ORDER BY path').all()
    ) as { path: string; format: Format }[];
    return rows;
  }

  async rootLedgers(rootPath: string): Promise<LedgerInfo[]> {
    const rows = this.db
      .prepare(
        `SELECT f.id, f.ledger, f.rel_path, f.path, f.lines, f.generation, f.superseded, f.size, f.mtime_ms, f.offset FROM files f
         JOIN roots r ON r.id = f.root_id WHERE r.path = ? ORDER BY f.ledger_rank, f.ledger, f.chain_group, f.id`,
      )
      .all(rootPath) as LedgerFileRow[];
    return groupLedgers(rows);
  }

  async rawLines(fileIds: number[], from: number, limit: number): Promise<RawLineRow[]> {
    const out: RawLineRow[] = [];
    let skip = from - 1;
    const fileInfo = this.db.prepare('SELECT rel_path, lines FROM files WHERE id = ?');
    const blocksFrom = this.db.prepare(
      `SELECT first_line, first_offset, line_index, data FROM blocks WHERE file_id = ? AND first_line + line_count > ?
       ORDER BY first_line`,
    );
    for (const fileId of fileIds) {
      if (out.length >= limit) break;
      const info = fileInfo.get(fileId) as { rel_path: string; lines: number };
      if (skip >= info.lines) {
        skip -= info.lines;
        continue;
      }
      const wantLine = skip + 1;
      skip = 0;
      for (const b of blocksFrom.iterate(fileId, wantLine) as Iterable<{
        first_line: number;
        first_offset: number;
        line_index: Buffer;
        data: Buffer;
      }>) {
        const raw = brotliDecompressSync(b.data);
        for (const l of unpackLines(b.line_index, b.first_line, b.first_offset)) {
          if (l.lineNumber < wantLine) continue;
          const start = l.offset - b.first_offset;
          out.push({
            file: info.rel_path,
            fileId,
            lineNumber: l.lineNumber,
            offset: l.offset,
            raw: raw.subarray(start, start + l.length),
            status: l.status,
            hash: l.hash.toString('hex'),
          });
          if (out.length >= limit) break;
        }
        if (out.length >= limit) break;
      }
    }
    return out;
  }

  async sessionTimeline(
    id: string,
    options: { offset: number; limit: number; descendants: boolean },
  ): Promise<{ total: number; events: StoredEvent[] }> {
    const ids = [id, ...(options.descendants ? await this.sessionDescendants(id) : [])];
    const bySid = this.db.prepare('SELECT sid FROM sessions WHERE id = ?');
    const sessions = ids.flatMap((sessionId) => {
      const row = bySid.get(sessionId) as { sid: number } | undefined;
      return row ? [{ sid: row.sid, id: sessionId }] : [];
    });
    return readTimelinePage(this.db, sessions, options.offset, options.limit);
  }

  async sessionDescendants(id: string): Promise<string[]> {
    const rows = this.db
      .prepare(
        `WITH RECURSIVE tree(id) AS (SELECT id FROM sessions WHERE parent_id = ? UNION SELECT s.id FROM sessions s JOIN tree t ON s.parent_id = t.id)
         SELECT id FROM tree ORDER BY id`,
      )
      .all(id) as { id: string }[];
    return rows.map((r) => r.id);
  }

  async evidenceLines(refs: EvidenceRef[]): Promise<RawLineRow[]> {
    return readEvidenceLines(this.db, refs);
  }

  async ledgerEntries(query: LedgerEntryQuery): Promise<{ total: number; entries: LedgerEntryRow[] }> {
    return readLedgerEntries(this.db, query);
  }

  async ledgerEventTypes(fileIds: number[]): Promise<{ type: string; count: number }[]> {
    return readLedgerEventTypes(this.db, fileIds);
  }

  async scanEvidence(fileIds: number[], visit: (block: EvidenceBlockView) => boolean | void): Promise<void> {
    return scanEvidence(this.db, fileIds, visit);
  }

  async listFiles(options: { limit: number; offset: number }): Promise<{ total: number; files: SourceFileRow[] }> {
    const total = (this.db.prepare('SELECT count(*) AS n FROM files').get() as { n: number }).n;
    const rows = this.db
      .prepare(
        `SELECT r.path AS root, f.rel_path, f.format, f.ledger, f.session_id, f.generation, f.superseded,
         f.superseded_reason, f.size, f.lines, f.bad_lines, f.events FROM files f JOIN roots r ON r.id = f.root_id
         ORDER BY r.path, f.rel_path, f.generation LIMIT ? OFFSET ?`,
      )
      .all(options.limit, options.offset) as SourceFileRowDb[];
    return { total, files: rows.map(sourceFileFromRow) };
  }

  async listDefects(q: DefectQuery): Promise<{ total: number; defects: DefectRow[] }> {
    const { clause, params } = whereClause([
      ['d.severity = @severity', 'severity', q.severity],
      ['d.kind = @kind', 'kind', q.kind],
      ['d.session_id = @sessionId', 'sessionId', q.sessionId],
    ]);
    const total = (this.db.prepare(`SELECT count(*) AS n FROM defects d ${clause}`).get(params) as { n: number }).n;
    const rows = this.db
      .prepare(
        `SELECT r.path AS root, d.rel_path, d.line, d.severity, d.kind, d.message, d.session_id FROM defects d
         JOIN roots r ON r.id = d.root_id ${clause}
         ORDER BY r.path, d.rel_path, ifnull(d.line, 0), d.kind LIMIT @limit OFFSET @offset`,
      )
      .all({ ...params, limit: q.limit, offset: q.offset }) as DefectRowDb[];
    return { total, defects: rows.map(defectFromRow) };
  }

  async totals(): Promise<StoreTotals> {
    const one = <T>(sql: string) => this.db.prepare(sql).get() as T;
    const byFormatRows = this.db
      .prepare(
        `SELECT f.format, count(*) AS files, sum(f.size) AS bytes, sum(f.lines) AS lines,
         (SELECT count(*) FROM sessions s WHERE s.format = f.format) AS sessions
         FROM files f WHERE f.superseded = 0 GROUP BY f.format ORDER BY f.format`,
      )
      .all() as { format: string; files: number; bytes: number; lines: number; sessions: number }[];
    const byFormat: StoreTotals['byFormat'] = {};
    for (const r of byFormatRows) byFormat[r.format] = { files: r.files, sessions: r.sessions, bytes: r.bytes ?? 0, lines: r.lines ?? 0 };
    return {
      roots: one<{ n: number }>('SELECT count(*) AS n FROM roots').n,
      files: one<{ n: number }>('SELECT count(*) AS n FROM files WHERE superseded = 0').n,
      sessions: one<{ n: number }>('SELECT count(*) AS n FROM sessions').n,
      events: one<{ n: number }>('SELECT count(*) AS n FROM events').n,
      lines: one<{ n: number | null }>('SELECT sum(lines) AS n FROM files').n ?? 0,
      badLines: one<{ n: number }>(
        "SELECT count(*) AS n FROM (SELECT DISTINCT root_id, rel_path, line FROM defects WHERE severity = 'error' AND line IS NOT NULL)",
      ).n,
      bytes: one<{ n: number | null }>('SELECT sum(size) AS n FROM files WHERE superseded = 0').n ?? 0,
      storedEvidenceBytes: one<{ n: number | null }>('SELECT sum(length(data)) AS n FROM blocks').n ?? 0,
      rewrites: one<{ n: number }>("SELECT count(*) AS n FROM defects WHERE kind = 'rewritten_source'").n,
      chainBreaks: one<{ n: number }>(
        "SELECT count(*) AS n FROM defects WHERE kind IN ('hash_mismatch', 'previous_hash_mismatch')",
      ).n,
      byFormat,
    };
  }

  async usageCallGroups(longContextThreshold: number): Promise<{ sessions: UsageSessionRow[]; groups: UsageCallGroupRow[] }> {
    return readUsageCallGroups(this.db, longContextThreshold);
  }

  tokens(): TokenTable {
    return sqliteTokens(this.db);
  }

  syncState(): SyncStateSlot {
    return syncStateFile(this.location);
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
