// PostgreSQL against SQLite on one corpus, both measured in the same call: ingest throughput, the
// forensic tools' p50/p95 (tool-latency.ts, same data and arguments) and a warm usage_report; each
// ratio is PostgreSQL / SQLite. The PostgreSQL store is a fresh schema, dropped at the end.
// Standalone: node dist/bench/postgres-bench.js <sqliteDb> <corpusDir> (server: HINDSIGHT_BENCH_PG,
// else HINDSIGHT_TEST_PG, else postgres://postgres@127.0.0.1:5432/test).
// HINDSIGHT_BENCH_PG_SCHEMA=name keeps the PostgreSQL store in that schema instead (never dropped),
// and when it already holds sessions and <sqliteDb> exists, both stores are reused as they are: no
// ingest, no ingest or size figures, only the reads (for measuring reads again and again).

import { randomBytes } from 'node:crypto';
import { existsSync, rmSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ingestPaths } from '../src/ingest/ingest.js';
import { PostgresStore } from '../src/store/postgres/postgres-store.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import type { Figure } from './figure.js';
import { dropSchema, timeWholeUsageReport } from './measure.js';
import { measureToolLatency, type LatencyFigure } from './tool-latency.js';

const PG_URL = process.env.HINDSIGHT_BENCH_PG || process.env.HINDSIGHT_TEST_PG || 'postgres://postgres@127.0.0.1:5432/test';

/** Tables, TOAST and indexes of the schema, in bytes. */
async function schemaBytes(store: PostgresStore): Promise<number> {
  const { rows } = await store.pool.query<{ n: number | null }>(
    `SELECT sum(pg_total_relation_size(c.oid)) AS n FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace
     WHERE s.nspname = $1 AND c.relkind IN ('r', 'm')`,
    [store.schema],
  );
  return rows[0]?.n ?? 0;
}

function sqliteBytes(db: string): number {
  let n = 0;
  for (const suffix of ['', '-wal']) if (existsSync(db + suffix)) n += statSync(db + suffix).size;
  return n;
}

/** PostgreSQL figures for `corpusDir`, each against SQLite on the same corpus (`sqliteDb` is rewritten unless both stores are reused). */
export async function measurePostgres(sqliteDb: string, corpusDir: string, name: string): Promise<Figure[]> {
  const figures: Figure[] = [];
  const kept = process.env.HINDSIGHT_BENCH_PG_SCHEMA || undefined;
  const schema = kept ?? `hs_bench_${process.pid}_${randomBytes(3).toString('hex')}`;
  let postgres: PostgresStore | undefined;
  let sqlite: SqliteStore | undefined;
  try {
    postgres = await PostgresStore.open(PG_URL, { schema });
    const reuse = kept !== undefined && existsSync(sqliteDb) && (await postgres.listSessions({ limit: 1, offset: 0 })).total > 0;
    if (!reuse) for (const suffix of ['', '-wal', '-shm', '.ingest-lock']) rmSync(sqliteDb + suffix, { force: true });
    sqlite = new SqliteStore(sqliteDb);
    if (!reuse) figures.push(...(await measureIngest(sqlite, postgres, sqliteDb, corpusDir, name)));
    figures.push(...(await measureReads(sqlite, postgres, name)));
    return figures;
  } finally {
    await sqlite?.close();
    await postgres?.close();
    if (!kept) await dropSchema(PG_URL, schema);
  }
}

