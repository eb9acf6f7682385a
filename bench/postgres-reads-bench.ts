// PostgreSQL reads against SQLite (issue 17, target 5): the forensic tools of tool-latency.ts with
// the same arguments (the largest session, a 90%-deep ledger page, a rare grep pattern), each call
// made on SQLite and on PostgreSQL in turn, so that both see the same machine. With --before DIST,
// the same PostgreSQL calls are also made through another build's modules (dist/ of an older
// commit) on their own pool: before and after in one run, interleaved call by call. The two stores
// must hold the same corpus (postgres-bench.js with HINDSIGHT_BENCH_PG_SCHEMA keeps such a pair).
// Each call also counts its PostgreSQL statements and its sequential round trips: how often a
// statement started with none in flight (a lower bound: a step that starts while an unrelated
// statement is still out is not counted), this build's and the other's. The sides take turns in
// one order and then the reverse, so that none is always called last.
//
// With --before-url URL the "before" side reads another store holding the same corpus (e.g. the same
// data without planner statistics against with them; --before DIST may then be this build's dist/).
//
// Standalone: node dist/bench/postgres-reads-bench.js SQLITE_DB POSTGRES_URL [--calls N] [--before DIST] [--before-url URL]
// (POSTGRES_URL with ?schema=…). Prints JSON figures: p50 of each build on PostgreSQL against SQLite.

import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import type pg from 'pg';
import { openStore } from '../src/store/open.js';
import type { Store } from '../src/store/store.js';
import { findTool } from '../src/tools/registry.js';
import { runTool } from '../src/tools/tool.js';
import type { Figure } from './figure.js';
import { percentile } from './measure.js';

type Run = (tool: string, args: Record<string, unknown>) => Promise<Record<string, unknown>>;

interface Side {
  label: string;
  store: Store;
  run: Run;
  /** Statements and sequential round trips of the calls since the last look (PostgreSQL only). */
  trips?: () => { statements: number; sequential: number };
}

/** Count a pool's statements, and how many of them started with no other statement in flight. */
function countTrips(pool: pg.Pool): () => { statements: number; sequential: number } {
  let statements = 0;
  let sequential = 0;
  let open = 0;
  const query = pool.query.bind(pool) as (...a: unknown[]) => Promise<unknown>;
  (pool as unknown as { query: (...a: unknown[]) => Promise<unknown> }).query = (...a: unknown[]) => {
    statements++;
    if (open++ === 0) sequential++;
    return query(...a).finally(() => open--);
  };
  return () => {
    const seen = { statements, sequential };
    statements = sequential = 0;
    return seen;
  };
}

function side(label: string, store: Store, run: Run): Side {
  const pool = (store as unknown as { pool?: pg.Pool }).pool;
  return { label, store, run, trips: pool ? countTrips(pool) : undefined };
}

/** This build's store and tools. */
async function thisBuild(label: string, db: string): Promise<Side> {
  const store = await openStore({ db });
  return side(label, store, (tool, args) => runTool(findTool(tool)!, args, { store }) as Promise<Record<string, unknown>>);
}

/** Another build's store and tools (its dist/), loaded beside this one's. */
async function otherBuild(label: string, dist: string, db: string): Promise<Side> {
  const load = (path: string) => import(pathToFileURL(resolve(dist, path)).href);
  const [open, registry, tool] = await Promise.all([load('src/store/open.js'), load('src/tools/registry.js'), load('src/tools/tool.js')]);
  const store = (await open.openStore({ db })) as Store;
  return side(label, store, (name, args) => tool.runTool(registry.findTool(name), args, { store }));
}

/** The calls of tool-latency.ts, with its arguments derived from the store the same way. */
async function workload(run: Run, store: Store): Promise<{ tool: string; args: Record<string, unknown>; note: string }[]> {
  let big = { id: '', events: -1 };
  for (let offset = 0; ; offset += 500) {
    const { sessions } = await store.listSessions({ format: 'claude-code', limit: 500, offset });
    for (const s of sessions) if (s.eventCount > big.events) big = { id: s.id, events: s.eventCount };
    if (sessions.length < 500) break;
  }
  const ledger = { session_id: big.id, ledger: 'transcript' };
  const probe = await run('query_ledger_full', { ...ledger, event_type: 'assistant', max_entries: 1 });
  const deep = Math.max(0, Math.floor((probe.count as number) * 0.9));
  const page = await run('query_ledger_full', { ...ledger, event_type: 'assistant', max_entries: 10, offset: deep });
  const pattern = (page.entries as { id: string | null }[])[0]?.id ?? 'no-such-thing-anywhere';
  const middle = Math.floor(big.events / 2);
  return [
    { tool: 'list_sessions', args: { limit: 20 }, note: 'limit 20' },
    { tool: 'session_overview', args: { session_id: big.id }, note: `largest session (${big.events} events)` },
    { tool: 'reconstruct_session', args: { session_id: big.id, limit: 100, offset: middle }, note: `largest session, limit 100, offset ${middle}` },
    { tool: 'query_ledger_full', args: { ...ledger, event_type: 'assistant', max_entries: 10, offset: deep }, note: `assistant of ${probe.count}, offset ${deep}` },
    { tool: 'grep_jsonl', args: { ...ledger, pattern, limit: 20 }, note: 'rare pattern over the whole transcript ledger' },
  ];
}

