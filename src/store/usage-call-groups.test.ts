// usage_call_days and usage_call_hours on both engines: the groups the writer keeps beside the calls
// equal the calls grouped on the spot — after an ingest, after a source grows, and after the
// migration fills the table of a store written before it — and they are cut at the price table's
// long-context threshold.

import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { copyFixture } from '../../test/helpers.js';
import { ingestPaths } from '../ingest/ingest.js';
import { LONG_CONTEXT_THRESHOLD } from '../usage/pricing.js';
import { postgresEngine, postgresUnavailable, sqliteEngine, TEST_PG_URL, type Engine } from './conformance/engines.js';
import { DAYS_THRESHOLD } from './core/usage-calls.js';
import { SqliteStore } from './sqlite/sqlite-store.js';
import type { Store, UsageCallGroupRow } from './store.js';

const unavailable = await postgresUnavailable();
const engines: Engine[] = [sqliteEngine(), ...(unavailable === null ? [postgresEngine()] : [])];

afterAll(async () => {
  for (const e of engines) await e.dispose();
});

const ROOTS = ['claude-code', 'amplifier/normal', 'amplifier/edge', 'amplifier/real', 'other-agents/gemini/tmp'];

const byKey = (a: UsageCallGroupRow, b: UsageCallGroupRow) => {
  const ka = JSON.stringify([a.sessionId, a.firstMs, a.model, a.long, a.recordedUsd !== null]);
  const kb = JSON.stringify([b.sessionId, b.firstMs, b.model, b.long, b.recordedUsd !== null]);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
};

/** Each table of grouped calls: its Store read, and the schema versions that created it (SQLite, PostgreSQL). */
const TABLES = [
  { table: 'usage_call_days', read: 'usageCallGroups', sqlite: 6, postgres: 5 },
  { table: 'usage_call_hours', read: 'usageCallHours', sqlite: 10, postgres: 8 },
] as const;
type Table = (typeof TABLES)[number];

/**
 * The kept groups, and the calls grouped on the spot (any other threshold takes that path; one token
 * more splits the fixtures' calls alike: none has a prompt of exactly threshold + 1 tokens).
 */
async function keptAndGrouped(store: Store, t: Table): Promise<[UsageCallGroupRow[], UsageCallGroupRow[]]> {
  const kept = await store[t.read]!(LONG_CONTEXT_THRESHOLD);
  const grouped = await store[t.read]!(LONG_CONTEXT_THRESHOLD + 1);
  return [kept.groups.sort(byKey), grouped.groups.sort(byKey)];
}

it('cuts the kept groups at the price table’s long-context threshold', () => {
  expect(DAYS_THRESHOLD).toBe(LONG_CONTEXT_THRESHOLD);
});

const cases = engines.flatMap((e) => TABLES.map((t) => [t.table, e.name, e, t] as const));

describe.each(cases)('%s on %s', (_table, _name, engine, t) => {
  it('equals the calls grouped on the spot, after an ingest and after a source grows', async () => {
    const store = await engine.create();
    const roots = ROOTS.map((r) => copyFixture(r));
    await ingestPaths(store, roots);
    const [kept, grouped] = await keptAndGrouped(store, t);
    expect(kept.length).toBeGreaterThan(5);
    expect(kept.some((g) => g.recordedUsd !== null)).toBe(true); // Amplifier's recorded costs are summed too
    expect(kept).toEqual(grouped);

    // A Claude Code session grows by a copy of its last assistant line with a new message id: one more call.
    const dir = join(roots[0]!, 'projects', '-home-marco-projects-spotter');
    const file = join(dir, readdirSync(dir).find((f) => f.endsWith('.jsonl'))!);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    const last = lines.map((l) => JSON.parse(l) as { type?: string; message?: { id?: string } }).reverse().find((l) => l.type === 'assistant' && l.message?.id);
    expect(last).toBeDefined();
    appendFileSync(file, `${JSON.stringify({ ...last, uuid: 'days-appended-1', message: { ...last!.message, id: 'msg_days_appended_1' } })}\n`);
    await ingestPaths(store, roots);
    const [keptAfter, groupedAfter] = await keptAndGrouped(store, t);
    expect(keptAfter).toEqual(groupedAfter);
    const calls = (gs: UsageCallGroupRow[]) => gs.reduce((n, g) => n + g.calls, 0);
    expect(calls(keptAfter)).toBe(calls(kept) + 1);
    await store.close();
  });

  it('is filled by the migration on a store written before it', async () => {
    const store = await engine.create();
    await ingestPaths(store, ROOTS.map((r) => copyFixture(r)));
    const [kept] = await keptAndGrouped(store, t);
    await store.close();
    if (engine.name === 'sqlite') {
      const raw = new SqliteStore(engine.db());
      raw.db.exec(`DROP TABLE ${t.table}; DELETE FROM schema_version WHERE version >= ${t.sqlite};`);
      await raw.close();
    } else {
      const schema = new URL(engine.db()).searchParams.get('schema')!;
      const admin = new pg.Client({ connectionString: TEST_PG_URL });
      await admin.connect();
      try {
        await admin.query(`SET search_path TO ${schema}; DROP TABLE ${t.table}; DELETE FROM schema_version WHERE version >= ${t.postgres}`);
      } finally {
        await admin.end();
      }
    }
    const upgraded = await engine.reopen();
    const [keptAgain, grouped] = await keptAndGrouped(upgraded, t);
    expect(keptAgain).toEqual(kept);
    expect(keptAgain).toEqual(grouped);
    await upgraded.close();
  });
});
