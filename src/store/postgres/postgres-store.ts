// The PostgreSQL engine: the same Store as SQLite over a pooled connection to a server, for teams.
// Open it with PostgresStore.open(url): migrations run first, and an unreachable server is one
// sentence. Its reads are core/sql-store.ts through the pool, each statement retried on transient failures.

import type pg from 'pg';
import type { StoredEvent } from '../../core/events.js';
import type { IngestWriter, LedgerEntryLine, LedgerInfo, LedgerEntryQuery, LedgerEntryRow, MessageHit, SearchFilters, SessionQuery, SessionRow, TokenTable } from '../store.js';
import { SESSION_SELECT, SqlStore } from '../core/sql-store.js';
import { sessionFromRow, type SessionRowDb } from '../core/rows.js';
import { tokenTable } from '../core/tokens.js';
import type { Sql } from '../core/sql.js';
import { createPool, guardClient, openFailureReason, parseTarget, PostgresOpenFailed, withRetry, type PostgresTarget } from './connection.js';
import { acquirePgIngestLock } from './ingest-lock.js';
import { batchedLookup } from './lookup-batch.js';
import { readOneFileEntries, readOneFileEntryLines } from './ledger-page.js';
import { migrate } from './migrations.js';
import { postgresWriter } from './postgres-writer.js';
import { retryingSql } from './query.js';
import { searchMessages } from './search.js';
import { readSessionDataVersion } from './session-data-version.js';
import { NO_TABLE, syncStateTable, type PostgresSyncSlot } from './sync-state-table.js';
import { readTimelinePageOnServer } from './timeline-page.js';

export interface PostgresStoreOptions {
  /** The schema to keep the tables in (else the URL's `?schema=`, else `public`). */
  schema?: string;
  /** Connections in the pool (default 6). */
  poolSize?: number;
}

export class PostgresStore extends SqlStore {
  readonly engine = 'postgres' as const;
  readonly location: string;
  readonly schema: string;
  protected readonly sql: Sql;
  /** Sessions asked for together (a family's rows) come back in one round trip. */
  // A batch of one (most lookups) is read by the one-id statement: the server plans it once per
  // connection (a generic plan: the id is unique), where the array statement is planned again on
  // every run (its generic plan, costed for an array of unknown length, never wins): ~0.2–1 ms each.
  private readonly sessionRow = batchedLookup(async (ids) => {
    if (ids.length !== 1) return this.sessionsById(ids);
    const row = await super.getSession(ids[0]!);
    return new Map(row ? [[row.id, row]] : []);
  });
  private syncSlot?: PostgresSyncSlot;

  private constructor(
    private readonly target: PostgresTarget,
    readonly pool: pg.Pool,
  ) {
    super();
    this.location = target.location;
    this.schema = target.schema;
    this.sql = retryingSql(pool, target.location);
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

  async getSession(id: string): Promise<SessionRow | null> {
    return this.sessionRow(id);
  }

  async sessionWithLedgers(id: string): Promise<{ session: SessionRow | null; ledgers: LedgerInfo[] }> {
    // The session's row rides on its ledgers' statement, as JSON (one row's worth; its bigints are
    // far below 2^53, so JSON numbers hold them as the driver's int8 parser gives them). A session
    // with no ledger file returns no row to carry it: then it is looked up alone.
    const { ledgers, extra } = await this.sessionLedgerRows(id, `(SELECT row_to_json(x) FROM (${SESSION_SELECT} WHERE s.id = $1) x)`);
    return { session: extra === null ? await this.getSession(id) : sessionFromRow(extra as SessionRowDb), ledgers };
  }

  async sessionTimeline(id: string, options: { offset: number; limit: number; descendants: boolean }): Promise<{ total: number; events: StoredEvent[] }> {
    // A page cut on the server where its order is sure to be the client's (timeline-page.ts).
    return (await readTimelinePageOnServer(this.sql, id, options.descendants, options.offset, options.limit)) ?? super.sessionTimeline(id, options);
  }

  async ledgerEntries(query: LedgerEntryQuery): Promise<{ total: number; entries: LedgerEntryRow[] }> {
    // One file: its count and page in one statement (ledger-page.ts).
    const [only, ...more] = query.fileIds;
    return only !== undefined && more.length === 0 ? readOneFileEntries(this.sql, { ...query, fileIds: [only] }) : super.ledgerEntries(query);
  }

  async ledgerEntryLines(query: LedgerEntryQuery): Promise<{ total: number; entries: LedgerEntryLine[] }> {
    // One file: its count, page and evidence blocks in one statement (ledger-page.ts).
    const [only, ...more] = query.fileIds;
    return only !== undefined && more.length === 0 ? readOneFileEntryLines(this.sql, { ...query, fileIds: [only] }) : super.ledgerEntryLines(query);
  }

  async sessionDataVersion(id: string): Promise<string | null> {
    return readSessionDataVersion(this.sql, id);
  }

  async beginIngest(options: { wait?: boolean; waitTimeoutMs?: number } = {}): Promise<IngestWriter> {
    const release = await acquirePgIngestLock(this.target, options);
    return postgresWriter(this.pool, this.sql, release, this.location);
  }

  async searchMessages(query: SearchFilters & { context?: number }): Promise<{ total: number; hits: MessageHit[] }> {
    return searchMessages(this.sql, query);
  }

  tokens(): TokenTable {
    // Transient failures are retried as the engine's own reads are; a server that stays away is
    // STORE_UNAVAILABLE (503), as for any tool.
    // A use not recorded is not worth failing the request for.
    return tokenTable(this.sql, (id, at) => this.sql.run('UPDATE access_tokens SET last_used_at = $1 WHERE id = $2', [at, id]).then(() => {}, () => {}));
  }

  async listSessionsWithSyncState(q: SessionQuery): Promise<{ total: number; sessions: SessionRow[]; syncState: string | null }> {
    // The sync document (or, until the table is seen, whether it exists) rides on the listing's
    // statement: one statement per list_sessions instead of two.
    const slot = this.syncState();
    const asked = slot.column();
    let listed: Awaited<ReturnType<SqlStore['listSessionRows']>>;
    try {
      listed = await this.listSessionRows(q, asked.sql);
    } catch (err) {
      if (!asked.document || (err as { code?: string }).code !== NO_TABLE) throw err;
      slot.forget();
      return this.listSessionsWithSyncState(q);
    }
    const { total, sessions, extra } = listed;
    if (asked.document) return { total, sessions, syncState: (extra as string | null) ?? null };
    // The table appeared since the last look (another process synced): the slot reads it, and from
    // then on the listing carries the document.
    return { total, sessions, syncState: extra === true ? await slot.read() : null };
  }

  syncState(): PostgresSyncSlot {
    // One slot per store: it remembers that the table exists.
    return (this.syncSlot ??= syncStateTable(this.sql));
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => {});
  }
}
