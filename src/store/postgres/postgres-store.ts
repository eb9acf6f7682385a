// The PostgreSQL engine: the same Store as SQLite over a pooled connection to a server, for teams.
// Open it with PostgresStore.open(url): migrations run first, and an unreachable server is one sentence.

import { brotliDecompressSync } from 'node:zlib';
import type pg from 'pg';
import type { Format } from '../../core/model.js';
import type { StoredEvent } from '../../core/events.js';
import { unpackLines } from '../sqlite/line-index.js';
import { sessionFromRow, type SessionRowDb } from '../sqlite/rows.js';
import type {
  DefectQuery,
  DefectRow,
  EvidenceBlockView,
  EvidenceRef,
  IngestWriter,
  LedgerEntryQuery,
  LedgerEntryRow,
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
  UsageCallGroupRow,
  UsageSessionRow,
} from '../store.js';
import type { SyncStateSlot, TokenTable } from '../store.js';
import { createPool, guardClient, openFailureReason, parseTarget, PostgresOpenFailed, withRetry, type PostgresTarget } from './connection.js';
import { acquirePgIngestLock } from './ingest-lock.js';
import { readEvidenceLines, readLedgerEntries, readLedgerEventTypes, scanEvidence } from './ledger-reads.js';
import { migrate } from './migrations.js';
import { PostgresIngestWriter } from './postgres-writer.js';
import { retryingReads, type Queryable } from './query.js';
import { searchMessages, searchSessionMetadata } from './search.js';
import { readTimelinePage } from './session-events.js';
import { listDefects, listFiles, readTotals } from './store-reports.js';
import { readUsageCallGroups } from './usage-calls.js';
import { syncStateTable } from './sync-state-table.js';
import { postgresTokens } from './tokens.js';
import { groupLedgers, type LedgerFileRow } from '../shared/ledger-groups.js';
import { ledgerTraits } from '../shared/ledger-traits.js';

const SESSION_SELECT = `SELECT s.*, r.path AS root_path,
  (SELECT count(*) FROM sessions c WHERE c.parent_id = s.id) AS child_count,
  (SELECT count(*) FROM (SELECT DISTINCT d.root_id, d.rel_path, d.line FROM defects d
    WHERE d.session_id = s.id AND d.severity = 'error' AND d.line IS NOT NULL) x) AS bad_lines,
  (SELECT count(*) FROM defects d WHERE d.session_id = s.id AND d.kind = 'rewritten_source') AS rewrites
  FROM sessions s LEFT JOIN roots r ON r.id = s.root_id`;

// byte_offset is named as SQLite names it, for the shared groupLedgers.
const LEDGER_FILE_COLUMNS = 'f.id, f.ledger, f.rel_path, f.path, f.lines, f.generation, f.superseded, f.size, f.mtime_ms, f.byte_offset AS "offset"';

export interface PostgresStoreOptions {
  /** The schema to keep the tables in (else the URL's `?schema=`, else `public`). */
  schema?: string;
  /** Connections in the pool (default 6). */
  poolSize?: number;
}

export class PostgresStore implements Store {
  readonly engine = 'postgres' as const;
  readonly location: string;
  readonly schema: string;
  private readonly db: Queryable;

  private constructor(
    private readonly target: PostgresTarget,
    readonly pool: pg.Pool,
  ) {
    this.location = target.location;
    this.schema = target.schema;
    this.db = retryingReads(pool, target.location);
  }

  /**
   * Connect, create the schema if needed and bring it to the latest version.
   *
   * @example const store = await PostgresStore.open('postgres://postgres@127.0.0.1:5432/test?schema=hindsight');
   */
  static async open(url: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
    const target = parseTarget(url, options.schema);
    const pool = createPool(target, options.poolSize);
    try {
      // A server still starting or briefly away gets a few short retries; then the user hears why.
      const client = await withRetry(() => pool.connect(), { attempts: 3, baseDelayMs: 150 });
      const unguard = guardClient(client);
      try {
        await migrate(client, target.schema);
      } finally {
        unguard();
        client.release();
      }
    } catch (err) {
      await pool.end().catch(() => {});
      if ((err as { code?: string }).code === 'STORE_SCHEMA_TOO_NEW') throw err;
      throw PostgresOpenFailed(target.location, openFailureReason(err));
    }
    return new PostgresStore(target, pool);
  }

