// Planner statistics and visibility after an ingest. A bulk load leaves a schema without statistics
// (or with statistics of a much smaller store) until autovacuum's analyze catches up — and a server
// may run with autovacuum off — so the planner picks sequential scans where the indexes answer in
// milliseconds (a session's family lookups, measured: 16–25 ms seq scans against index probes).
// Likewise, until a table is vacuumed its visibility map is empty and no index-only scan can skip
// the heap: list_sessions' count of top-level sessions read all 406 pages of the sessions table
// (0.2–2 ms) where the index on parent_id answers from 3 pages once they are marked all-visible.
// At the end of an ingest the store vacuums and analyses the tables it changed a lot, by
// autovacuum's analyze rule; VACUUM only visits the pages not yet all-visible, so a later small
// ingest's vacuum reads little.

import type { Sql } from '../core/sql.js';

/**
 * Autovacuum's default analyze rule (autovacuum_analyze_threshold 50, autovacuum_analyze_scale_factor
 * 0.1): rows changed since the last analyze above 50 + 10 % of the rows the statistics counted. A table
 * never analysed (reltuples -1) always qualifies: that is the freshly created schema of a first ingest.
 * The change counts are the server's cumulative statistics, which may trail the last write group by a
 * few seconds; a table just under the line is caught by the next ingest, as autovacuum would.
 */
const TABLES_TO_ANALYZE = `
  SELECT format('%I.%I', n.nspname, c.relname) AS name
  FROM pg_class c
  JOIN pg_namespace n ON n.oid = c.relnamespace
  LEFT JOIN pg_stat_user_tables s ON s.relid = c.oid
  WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')
    AND (c.reltuples < 0 OR coalesce(s.n_mod_since_analyze, 0) > 50 + 0.1 * c.reltuples)
  ORDER BY c.relname`;

/** Vacuum and analyse the current schema's tables that changed a lot since their statistics were taken; returns their names. */
export async function analyzeChangedTables(sql: Sql): Promise<string[]> {
  const names = (await sql.all<{ name: string }>(TABLES_TO_ANALYZE)).map((r) => r.name);
  // One statement for all of them (VACUUM runs outside a transaction: this is the pool's own
  // autocommit statement): ANALYZE samples a bounded number of rows per table, and VACUUM reads
  // the pages the ingest wrote (measured: ~0.25 s after a 300 MB first ingest of ~20 s). SKIP_LOCKED
  // (PostgreSQL 12+): a table another session holds locked is left for the next ingest — neither
  // statistics nor the visibility map ever make an ingest wait (a sync push held at its summaries
  // by such a lock would otherwise wait here first).
  if (names.length) await sql.run(`VACUUM (ANALYZE, SKIP_LOCKED) ${names.join(', ')}`);
  return names;
}
