// SQLite schema, as an ordered list of migrations. Never edit a shipped migration: add one.
//
// Space matters (the store must stay under ~35% of the corpus with evidence kept): events use
// an integer session key, evidence is compressed in blocks, and the search index is contentless.

import type Database from 'better-sqlite3';
import { StoreSchemaTooNew } from '../../core/errors.js';
import { llmCalls } from '../../core/llm-calls.js';
import { keyToParts } from '../../core/time.js';
import { compareTimeline } from '../../core/timeline-order.js';
import { EVENT_COLUMNS, eventFromRaw, type FileName } from '../shared/event-row.js';
import { DAY_COLUMNS, DAYS_THRESHOLD, fillGroups, groupedCalls } from '../core/usage-calls.js';
import { sqliteDialect } from './sqlite-sql.js';

export interface Migration {
  version: number;
  description: string;
  sql: string;
  /**
   * A step SQL cannot say. It runs today's code (readers, writers), which expects today's schema, so
   * it runs after the SQL of every pending migration, in the same transaction (migrate below).
   */
  run?(db: Database.Database): void;
}

/** The table as schema 4 created it (migrations.ts); schema 5 adds tok_rs (USAGE_CALLS_REASONING). */
const USAGE_CALLS_TABLE = `CREATE TABLE usage_calls (
  sid INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  call_key TEXT NOT NULL,
  -- 1: a copy of another session's call (LlmCall.mirror)
  mirror INTEGER NOT NULL,
  ts_ms INTEGER,
  ts_ns INTEGER NOT NULL,
  model TEXT,
  tok_in INTEGER NOT NULL,
  tok_out INTEGER NOT NULL,
  tok_cw INTEGER NOT NULL,
  tok_cw1h INTEGER NOT NULL,
  tok_cr INTEGER NOT NULL,
  -- a cost the log recorded (Amplifier cost_usd), NULL when none
  cost REAL
);
CREATE INDEX usage_calls_sid ON usage_calls(sid);`;

/** Schema 5: the calls' output-priced tokens outside output (LlmCall.reasoning), 0 for rows before it. */
const USAGE_CALLS_REASONING = 'ALTER TABLE usage_calls ADD COLUMN tok_rs INTEGER NOT NULL DEFAULT 0;';

/**
 * The summed columns of usage_call_days (migration 6) and usage_call_hours (migration 10), after
 * their keys: the same text in both, so a shipped migration's SQL is unchanged.
 */
const SUMMED_CALL_COLUMNS = `  model TEXT,
  long_ctx INTEGER NOT NULL,
  has_cost INTEGER NOT NULL,
  calls INTEGER NOT NULL,
  first_ms INTEGER,
  last_ms INTEGER,
  tok_in INTEGER NOT NULL,
  tok_out INTEGER NOT NULL,
  tok_cw INTEGER NOT NULL,
  tok_cr INTEGER NOT NULL,
  tok_cw1h INTEGER NOT NULL,
  cost REAL,
  tok_rs INTEGER NOT NULL`;

