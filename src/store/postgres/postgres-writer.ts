// The PostgreSQL side of the ingest writer (core/ingest-writer.ts): the group is a transaction that
// is replayed on a new connection when the server drops the old one (write-group.ts), ids are taken
// from the sequences outside it (so a replay reuses them), and a batch's events go in as one
// statement (column arrays unnested server-side) with their search tokens. At the end, the tables the
// ingest changed a lot are analysed (analyze-changed.ts) before the ingest lock is released.

import type pg from 'pg';
import type { ParsedEvent } from '../../core/events.js';
import { keyToParts } from '../../core/time.js';
import type { IngestWriter } from '../store.js';
import { compactReasoning, compactTiebreak, compactUsageKey } from '../shared/event-row.js';
import { SqlIngestWriter, type WriteGroup } from '../core/ingest-writer.js';
import { first, type Sql } from '../core/sql.js';
import { analyzeChangedTables } from './analyze-changed.js';
import { guardClient, withRetry } from './connection.js';
import { ftsTokens, tsvectorLiteral } from './fts-tokens.js';
import { postgresSql } from './query.js';
import { ReplayingGroup } from './write-group.js';

/** `sql`: the store's retried reads through the pool. */
export function postgresWriter(pool: pg.Pool, sql: Sql, releaseLock: () => Promise<void>, location: string): IngestWriter {
  const replaying = new ReplayingGroup(pool, location, () => group.onAbandon());
  const group: WriteGroup = {
    reads: sql,
    onAbandon: () => {},
    write: (op, bytes) => replaying.write(op, bytes),
    read: (op) => replaying.read(op),
    commit: () => replaying.commit(),
    // One transaction of its own, retried whole on transient errors.
    transaction: (body) =>
      withRetry(
        async () => {
          const client = await pool.connect();
          const unguard = guardClient(client);
          let broken = false;
          try {
            await client.query('BEGIN');
            await body(postgresSql(client));
            await client.query('COMMIT');
          } catch (err) {
            await client.query('ROLLBACK').catch(() => {
              broken = true;
            });
            throw err;
          } finally {
            unguard();
            client.release(broken);
          }
        },
        { location },
      ),
    nextId: async (table) => (await replaying.read((s) => first<{ id: number }>(s, `SELECT nextval(pg_get_serial_sequence('${table}', 'id')) AS id`)))!.id,
    insertEvents,
    // The search tokens are a column of the events: they go with them.
    dropSearchRows: async () => {},
    release: async () => {
      try {
        // Unprepared and unretried (each VACUUM names other tables; statistics and the visibility map are an optimisation:
        // a failure here must not fail an ingest whose groups are committed).
        await analyzeChangedTables(postgresSql(pool)).catch(() => {});
      } finally {
        await releaseLock();
      }
    },
  };
  return new SqlIngestWriter(group);
}

/** The events columns a batch writes, with their array types. */
const EVENT_COLUMNS: [string, string][] = [
  ['sid', 'int'], ['seq', 'int'], ['file_id', 'int'], ['line_number', 'int'], ['part', 'int'], ['ts_ms', 'bigint'], ['ts_ns', 'int'],
  ['ts_missing', 'smallint'], ['ledger_rank', 'int'], ['tiebreak', 'text'], ['type', 'text'], ['kind', 'text'], ['actor', 'text'], ['turn', 'int'],
  ['wo_id', 'text'], ['tool_call_id', 'text'], ['message_id', 'text'], ['request_id', 'text'], ['agent_id', 'text'], ['entry_id', 'text'],
  ['usage_key', 'text'], ['model', 'text'], ['tok_in', 'bigint'], ['tok_out', 'bigint'], ['tok_cw', 'bigint'], ['tok_cr', 'bigint'],
  ['tool_name', 'text'], ['tool_status', 'text'], ['summary', 'text'], ['attrs', 'text'], ['fts', 'text'], ['fts_len', 'int'], ['tok_rs', 'bigint'],
];
const NAMES = EVENT_COLUMNS.map(([name]) => name).join(', ');

/** All events of a batch in one statement: one array per column, unnested server-side; the search totals move with the rows. */
async function insertEvents(sql: Sql, fileId: number, events: readonly ParsedEvent[], sids: number[], seqs: number[]): Promise<void> {
  const cols: unknown[][] = EVENT_COLUMNS.map(() => []);
  events.forEach((e, i) => {
    const u = e.usage;
    const ids = e.ids;
    const [tsMs, tsNs] = e.tsKey ? keyToParts(e.tsKey) : [null, null];
    // Indexed as SQLite indexes it: every event with text is a row, even one without a token.
    const tokens = e.text ? ftsTokens(e.text) : null;
    const row = [
      sids[i], seqs[i], fileId, e.lineNumber, e.part, tsMs, tsNs, e.tsMissing ? 1 : 0, e.ledgerRank, compactTiebreak(e), e.type, e.kind, e.actor, e.turn,
      ids.workOrder ?? null, ids.toolCall ?? null, ids.message ?? null, ids.request ?? null, ids.agent ?? null, ids.entry ?? null,
      compactUsageKey(e), u ? u.model : null, u ? u.input : null, u ? u.output : null, u ? u.cacheWrite : null, u ? u.cacheRead : null,
      e.toolName, e.toolStatus, e.summary, Object.keys(e.attrs).length ? JSON.stringify(e.attrs) : null,
      tokens ? tsvectorLiteral(tokens) : null, tokens ? tokens.length : null, compactReasoning(e),
    ];
    row.forEach((v, k) => cols[k]!.push(v));
  });
  await sql.run(
    `WITH ins AS (INSERT INTO events (${NAMES})
       SELECT ${EVENT_COLUMNS.map(([name]) => (name === 'fts' ? 'fts::tsvector' : name)).join(', ')}
       FROM unnest(${EVENT_COLUMNS.map(([, type], k) => `$${k + 1}::${type}[]`).join(', ')}) WITH ORDINALITY AS u(${NAMES}, n)
       ORDER BY u.n
       RETURNING fts_len)
     UPDATE fts_stats SET rows = rows + (SELECT count(fts_len) FROM ins), tokens = tokens + (SELECT coalesce(sum(fts_len), 0) FROM ins)`,
    cols,
  );
}
