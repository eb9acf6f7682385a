import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, FIXTURES, tempDir } from '../../../test/helpers.js';
import { withProgressOnlyCalls } from '../../../test/progress-only-calls.js';
import { ingestPaths } from '../../ingest/ingest.js';
import { SqliteStore } from '../../store/sqlite/sqlite-store.js';
import type { Store } from '../../store/store.js';
import { loadUsageCalls } from '../../usage/calls.js';
import { runTool } from '../tool.js';
import { usageReport } from './index.js';

interface Ccusage {
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
  totalTokens: number;
  modelsUsed: string[];
}
const expected = JSON.parse(readFileSync(join(FIXTURES, 'claude-code', 'expected.json'), 'utf8')) as {
  sessions: Record<string, { project_folder: string; ccusage20: Ccusage }>;
};

let cc: SqliteStore;
let amp: SqliteStore;
const run = (store: Store, args: unknown) => runTool(usageReport, args, { store }) as Promise<Record<string, any>>;

beforeAll(async () => {
  cc = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
  await ingestPaths(cc, [copyFixture('claude-code')]);
  amp = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
  await ingestPaths(amp, [copyFixture('amplifier/edge')]);
}, 60_000);

describe('usage_report on the real Claude Code transcripts', () => {
  it('per-session token totals equal ccusage 20 (session --json --offline, sub-agents folded in)', async () => {
    const r = await run(cc, { group_by: 'session' });
    expect(r.status).toBe('ok');
    const got = Object.fromEntries(
      r.rows.map((row: any) => [
        row.key,
        {
          inputTokens: row.tokens.input,
          outputTokens: row.tokens.output,
          cacheCreationTokens: row.tokens.cache_write,
          cacheReadTokens: row.tokens.cache_read,
          totalTokens: row.tokens.total,
          modelsUsed: row.models,
        },
      ]),
    );
    const want = Object.fromEntries(
      Object.entries(expected.sessions).map(([id, s]) => {
        const c = withProgressOnlyCalls(id, s.ccusage20);
        return [id, { ...c, modelsUsed: [...c.modelsUsed].sort() }];
      }),
    );
    expect(got).toEqual(want);
  });

  it('lists the sub-agents of 8463c716 separately, and they sum with its own calls to the row', async () => {
    const r = await run(cc, { group_by: 'session' });
    const row = r.rows.find((x: any) => x.key === '8463c716-a2ea-4c14-9efa-87158ebd9f20');
    expect(row.subagents.map((s: any) => s.session_id).sort()).toEqual([
      '8463c716-a2ea-4c14-9efa-87158ebd9f20:a7be2f0',
      '8463c716-a2ea-4c14-9efa-87158ebd9f20:acompact-f46190',
    ]);
    const own = await cc.getSession('8463c716-a2ea-4c14-9efa-87158ebd9f20');
    const subTotal = row.subagents.reduce((n: number, s: any) => n + s.tokens.total, 0);
    const t = own!.tokensOwn;
    expect(t.input + t.output + t.cacheWrite + t.cacheRead + subTotal).toBe(row.tokens.total);
  });

  it('project rows add up the sessions of each slug folder', async () => {
    const r = await run(cc, { group_by: 'project' });
    const byProject = new Map<string, number>();
    for (const [id, s] of Object.entries(expected.sessions)) byProject.set(s.project_folder, (byProject.get(s.project_folder) ?? 0) + withProgressOnlyCalls(id, s.ccusage20).totalTokens);
    expect(r.rows.map((x: any) => [x.key, x.tokens.total])).toEqual([...byProject.entries()].sort(([a], [b]) => (a < b ? -1 : 1)));
  });

  it('daily and monthly rows partition the totals; since/until narrow them inclusively', async () => {
    const daily = await run(cc, { group_by: 'daily' });
    const monthly = await run(cc, { group_by: 'monthly' });
    const all = Object.entries(expected.sessions).reduce((n, [id, s]) => n + withProgressOnlyCalls(id, s.ccusage20).totalTokens, 0);
    expect(daily.totals.tokens.total).toBe(all);
    expect(daily.rows.reduce((n: number, x: any) => n + x.tokens.total, 0)).toBe(all);
    expect(monthly.rows.reduce((n: number, x: any) => n + x.tokens.total, 0)).toBe(all);
    expect(monthly.rows.every((x: any) => /^\d{4}-\d{2}$/.test(x.key))).toBe(true);
    const first = daily.rows[0].key as string;
    const one = await run(cc, { group_by: 'daily', since: first, until: first });
    expect(one.rows.map((x: any) => x.key)).toEqual([first]);
    expect(one.totals.tokens).toEqual(daily.rows[0].tokens);
    expect((await run(cc, { group_by: 'session', since: '2099-01-01' })).rows).toEqual([]);
  });

  it('prices every Claude model of the transcripts (not partial) and states the table date', async () => {
    const r = await run(cc, { group_by: 'session', breakdown: true });
    expect(r.totals.unpriced_models).toEqual([]);
    expect(r.totals.partial).toBe(false);
    expect(r.totals.cost_usd).toBeGreaterThan(0);
    expect(r.prices_as_of).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const row = r.rows.find((x: any) => x.key === '8463c716-a2ea-4c14-9efa-87158ebd9f20');
    expect(row.model_breakdowns.map((m: any) => m.model)).toEqual(['claude-haiku-4-5-20251001', 'claude-opus-4-6']);
    const sum = row.model_breakdowns.reduce((n: number, m: any) => n + m.cost_usd, 0);
    expect(sum).toBeCloseTo(row.cost_usd, 8);
  });

  it('display mode: Claude Code logs record no cost, so costs are null and partial, never $0', async () => {
    const r = await run(cc, { group_by: 'session', mode: 'display' });
    expect(r.totals.cost_usd).toBeNull();
    expect(r.totals.partial).toBe(true);
    expect(r.rows.every((x: any) => x.cost_usd === null)).toBe(true);
  });

  it('reports the same through any Store: the generic path, call by call, equals the grouped SQLite read', async () => {
    const a = await loadUsageCalls(cc);
    const b = await loadUsageCalls(bind(cc) as unknown as Store);
    // Every LLM call once: as many as the sessions' stored llm_calls, grouped or not.
    const llmCalls = (cc.db.prepare('SELECT sum(llm_calls) AS n FROM sessions').get() as { n: number }).n;
    expect(a.reduce((n, c) => n + c.calls, 0)).toBe(llmCalls);
    expect(b.length).toBe(llmCalls);
    expect(a.length).toBeLessThan(b.length);
    const generic = bind(cc) as unknown as Store;
    for (const group_by of ['daily', 'weekly', 'monthly', 'session', 'project']) {
      for (const mode of ['calculate', 'auto']) {
        const args = { group_by, mode, breakdown: true, limit: 500, max_bytes: 10_000_000 };
        expect(await run(generic, args), `${group_by} ${mode}`).toEqual(await run(cc, args));
      }
    }
  });

  it('a timezone whose midnight falls inside a stored UTC-day group still puts each call on its own day', async () => {
    // Session 8463c716 runs 21:41–22:54 UTC on 2026-02-11: in Helsinki (UTC+2) it crosses midnight,
    // so its calls split between 02-11 and 02-12, exactly as read call by call.
    const generic = bind(cc) as unknown as Store;
    for (const timezone of ['Europe/Helsinki', 'Asia/Kolkata', 'America/St_Johns']) {
      for (const group_by of ['daily', 'weekly', 'monthly']) {
        const args = { group_by, timezone, breakdown: true, limit: 500, max_bytes: 10_000_000 };
        expect(await run(cc, args), `${group_by} ${timezone}`).toEqual(await run(generic, args));
      }
    }
    const helsinki = await run(cc, { timezone: 'Europe/Helsinki' });
    const utc = await run(cc, {});
    expect(utc.rows.map((r: any) => [r.key, r.tokens.total])).toEqual([
      ['2025-09-03', 116_963],
      ['2025-09-07', 375_764],
      ['2026-02-10', 697_508],
      ['2026-02-11', 16_526_897],
    ]);
    // The UTC day 2026-02-11 (one session and its sub-agents) is split at Helsinki's midnight.
    expect(helsinki.rows.map((r: any) => [r.key, r.tokens.total])).toEqual([
      ['2025-09-03', 116_963],
      ['2025-09-07', 375_764],
      ['2026-02-10', 418_030],
      ['2026-02-11', 1_337_118],
      ['2026-02-12', 15_469_257],
    ]);
    expect(helsinki.totals).toEqual(utc.totals);
  });

  it('is deterministic: the same call twice gives byte-identical JSON', async () => {
    for (const group_by of ['daily', 'weekly', 'monthly', 'session', 'project']) {
      const a = JSON.stringify(await run(cc, { group_by, breakdown: true }));
      expect(JSON.stringify(await run(cc, { group_by, breakdown: true }))).toBe(a);
    }
  });
});