/** Both ingests of `corpusDir` and the stores' sizes. */
async function measureIngest(sqlite: SqliteStore, postgres: PostgresStore, sqliteDb: string, corpusDir: string, name: string): Promise<Figure[]> {
  const figures: Figure[] = [];
  const a = await ingestPaths(sqlite, [corpusDir]);
  const b = await ingestPaths(postgres, [corpusDir]);
  const mbps = (s: { bytes: number; seconds: number }) => s.bytes / 1e6 / s.seconds;
  const eps = (s: { events: number; seconds: number }) => s.events / s.seconds;
  const corpus = `${(a.bytes / 1e6).toFixed(1)} MB, ${a.files} files, ${a.events} events`;
  figures.push(
    {
      figure: `${name}.postgres.ingest_mb_per_second`,
      value: +mbps(b).toFixed(1),
      unit: 'MB/s',
      baseline: +mbps(a).toFixed(1),
      baseline_unit: 'MB/s, SQLite ingest of the same corpus',
      ratio: +(mbps(b) / mbps(a)).toFixed(2),
      note: `${corpus}; PostgreSQL ${b.seconds.toFixed(2)} s, SQLite ${a.seconds.toFixed(2)} s`,
    },
    {
      figure: `${name}.postgres.ingest_events_per_second`,
      value: Math.round(eps(b)),
      unit: 'events/s',
      baseline: Math.round(eps(a)),
      baseline_unit: 'events/s, SQLite',
      ratio: +(eps(b) / eps(a)).toFixed(2),
    },
  );
  const pgBytes = await schemaBytes(postgres);
  // The WAL folded into the file first, so that no page counts twice.
  sqlite.db.pragma('wal_checkpoint(TRUNCATE)');
  const liteBytes = sqliteBytes(sqliteDb);
  figures.push({
    figure: `${name}.postgres.store_mb`,
    value: +(pgBytes / 1e6).toFixed(1),
    unit: 'MB',
    baseline: +(liteBytes / 1e6).toFixed(1),
    baseline_unit: 'MB, SQLite file (+ WAL)',
    ratio: +(pgBytes / liteBytes).toFixed(2),
    note: 'tables, TOAST and indexes of the schema',
  });
  return figures;
}

/** The tools' latency and the warm usage report on both stores. */
async function measureReads(sqlite: SqliteStore, postgres: PostgresStore, name: string): Promise<Figure[]> {
  const figures: Figure[] = [];
  const roots = await sqlite.listRoots();
  const format = roots[0]?.format;
  if (format !== 'claude-code' && format !== 'control-plane') throw new Error(`tool latency needs a Claude Code or Control Plane corpus, not ${format}`);
  // SQLite first, then PostgreSQL, on the same data with the same arguments (tool-latency.ts derives them from the store).
  const lite = await measureToolLatency(`${name}.sqlite`, sqlite, format);
  const server = await measureToolLatency(`${name}.postgres`, postgres, format);
  const suffix = (f: LatencyFigure, prefix: string) => f.figure.slice(prefix.length);
  for (const p of server) {
    const key = suffix(p, `${name}.postgres`);
    const s = lite.find((f) => suffix(f, `${name}.sqlite`) === key);
    if (!s) continue;
    figures.push({
      figure: p.figure,
      value: p.value,
      unit: p.unit,
      p95: p.p95,
      baseline: s.value,
      baseline_unit: `ms p50 on SQLite (p95 ${s.p95})`,
      ratio: +(p.value / s.value).toFixed(2),
      note: p.note,
    });
  }

  const ua = await timeWholeUsageReport(sqlite);
  const ub = await timeWholeUsageReport(postgres);
  figures.push({
    figure: `${name}.postgres.usage_report_session_warm`,
    value: +(ub.p50 / 1000).toFixed(3),
    unit: 's',
    p95: +(ub.p95 / 1000).toFixed(3),
    baseline: +(ua.p50 / 1000).toFixed(3),
    baseline_unit: `s p50 on SQLite (p95 ${(ua.p95 / 1000).toFixed(3)})`,
    ratio: +(ub.p50 / ua.p50).toFixed(2),
    note: `the whole report by session, ${ub.sessions} sessions, every page`,
  });
  return figures;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const [db, dir] = process.argv.slice(2);
  if (!db || !dir) {
    process.stderr.write('usage: node dist/bench/postgres-bench.js <sqliteDb> <corpusDir>\n');
    process.exit(2);
  }
  const figures = await measurePostgres(resolve(db), resolve(dir), 'postgres_bench');
  process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
}
