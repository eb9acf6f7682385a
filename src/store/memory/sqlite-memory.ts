// The agent runtime's memory (save_memory / search_memory, handoff inheritance) in its own SQLite
// file, memory.db, beside the store. Its own file because the store may be PostgreSQL (a shared
// team server, where one machine's working notes do not belong) and because the store's schema is
// rebuilt from the agents' logs, while memories exist nowhere else. Searched with FTS5 and ranked
// by bm25; user text only ever becomes quoted words, so no query is an FTS5 syntax error.

import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { normaliseTags, queryWords, type MemoryHit, type MemorySearchOptions } from './memory-record.js';
import { defaultDbPath } from '../open.js';
import { isPostgresUrl } from '../postgres/url.js';

export const MEMORY_DB_NAME = 'memory.db';

/**
 * Where memory.db lives for a store location: beside a SQLite store file; for a PostgreSQL store
 * (or an in-memory one), in the folder of the default SQLite store (the local data folder).
 *
 * @example memoryDbPathFor('/data/h.db') // '/data/memory.db'
 */
export function memoryDbPathFor(storeLocation: string, env: NodeJS.ProcessEnv = process.env): string {
  if (isPostgresUrl(storeLocation) || storeLocation === ':memory:') {
    return join(dirname(defaultDbPath({ ...env, HINDSIGHT_DB: '' })), MEMORY_DB_NAME);
  }
  return join(dirname(resolve(storeLocation)), MEMORY_DB_NAME);
}

const SCHEMA_VERSION = 1;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS memories (
  id INTEGER PRIMARY KEY,
  session_id TEXT NOT NULL,
  content TEXT NOT NULL,
  tags TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS memories_session ON memories (session_id, id);
CREATE VIRTUAL TABLE IF NOT EXISTS memory_fts USING fts5(
  content, tags, content = 'memories', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2'
);
CREATE TABLE IF NOT EXISTS memory_links (
  child TEXT NOT NULL,
  parent TEXT NOT NULL,
  PRIMARY KEY (child, parent)
) WITHOUT ROWID;
`;

/** The FTS5 expression for a query: each word a quoted string, any of them matching (bm25 ranks those with more first). */
export function memoryMatchExpression(query: string): string | null {
  const words = queryWords(query);
  return words.length ? words.map((w) => `"${w.replace(/"/g, '""')}"`).join(' OR ') : null;
}

/** The memories visible to one session: its own and, transitively, those of the sessions it inherits from. */
const SCOPE_CTE = `WITH RECURSIVE scope(sid) AS (SELECT ? UNION SELECT l.parent FROM memory_links l JOIN scope ON l.child = scope.sid)`;

interface HitRow {
  id: number;
  session_id: string;
  content: string;
  tags: string;
  created_at: string;
  score: number;
}

function toHit(row: HitRow): MemoryHit {
  return { id: row.id, sessionId: row.session_id, content: row.content, tags: JSON.parse(row.tags) as string[], createdAt: row.created_at, score: row.score };
}

/**
 * @example
 * const memory = SqliteAgentMemory.open(memoryDbPathFor('/data/h.db'));
 * await memory.save('run-1', 'Build with npm run build first', ['build']);
 * await memory.search('build', 5, { sessionId: 'run-1' });
 */
/** Implements the runtime's AgentMemory (src/runtime/memory/memory.ts) by shape: the store does not import the runtime. */
export class SqliteAgentMemory {
  private constructor(private readonly db: Database.Database) {}

  static open(path: string): SqliteAgentMemory {
    if (path !== ':memory:') mkdirSync(dirname(resolve(path)), { recursive: true });
    let db: Database.Database;
    try {
      db = new Database(path);
    } catch (err) {
      throw new Error(`Could not open the agent memory at ${path}: ${(err as Error).message}`);
    }
    db.pragma('journal_mode = WAL');
    db.pragma('busy_timeout = 5000');
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > SCHEMA_VERSION) {
      db.close();
      throw new Error(`The agent memory at ${path} has schema ${version}, newer than this Hindsight reads (${SCHEMA_VERSION}); upgrade Hindsight.`);
    }
    db.exec(SCHEMA);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
    return new SqliteAgentMemory(db);
  }

  async save(sessionId: string, content: string, tags: readonly string[]): Promise<{ id: number }> {
    const kept = normaliseTags(tags);
    const insert = this.db.transaction(() => {
      const { lastInsertRowid } = this.db
        .prepare('INSERT INTO memories (session_id, content, tags, created_at) VALUES (?, ?, ?, ?)')
        .run(sessionId, content, JSON.stringify(kept), new Date().toISOString());
      this.db.prepare('INSERT INTO memory_fts (rowid, content, tags) VALUES (?, ?, ?)').run(lastInsertRowid, content, kept.join(' '));
      return Number(lastInsertRowid);
    });
    return { id: insert() };
  }

  async inherit(fromSessionId: string, toSessionId: string): Promise<void> {
    if (fromSessionId === toSessionId) return;
    this.db.prepare('INSERT OR IGNORE INTO memory_links (child, parent) VALUES (?, ?)').run(toSessionId, fromSessionId);
  }

  async search(query: string, limit: number, options: MemorySearchOptions = {}): Promise<MemoryHit[]> {
    const n = Math.max(0, Math.floor(limit));
    if (n === 0) return [];
    const match = memoryMatchExpression(query);
    const scoped = options.sessionId !== undefined;
    const scopeFilter = scoped ? 'AND m.session_id IN (SELECT sid FROM scope)' : '';
    const sql =
      match === null
        ? `${scoped ? SCOPE_CTE : ''} SELECT m.*, 0 AS score FROM memories m WHERE 1 ${scopeFilter} ORDER BY m.id DESC LIMIT ?`
        : `${scoped ? SCOPE_CTE : ''} SELECT m.*, -bm25(memory_fts) AS score FROM memory_fts JOIN memories m ON m.id = memory_fts.rowid
           WHERE memory_fts MATCH ? ${scopeFilter} ORDER BY bm25(memory_fts), m.id DESC LIMIT ?`;
    // Parameters in the order they appear: the scope's session, the MATCH expression, the limit.
    const params = [...(scoped ? [options.sessionId] : []), ...(match === null ? [] : [match]), n];
    return (this.db.prepare(sql).all(...params) as HitRow[]).map(toHit);
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