describe('usage_report group_by blocks (5-hour billing windows)', () => {
  // ccusage 20's `blocks --json --offline` on these transcripts (test/e2e/ccusage-blocks.test.ts
  // runs it): starts, ends and last calls, with the 2026-02-10 block holding the five
  // progress-only calls ccusage's blocks leave out (22 calls, 697,508 tokens; ccusage: 17, 587,849).
  const WINDOWS = [
    ['2025-09-03T00:00:00.000Z', '2025-09-03T05:00:00.000Z', '2025-09-03T00:47:52.264Z', 7, 116_963],
    ['gap-2025-09-03T05:47:52.264Z', '2025-09-07T09:52:09.443Z', null, 0, 0],
    ['2025-09-07T09:00:00.000Z', '2025-09-07T14:00:00.000Z', '2025-09-07T09:54:26.499Z', 20, 375_764],
    ['gap-2025-09-07T14:54:26.499Z', '2026-02-10T21:11:59.186Z', null, 0, 0],
    ['2026-02-10T21:00:00.000Z', '2026-02-11T02:00:00.000Z', '2026-02-10T22:59:37.598Z', 22, 697_508],
    ['gap-2026-02-11T03:59:37.598Z', '2026-02-11T21:41:50.096Z', null, 0, 0],
    ['2026-02-11T21:00:00.000Z', '2026-02-12T02:00:00.000Z', '2026-02-11T22:54:29.802Z', 157, 16_526_897],
  ];

  it('cuts the transcripts into the windows ccusage reports, each LLM call in exactly one', async () => {
    const r = await run(cc, { group_by: 'blocks' });
    expect(r.status).toBe('ok');
    expect(r.rows.map((x: any) => [x.key, x.end, x.actual_end, x.calls, x.tokens.total])).toEqual(WINDOWS);
    // The same calls as every other grouping: totals equal the daily report's.
    const daily = await run(cc, { group_by: 'daily' });
    expect(r.totals).toEqual(daily.totals);
    expect(r.rows.every((x: any) => x.active === false && x.projection === null)).toBe(true);
  });

  it('now decides the active block and its projection; active: true keeps that block alone', async () => {
    const now = '2026-02-11T23:30:00Z';
    const r = await run(cc, { group_by: 'blocks', now, active: true });
    expect(r.now).toBe('2026-02-11T23:30:00.000Z');
    expect(r.rows.map((x: any) => x.key)).toEqual(['2026-02-11T21:00:00.000Z']);
    const block = r.rows[0];
    expect(block.active).toBe(true);
    expect(block.projection.remaining_minutes).toBe(150);
    // The burn rate carried over the 150 minutes left.
    expect(block.projection.total_tokens).toBe(Math.round(block.tokens.total + block.burn_rate.tokens_per_minute * 150));
    expect(r.totals.tokens).toEqual(block.tokens);
    const later = await run(cc, { group_by: 'blocks', now: '2026-02-12T02:00:00Z', active: true });
    expect([later.count, later.rows]).toEqual([0, []]);
  });

  it('filters by format and project, reads the same through any Store, and is deterministic', async () => {
    expect((await run(cc, { group_by: 'blocks', format: 'amplifier' })).rows).toEqual([]);
    const spotter = await run(cc, { group_by: 'blocks', project: '-home-marco-projects-spotter' });
    expect(spotter.rows.length).toBeGreaterThan(0);
    expect(spotter.totals.tokens.total).toBeLessThan((await run(cc, { group_by: 'blocks' })).totals.tokens.total);
    const args = { group_by: 'blocks', breakdown: true, now: '2026-02-11T23:00:00Z', limit: 500, max_bytes: 10_000_000 };
    const a = await run(cc, args);
    expect(await run(bind(cc) as unknown as Store, args)).toEqual(a);
    expect(JSON.stringify(await run(cc, args))).toBe(JSON.stringify(a));
  });

  it.each([
    [{ group_by: 'blocks', now: 'yesterday' }, /now must be an ISO 8601 time with a zone.*got "yesterday"/],
    [{ group_by: 'daily', active: true }, /active applies to group_by blocks only \(got group_by daily\)/],
    [{ group_by: 'session', now: '2026-02-11T23:00:00Z' }, /now applies to group_by blocks only/],
  ])('%j → INVALID_ARGUMENTS with a clear message', async (args, message) => {
    const r = await run(cc, args);
    expect(r).toMatchObject({ status: 'error', code: 'INVALID_ARGUMENTS' });
    expect(r.error).toMatch(message);
  });
});