async function timed(s: Side, tool: string, args: Record<string, unknown>): Promise<{ ms: number; body: string }> {
  const t0 = performance.now();
  const r = await s.run(tool, args);
  const body = JSON.stringify(r);
  const ms = performance.now() - t0;
  if (r.status !== 'ok') throw new Error(`${s.label} ${tool}: ${body.slice(0, 300)}`);
  return { ms, body };
}

const p50 = (ms: number[]) => percentile([...ms].sort((a, b) => a - b), 50);
const round = (n: number) => +n.toFixed(2);

/**
 * p50 of each tool on PostgreSQL (this build, and `before`'s) against SQLite, calls interleaved.
 *
 * @example console.log(await measurePostgresReads('/tmp/cc.db', 'postgres://…?schema=hs', { calls: 30 }));
 */
export async function measurePostgresReads(
  sqliteDb: string,
  pgUrl: string,
  options: { calls?: number; before?: string; beforeUrl?: string } = {},
): Promise<Figure[]> {
  const n = options.calls ?? 25;
  const sides = [
    await thisBuild('sqlite', sqliteDb),
    ...(options.before ? [await otherBuild('postgres_before', options.before, options.beforeUrl ?? pgUrl)] : []),
    await thisBuild('postgres', pgUrl),
  ];
  const figures: Figure[] = [];
  try {
    const calls = await workload(sides[0]!.run, sides[0]!.store);
    for (const c of calls) {
      const ms = new Map<string, number[]>(sides.map((s) => [s.label, []]));
      const trips = new Map<string, { statements: number; sequential: number }>();
      let answer: string | undefined;
      // Two warm-up rounds (statements prepared, pages cached), then n rounds of every side in turn,
      // the order reversed every other round: the side called last in a round ran measurably faster
      // (its pages and the server's caches warmed by the others), which favoured whichever came last.
      for (let i = 0; i < n + 2; i++) {
        for (const s of i % 2 === 0 ? sides : [...sides].reverse()) {
          const { ms: t, body } = await timed(s, c.tool, c.args);
          const seen = s.trips?.();
          if (i < 2) continue;
          ms.get(s.label)!.push(t);
          if (seen) trips.set(s.label, seen);
          // Every side must give the same answer (grep's elapsed time aside).
          const same = body.replace(/"elapsed_ms":[\d.]+/g, '');
          if (answer === undefined) answer = same;
          else if (same !== answer) throw new Error(`${c.tool}: ${s.label} answers differently from the other sides`);
        }
      }
      const lite = p50(ms.get('sqlite')!);
      for (const s of sides.slice(1)) {
        const value = p50(ms.get(s.label)!);
        const t = trips.get(s.label);
        figures.push({
          figure: `postgres_reads.${c.tool}.${s.label}_p50`,
          value: round(value),
          unit: 'ms',
          baseline: round(lite),
          baseline_unit: 'ms p50 on SQLite, same calls interleaved',
          ratio: round(value / lite),
          target: '<= 1.5 (ratio)',
          note: `${c.note}; ${n} calls; ${t ? `${t.statements} statements, ${t.sequential} started with none in flight, per call` : ''}`,
        });
      }
    }
  } finally {
    for (const s of sides) await s.store.close();
  }
  return figures;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { calls: { type: 'string' }, before: { type: 'string' }, 'before-url': { type: 'string' } } });
  const [db, url] = positionals;
  if (!db || !url) {
    console.error('usage: node dist/bench/postgres-reads-bench.js SQLITE_DB POSTGRES_URL [--calls N] [--before DIST] [--before-url URL]');
    process.exit(2);
  }
  const figures = await measurePostgresReads(resolve(db), url, { calls: values.calls ? Number(values.calls) : undefined, before: values.before, beforeUrl: values['before-url'] });
  console.log(JSON.stringify(figures, null, 2));
}