  async beginIngest(options: { wait?: boolean; waitTimeoutMs?: number } = {}): Promise<IngestWriter> {
    const release = await acquirePgIngestLock(this.target, options);
    return new PostgresIngestWriter(this.pool, release, this.location);
  }

  async listSessions(q: SessionQuery): Promise<{ total: number; sessions: SessionRow[] }> {
    const params: unknown[] = [];
    const conds: string[] = [];
    const p = (v: unknown) => {
      params.push(v);
      return `$${params.length}`;
    };
    if (q.format !== undefined) conds.push(`s.format = ${p(q.format)}`);
    if (q.project !== undefined) {
      const n = p(q.project);
      conds.push(`(s.project = ${n} OR s.project_path = ${n})`);
    }
    if (q.status !== undefined) conds.push(`s.status = ${p(q.status)}`);
    if (q.topLevelOnly) conds.push('s.parent_id IS NULL');
    if (q.parentId !== undefined) conds.push(`s.parent_id = ${p(q.parentId)}`);
    if (q.startedFrom !== undefined) conds.push(`s.started_at >= ${p(q.startedFrom)}`);
    if (q.startedBefore !== undefined) conds.push(`s.started_at < ${p(q.startedBefore)}`);
    if (q.model !== undefined) {
      // ASCII case-insensitive containment, as SQLite's LIKE (lower() of "C"-collated text folds ASCII only).
      const pattern = `%${q.model.replace(/[A-Z]/g, (c) => c.toLowerCase()).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      conds.push(
        `EXISTS (SELECT 1 FROM json_array_elements_text(s.models::json) m(v) WHERE lower(m.v COLLATE "C") LIKE ${p(pattern)} ESCAPE '\\')`,
      );
    }
    const clause = conds.length ? `WHERE ${conds.join(' AND ')}` : '';
    const { rows: count } = await this.db.query<{ n: number }>(`SELECT count(*) AS n FROM sessions s ${clause}`, params);
    const { rows } = await this.db.query<SessionRowDb>(
      `${SESSION_SELECT} ${clause} ORDER BY s.started_at IS NULL, s.started_at DESC, s.id LIMIT ${p(q.limit)} OFFSET ${p(q.offset)}`,
      params,
    );
    return { total: count[0]!.n, sessions: rows.map(sessionFromRow) };
  }

  async getSession(id: string): Promise<SessionRow | null> {
    const { rows } = await this.db.query<SessionRowDb>(`${SESSION_SELECT} WHERE s.id = $1`, [id]);
    return rows[0] ? sessionFromRow(rows[0]) : null;
  }

  async searchSessionMetadata(query: SearchFilters): Promise<{ total: number; hits: MetadataHit[] }> {
    return searchSessionMetadata(this.db, query);
  }

  async searchMessages(query: SearchFilters & { context?: number }): Promise<{ total: number; hits: MessageHit[] }> {
    return searchMessages(this.db, query);
  }

  async sessionLedgers(id: string): Promise<LedgerInfo[]> {
    const { rows: found } = await this.db.query<{ sid: number; root_id: number; format: string }>(
      'SELECT sid, root_id, format FROM sessions WHERE id = $1',
      [id],
    );
    const session = found[0];
    if (!session) return [];
    // The session's own files, its descendants' where those are its ledgers too, files holding its
    // events (inline sidechains), and the root's shared ledgers (ledger-traits.ts).
    const traits = await ledgerTraits(session.format);
    const { rows } = await this.db.query<LedgerFileRow>(
      `WITH RECURSIVE tree(id) AS (SELECT $1::text COLLATE "C" UNION SELECT s.id FROM sessions s JOIN tree t ON s.parent_id = t.id)
       SELECT ${LEDGER_FILE_COLUMNS} FROM files f
       WHERE f.session_id = $1
          OR ($5 AND f.session_id IN (SELECT id FROM tree))
          OR ($3 AND f.session_id IS NULL AND f.root_id = $2)
          OR f.id IN (SELECT DISTINCT e.file_id FROM events e WHERE e.sid = $4)
       ORDER BY f.ledger_rank, f.ledger, f.chain_group NULLS FIRST, f.id`,
      [id, session.root_id, traits.shared, session.sid, traits.nested],
    );
    return groupLedgers(rows);
  }

  async listRoots(format?: Format): Promise<{ path: string; format: Format }[]> {
    const { rows } = format
      ? await this.db.query<{ path: string; format: Format }>('SELECT path, format FROM roots WHERE format = $1 ORDER BY path', [format])
      : await this.db.query<{ path: string; format: Format }>('SELECT path, format FROM roots ORDER BY path');
    return rows;
  }

  async rootLedgers(rootPath: string): Promise<LedgerInfo[]> {
    const { rows } = await this.db.query<LedgerFileRow>(
      `SELECT ${LEDGER_FILE_COLUMNS} FROM files f JOIN roots r ON r.id = f.root_id WHERE r.path = $1
       ORDER BY f.ledger_rank, f.ledger, f.chain_group NULLS FIRST, f.id`,
      [rootPath],
    );
    return groupLedgers(rows);
  }

  async rawLines(fileIds: number[], from: number, limit: number): Promise<RawLineRow[]> {
    const out: RawLineRow[] = [];
    let skip = from - 1;
    for (const fileId of fileIds) {
      if (out.length >= limit) break;
      const { rows: info } = await this.db.query<{ rel_path: string; lines: number }>('SELECT rel_path, lines FROM files WHERE id = $1', [
        fileId,
      ]);
      const f = info[0]!;
      if (skip >= f.lines) {
        skip -= f.lines;
        continue;
      }
      const wantLine = skip + 1;
      skip = 0;
      // Blocks a few at a time: a page needs only the first one or two.
      let after = wantLine;
      let firstFetch = true;
      while (out.length < limit) {
        const { rows: blocks } = await this.db.query<{ first_line: number; line_count: number; first_offset: number; line_index: Buffer; data: Buffer }>(
          firstFetch
            ? 'SELECT first_line, line_count, first_offset, line_index, data FROM blocks WHERE file_id = $1 AND first_line + line_count > $2 ORDER BY first_line LIMIT 4'
            : 'SELECT first_line, line_count, first_offset, line_index, data FROM blocks WHERE file_id = $1 AND first_line >= $2 ORDER BY first_line LIMIT 4',
          [fileId, after],
        );
        firstFetch = false;
        if (blocks.length === 0) break;
        for (const b of blocks) {
          const raw = brotliDecompressSync(b.data);
          for (const l of unpackLines(b.line_index, b.first_line, b.first_offset)) {
            if (l.lineNumber < wantLine) continue;
            const start = l.offset - b.first_offset;
            out.push({
              file: f.rel_path,
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
        const last = blocks[blocks.length - 1]!;
        after = last.first_line + last.line_count;
        if (blocks.length < 4) break;
      }
    }
    return out;
  }

  async sessionTimeline(
    id: string,
    options: { offset: number; limit: number; descendants: boolean },
  ): Promise<{ total: number; events: StoredEvent[] }> {
    const ids = [id, ...(options.descendants ? await this.sessionDescendants(id) : [])];
    const { rows } = await this.db.query<{ sid: number; id: string }>('SELECT sid, id FROM sessions WHERE id = ANY($1::text[])', [ids]);
    const sidOf = new Map(rows.map((r) => [r.id, r.sid]));
    const sessions = ids.flatMap((sessionId) => (sidOf.has(sessionId) ? [{ sid: sidOf.get(sessionId)!, id: sessionId }] : []));
    return readTimelinePage(this.db, sessions, options.offset, options.limit);
  }

  async sessionDescendants(id: string): Promise<string[]> {
    const { rows } = await this.db.query<{ id: string }>(
      `WITH RECURSIVE tree(id) AS (SELECT id FROM sessions WHERE parent_id = $1 UNION SELECT s.id FROM sessions s JOIN tree t ON s.parent_id = t.id)
       SELECT id FROM tree ORDER BY id`,
      [id],
    );
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
    return listFiles(this.db, options);
  }

  async listDefects(q: DefectQuery): Promise<{ total: number; defects: DefectRow[] }> {
    return listDefects(this.db, q);
  }

  async totals(): Promise<StoreTotals> {
    return readTotals(this.db);
  }

  async usageCallGroups(longContextThreshold: number): Promise<{ sessions: UsageSessionRow[]; groups: UsageCallGroupRow[] }> {
    return readUsageCallGroups(this.db, longContextThreshold);
  }

  tokens(): TokenTable {
    // Transient failures are retried as the engine's own reads are; a server that stays away is
    // STORE_UNAVAILABLE (503), as for any tool.
    return postgresTokens(this.db);
  }

  syncState(): SyncStateSlot {
    return syncStateTable(this.db);
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => {});
  }
}