export const MIGRATIONS: Migration[] = [
  {
    version: 1,
    description: 'roots, files, evidence, sessions, events, defects, message search',
    sql: `
CREATE TABLE roots (
  id INTEGER PRIMARY KEY,
  path TEXT NOT NULL UNIQUE,
  format TEXT NOT NULL
);

CREATE TABLE files (
  id INTEGER PRIMARY KEY,
  root_id INTEGER NOT NULL REFERENCES roots(id),
  path TEXT NOT NULL,
  rel_path TEXT NOT NULL,
  format TEXT NOT NULL,
  ledger TEXT NOT NULL,
  ledger_rank INTEGER NOT NULL DEFAULT 0,
  session_id TEXT,
  kind TEXT NOT NULL,
  evidence_only INTEGER NOT NULL DEFAULT 0,
  chain_group TEXT,
  generation INTEGER NOT NULL DEFAULT 1,
  superseded INTEGER NOT NULL DEFAULT 0,
  superseded_reason TEXT,
  size INTEGER NOT NULL DEFAULT 0,
  mtime_ms REAL NOT NULL DEFAULT 0,
  offset INTEGER NOT NULL DEFAULT 0,
  next_line INTEGER NOT NULL DEFAULT 1,
  last_ts_key TEXT,
  parser_state TEXT,
  lines INTEGER NOT NULL DEFAULT 0,
  bad_lines INTEGER NOT NULL DEFAULT 0,
  events INTEGER NOT NULL DEFAULT 0,
  content_hash TEXT,
  UNIQUE (path, generation)
);
CREATE INDEX files_live ON files(path) WHERE superseded = 0;
CREATE INDEX files_session ON files(session_id);

-- Consecutive lines of a file, brotli-compressed together (block compression: 2x smaller and
-- 4x faster than line by line). data decompresses to the file's bytes
-- [first_offset, first_offset + raw_bytes).
-- line_index packs each line's length, status and hash (line-index.ts): offsets follow from it.
CREATE TABLE blocks (
  id INTEGER PRIMARY KEY,
  file_id INTEGER NOT NULL,
  first_line INTEGER NOT NULL,
  line_count INTEGER NOT NULL,
  first_offset INTEGER NOT NULL,
  raw_bytes INTEGER NOT NULL,
  line_index BLOB NOT NULL,
  data BLOB NOT NULL
);
CREATE UNIQUE INDEX blocks_file ON blocks(file_id, first_line);

CREATE TABLE sessions (
  sid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  format TEXT NOT NULL,
  root_id INTEGER,
  project TEXT,
  project_path TEXT,
  parent_id TEXT,
  kind TEXT NOT NULL DEFAULT 'root',
  title TEXT,
  agent_name TEXT,
  main_ledger TEXT,
  facts TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'active',
  started_at TEXT,
  ended_at TEXT,
  turn_count INTEGER NOT NULL DEFAULT 0,
  first_user_message TEXT,
  last_response_preview TEXT,
  models TEXT NOT NULL DEFAULT '[]',
  own_input INTEGER NOT NULL DEFAULT 0,
  own_output INTEGER NOT NULL DEFAULT 0,
  own_cache_write INTEGER NOT NULL DEFAULT 0,
  own_cache_read INTEGER NOT NULL DEFAULT 0,
  total_input INTEGER NOT NULL DEFAULT 0,
  total_output INTEGER NOT NULL DEFAULT 0,
  total_cache_write INTEGER NOT NULL DEFAULT 0,
  total_cache_read INTEGER NOT NULL DEFAULT 0,
  llm_calls INTEGER NOT NULL DEFAULT 0,
  event_count INTEGER NOT NULL DEFAULT 0,
  tool_calls INTEGER NOT NULL DEFAULT 0,
  tool_errors INTEGER NOT NULL DEFAULT 0,
  errors INTEGER NOT NULL DEFAULT 0,
  warnings INTEGER NOT NULL DEFAULT 0,
  compactions INTEGER NOT NULL DEFAULT 0,
  attrs TEXT NOT NULL DEFAULT '{}',
  next_seq INTEGER NOT NULL DEFAULT 1,
  dirty INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX sessions_started ON sessions(started_at DESC, id);
CREATE INDEX sessions_parent ON sessions(parent_id);
CREATE INDEX sessions_dirty ON sessions(dirty) WHERE dirty = 1;

CREATE TABLE events (
  id INTEGER PRIMARY KEY,
  sid INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  file_id INTEGER NOT NULL,
  line_number INTEGER NOT NULL,
  part INTEGER NOT NULL DEFAULT 0,
  -- time key as integers (core/time.ts keyToParts): milliseconds, nanoseconds within the ms
  ts_ms INTEGER,
  ts_ns INTEGER,
  ts_missing INTEGER NOT NULL DEFAULT 0,
  ledger_rank INTEGER NOT NULL DEFAULT 0,
  -- NULL when equal to entry_id (Control Plane): each byte here is paid once per event
  tiebreak TEXT,
  type TEXT NOT NULL,
  kind TEXT NOT NULL,
  actor TEXT,
  turn INTEGER,
  wo_id TEXT,
  tool_call_id TEXT,
  message_id TEXT,
  request_id TEXT,
  agent_id TEXT,
  entry_id TEXT,
  -- NULL when equal to message_id:request_id (Claude Code); tok_in is set whenever usage is
  usage_key TEXT,
  model TEXT,
  tok_in INTEGER,
  tok_out INTEGER,
  tok_cw INTEGER,
  tok_cr INTEGER,
  tool_name TEXT,
  tool_status TEXT,
  summary TEXT NOT NULL DEFAULT '',
  attrs TEXT
);
CREATE UNIQUE INDEX events_session_seq ON events(sid, seq);
CREATE INDEX events_file_line ON events(file_id, line_number);

CREATE TABLE defects (
  id INTEGER PRIMARY KEY,
  root_id INTEGER NOT NULL,
  file_id INTEGER,
  rel_path TEXT NOT NULL,
  line INTEGER,
  severity TEXT NOT NULL,
  kind TEXT NOT NULL,
  message TEXT NOT NULL,
  session_id TEXT,
  derived INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX defects_unique ON defects(root_id, rel_path, ifnull(line, -1), kind, ifnull(file_id, -1));
CREATE INDEX defects_session ON defects(session_id);

-- Search over message text (user and assistant text only). Contentless: the text itself stays
-- in the evidence; rowid = events.id.
CREATE VIRTUAL TABLE message_fts USING fts5(text, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
`,
  },
  {
    version: 2,
    description: 'ledger entries by event type',
    // query_ledger and query_ledger_full filter a ledger by event type and page deep into it: the
    // file/line index also covers the type, so a filtered count or page is an index-only scan.
    // (A separate (file_id, type, line_number) index was faster still but cost 2% of the corpus.)
    sql: `DROP INDEX events_file_line;
CREATE INDEX events_file_line_type ON events(file_id, line_number, type);`,
  },
  {
    version: 3,
    description: 'LLM calls per session, for usage reports',
    // usage_report read every event with usage (json_extract on each) on every call: ~1 s on a
    // 500 MB corpus. One narrow row per call makes a warm report a read of a few thousand rows.
    // This step used to create the table and choose its rows in SQL; version 4 builds it now (the
    // choice moved to the summarisers), so a store coming from before 3 gets it there.
    sql: '',
  },
  {
    version: 4,
    description: 'LLM calls as the summarisers choose them',
    // The rows are the summarisers' output (src/core/llm-calls.ts), written by the writer. An
    // existing store gets the same rows from its stored events here, so it answers as before at
    // once; every session is marked for summarising again, so the next ingest lets each format
    // mark its mirrored calls (which only the format can tell).
    sql: `DROP TABLE IF EXISTS usage_calls;\n${USAGE_CALLS_TABLE}`,
    run: fillUsageCalls,
  },
  {
    version: 5,
    description: 'reasoning tokens: output-priced tokens outside output (Gemini thoughts)',
    // A fifth token kind (TokenCounts.reasoning) on events, session totals and LLM calls. Every
    // existing row has none, which is what the defaults say: no row needs rewriting. (tok_rs on
    // events stays NULL unless an event has some, as the other tok_ columns are NULL without usage.)
    sql: `ALTER TABLE events ADD COLUMN tok_rs INTEGER;
ALTER TABLE sessions ADD COLUMN own_reasoning INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN total_reasoning INTEGER NOT NULL DEFAULT 0;
${USAGE_CALLS_REASONING}`,
  },
  {
    version: 6,
    description: 'LLM calls summed per session and UTC day, for usage reports',
    // Grouping every call on each report cost ~130 ms of a 1 GB store (65,000 calls sorted into
    // 3,000 groups); the writer now keeps the groups beside the calls (core/usage-calls.ts). They
    // are filled in a code step: migration 4's, when pending, fills usage_calls in code first.
    sql: `CREATE TABLE IF NOT EXISTS usage_call_days (
  sid INTEGER NOT NULL,
  day INTEGER,
${SUMMED_CALL_COLUMNS}
);
CREATE INDEX IF NOT EXISTS usage_call_days_sid ON usage_call_days(sid);`,
    run: fillUsageCallDays,
  },
  {
    version: 7,
    description: 'sessions by project, for team scopes',
    // A team token's reads find its projects' sessions first (core/project-scope.ts); without an
    // index that read the whole, wide sessions table on every scoped call (4–11 ms on 3,000 sessions).
    sql: 'CREATE INDEX IF NOT EXISTS sessions_project ON sessions(project, id);',
  },
  {
    version: 8,
    description: 'the session columns usage reports read, in an index read alone',
    // Every usage report reads these columns of every session (core/usage-calls.ts). From the wide
    // sessions table that read every page of it (382 pages for 930 sessions: 15–30 ms of CPU in a
    // fresh process); from this index (the row id comes with it), ~35 pages: 6–9 ms.
    sql: 'CREATE INDEX IF NOT EXISTS sessions_usage ON sessions(id, parent_id, project, project_path, format);',
  },
  {
    version: 9,
    description: "each evidence block's gram filter, so grep inflates only blocks that may hold its literal",
    // Inflating every block was grep's floor from the evidence (~4× ripgrep's whole search of the
    // same bytes); store/shared/gram-filter.ts says what the filter is. A table of its own, not a
    // column of blocks: a column added there comes after data, and reading it walked each
    // block's overflow pages (~90 ms per 300 MB of evidence, as much as reading the blocks).
    // Blocks written before have no row and are always searched (a re-ingest fills them).
    sql: `CREATE TABLE IF NOT EXISTS block_filters (
  file_id INTEGER NOT NULL,
  first_line INTEGER NOT NULL,
  gram_filter BLOB NOT NULL,
  PRIMARY KEY (file_id, first_line)
);`,
  },
  {
    version: 10,
    description: 'LLM calls summed per session and UTC hour, for 5-hour blocks',
    // blocks read every stored call one by one (19,258 rows of a 300 MB corpus: ~45 ms of CPU for the
    // rows and as much again in the objects and the garbage they made); a window is decided by the
    // hour of each call and by whether it is at the hour's first millisecond (src/usage/blocks.ts),
    // so the writer keeps the calls summed per session and hour beside the day groups
    // (core/usage-calls.ts): ~1,300 rows. Filled from usage_calls here; migration 4's code step,
    // when pending, fills usage_calls first, and the writer's next summary of a session rewrites
    // its rows.
    sql: `CREATE TABLE IF NOT EXISTS usage_call_hours (
  sid INTEGER NOT NULL,
  hour_ms INTEGER,
  -- 1: every call of the row is at hour_ms itself
  on_hour INTEGER,
${SUMMED_CALL_COLUMNS}
);
CREATE INDEX IF NOT EXISTS usage_call_hours_sid ON usage_call_hours(sid);`,
    run: fillUsageCallHours,
  },
];