/** A plain object with the store's methods: a Store that is not a SqliteStore. */
function bind(store: SqliteStore): Record<string, unknown> {
  return {
    listSessions: store.listSessions.bind(store),
    sessionTimeline: store.sessionTimeline.bind(store),
  };
}

describe('usage_report on Amplifier (recorded costs)', () => {
  it('display mode returns the cost_usd the log recorded for each call', async () => {
    const id = '9ccf8a61-4afd-4897-aae7-b1ded3680aff';
    const dir = join(FIXTURES, 'amplifier/edge/projects/-home-dev-amplifier-sandbox/sessions', id);
    expect(readdirSync(dir)).toContain('events.jsonl');
    const recorded = readFileSync(join(dir, 'events.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.includes('"llm:response"'))
      .reduce((n, l) => n + Number((JSON.parse(l) as { data: { usage: { cost_usd: string } } }).data.usage.cost_usd), 0);
    const r = await run(amp, { group_by: 'session', mode: 'display' });
    const row = r.rows.find((x: any) => x.key === id);
    expect(row.partial).toBe(false);
    expect(row.cost_usd).toBeCloseTo(recorded, 9);
    const calc = (await run(amp, { group_by: 'session', mode: 'calculate' })).rows.find((x: any) => x.key === id);
    expect(calc.cost_usd).toBeGreaterThan(0);
  });

  it('recorded costs (cost_usd as text in the log) read the same grouped from SQLite as call by call', async () => {
    const generic = bind(amp) as unknown as Store;
    for (const mode of ['display', 'auto', 'calculate']) {
      for (const group_by of ['session', 'daily']) {
        const args = { group_by, mode, breakdown: true, limit: 500, max_bytes: 10_000_000 };
        expect(await run(generic, args), `${group_by} ${mode}`).toEqual(await run(amp, args));
      }
    }
  });
});

describe('usage_report arguments', () => {
  it.each([
    [{ since: '2026-02-30' }, /since must be a calendar date YYYY-MM-DD/],
    [{ until: 'last week' }, /until must be a calendar date/],
    [{ since: '2026-03-02', until: '2026-03-01' }, /is after until/],
    [{ group_by: 'hourly' }, /group_by/],
    [{ mode: 'guess' }, /mode/],
    [{ limit: 0 }, /limit must be from 1 to 500/],
    [{ surprise: true }, /surprise|Unrecognized/],
  ])('%j → INVALID_ARGUMENTS with a clear message', async (args, message) => {
    const r = await run(cc, args);
    expect(r).toMatchObject({ status: 'error', code: 'INVALID_ARGUMENTS' });
    expect(r.error).toMatch(message);
  });

  it('pages rows with limit/offset and cuts to max_bytes, totals always whole', async () => {
    const all = await run(cc, { group_by: 'session' });
    const p = await run(cc, { group_by: 'session', limit: 2, offset: 1 });
    expect(p).toMatchObject({ count: all.count, returned: 2, has_more: true, next_offset: 3 });
    expect(p.rows.map((x: any) => x.key)).toEqual(all.rows.slice(1, 3).map((x: any) => x.key));
    expect(p.totals).toEqual(all.totals);
    const tiny = await run(cc, { group_by: 'session', max_bytes: 100 });
    expect(tiny).toMatchObject({ status: 'ok', truncated: true, returned: 0 });
  });
});
