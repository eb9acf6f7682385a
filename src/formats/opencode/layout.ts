// Where OpenCode keeps its data and how Hindsight names what it reads there.
//
// OpenCode 1.x: `<data>/opencode.db` (SQLite; channel builds write `opencode-<channel>.db`). Its
// `session` table holds one row per session (columns, no JSON), `message` and `part` hold each
// row's JSON in `data` (without the ids the columns hold). Before 1.0: `<data>/storage/` with one
// JSON document per record: session/<projectID>/<sessionID>.json, message/<sessionID>/<messageID>.json,
// part/<messageID>/<partID>.json (OpenCode copies these into the database on upgrade and leaves them).
//
// A session in the database becomes two row sources (src/ingest/sqlite-rows.ts) named like files
// under the database: `opencode.db/session/<id>.jsonl` (its session row) and
// `opencode.db/messages/<id>.jsonl` (its messages, each followed by its parts). Those names are
// what every report shows, and what a sync mirror writes as real files (discover reads them back).

export { compareNames } from '../shared/fs-entries.js';

/** The database of current OpenCode. */
export const DB_NAME = 'opencode.db';
/** Channel builds (`opencode-beta.db`); read when no opencode.db exists, as ccusage does. */
export const CHANNEL_DB = /^opencode-[A-Za-z0-9_-]+\.db$/;
/** The pre-1.0 document folder. */
export const STORAGE = 'storage';

/**
 * Tables that hold credentials or share secrets: never named in any query (a test puts a secret
 * in each and greps the store for it). Only `session`, `message` and `part` are ever read.
 */
export const CREDENTIAL_TABLES = ['account', 'account_state', 'control_account', 'credential', 'session_share'] as const;

/** Ledger of a session's row (database). */
export const SESSION_LEDGER = 'session';
/** Ledger of a session's message and part rows (database). */
export const MESSAGES_LEDGER = 'messages';
/** Ledgers of storage/ documents (one JSON document per file, so `.json`: not lines). */
export const STORAGE_SESSION_LEDGER = 'session.json';
export const MESSAGE_LEDGER = 'message.json';
export const PART_LEDGER = 'part.json';

/** Timeline rank when times tie: the session record first, then messages, then their parts. */
export const LEDGER_RANK: Record<string, number> = { session: 0, 'session.json': 0, messages: 1, 'message.json': 1, 'part.json': 2 };