/** The hour groups of every stored call (migration 10). */
function fillUsageCallHours(db: Database.Database): void {
  db.exec(`DELETE FROM usage_call_hours;\n${fillGroups({ dialect: sqliteDialect }, 'hour')};`);
}

/** The day groups of every stored call (migration 6). */
function fillUsageCallDays(db: Database.Database): void {
  db.exec(`DELETE FROM usage_call_days;
INSERT INTO usage_call_days (${DAY_COLUMNS}) ${groupedCalls(sqliteDialect.floatSum, String(DAYS_THRESHOLD))};`);
}

/**
 * Rows for every session from its stored events, and every session marked dirty (migration 4).
 * Synchronous, as opening a SQLite store is: the events are read and the calls written here with
 * today's columns (core/session-events.ts and core/usage-calls.ts do the same through the engine).
 */
function fillUsageCalls(db: Database.Database): void {
  const sessions = db
    .prepare('SELECT sid, id FROM sessions WHERE sid IN (SELECT DISTINCT sid FROM events WHERE tok_in IS NOT NULL) ORDER BY sid')
    .all() as { sid: number; id: string }[];
  const events = db.prepare(`SELECT ${EVENT_COLUMNS} FROM events e WHERE e.sid = ? ORDER BY e.seq`).raw(true);
  const file = db.prepare('SELECT ledger, rel_path FROM files WHERE id = ?');
  const insert = db.prepare(`INSERT INTO usage_calls (sid, seq, call_key, mirror, ts_ms, ts_ns, model, tok_in, tok_out, tok_cw, tok_cw1h, tok_cr, tok_rs, cost)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  for (const s of sessions) {
    const rows = events.all(s.sid) as unknown[][];
    const stored = rows.map((r) => eventFromRaw(r, s.id, (file.get(r[1]) as FileName | undefined) ?? { ledger: '', rel_path: '' }));
    for (const c of llmCalls(stored.sort(compareTimeline))) {
      const [ms, ns] = c.tsKey === null ? [null, 0] : keyToParts(c.tsKey);
      insert.run(s.sid, c.seq, c.key, c.mirror ? 1 : 0, ms, ns, c.model, c.input, c.output, c.cacheWrite, c.cacheWrite1h, c.cacheRead, c.reasoning ?? 0, c.costUsd);
    }
  }
  db.exec('UPDATE sessions SET dirty = 1');
}

export const LATEST_SCHEMA = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/**
 * Bring the database to the latest schema in one transaction: the SQL of each pending migration in
 * order, then their code steps (which read and write with today's code, so need today's columns).
 */
export function migrate(db: Database.Database): void {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_version (
    version INTEGER PRIMARY KEY,
    description TEXT NOT NULL,
    applied_at TEXT NOT NULL
  )`);
  const row = db.prepare('SELECT max(version) AS v FROM schema_version').get() as { v: number | null };
  const current = row.v ?? 0;
  if (current > LATEST_SCHEMA) throw StoreSchemaTooNew(current, LATEST_SCHEMA);
  const pending = MIGRATIONS.filter((m) => m.version > current);
  if (pending.length === 0) return;
  db.transaction(() => {
    const record = db.prepare('INSERT INTO schema_version (version, description, applied_at) VALUES (?, ?, ?)');
    for (const m of pending) {
      db.exec(m.sql);
      record.run(m.version, m.description, new Date().toISOString());
    }
    for (const m of pending) m.run?.(db);
  })();
}
