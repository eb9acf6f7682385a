// The embedded default engine: one SQLite file (WAL), opened with migrations applied. Its reads are
// core/sql-store.ts over this connection.

import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type Database from 'better-sqlite3';
import { StoreOpenFailed } from '../../core/errors.js';
import type { IngestWriter, MessageHit, SearchFilters, SyncStateSlot, TokenTable } from '../store.js';
import { SqlStore } from '../core/sql-store.js';
import type { Sql } from '../core/sql.js';
import { syncStateFile } from './sync-state-file.js';
import { sqliteTokens } from './tokens.js';
import { acquireIngestLock } from './ingest-lock.js';
import { openDatabase } from './driver.js';
import { migrate } from './migrations.js';
import { searchMessages } from './search.js';
import { sqliteSql } from './sqlite-sql.js';

export interface SqliteStoreOptions {
  readonly?: boolean;
}

export class SqliteStore extends SqlStore {
  readonly engine = 'sqlite' as const;
  readonly db: Database.Database;
  protected readonly sql: Sql;

  constructor(
    readonly location: string,
    options: SqliteStoreOptions = {},
  ) {
    super();
    try {
      if (location !== ':memory:') {
        if (existsSync(location) && statSync(location).isDirectory()) throw new Error('it is a folder');
        mkdirSync(dirname(location), { recursive: true });
      }
      this.db = openDatabase(location, { readonly: options.readonly ?? false });
    } catch (err) {
      throw StoreOpenFailed(location, (err as Error).message);
    }
    try {
      // The first statements are where a file that is not SQLite shows itself ("file is not a
      // database"): one sentence naming the file, never a SqliteError stack trace.
      // One exec for all of them (each pragma() call prepares a statement of its own: ~0.4 ms of
      // every warm report). Checkpoint the WAL every ~64 MB rather than every 4 MB: each
      // checkpoint syncs to disk.
      this.db.exec(`PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 10000;
        PRAGMA cache_size = -16000; PRAGMA wal_autocheckpoint = 16384; PRAGMA foreign_keys = ON;`);
      if (!options.readonly) migrate(this.db);
    } catch (err) {
      this.db.close();
      if ((err as { code?: string }).code === 'SQLITE_NOTADB') throw StoreOpenFailed(location, 'it is not a SQLite database');
      throw StoreOpenFailed(location, (err as Error).message);
    }
    this.sql = sqliteSql(this.db);
  }

  async beginIngest(options: { wait?: boolean; waitTimeoutMs?: number } = {}): Promise<IngestWriter> {
    // Loaded here: read commands (a tool call, a view) never pay for the ingest writer's modules.
    const { sqliteWriter } = await import('./sqlite-writer.js');
    const release = await acquireIngestLock(this.location, options);
    // A writer that cannot be made (a closed connection, a schema it cannot prepare against) must
    // not leave the lock held: the next ingest would wait for a holder that is gone.
    try {
      return sqliteWriter(this.db, this.sql, release);
    } catch (err) {
      release();
      throw err;
    }
  }

  async searchMessages(query: SearchFilters & { context?: number }): Promise<{ total: number; hits: MessageHit[] }> {
    return searchMessages(this.sql, query);
  }

  tokens(): TokenTable {
    return sqliteTokens(this.db, this.sql);
  }

  syncState(): SyncStateSlot {
    return syncStateFile(this.location);
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
