// usage_report against ccusage 20.0.24 itself (the pinned dev dependency, run offline) on Gemini
// chats: the two real legacy documents, the real JSONL sample (each reply written twice) and a
// generated home (both layouts, sub-agents, cancellations, rewinds, long-context calls, five
// models). Every day, every session and every model, kind by kind.
//
// Every kind is ccusage's exactly: input, output (ccusage's outputTokens, thoughts left out as it
// leaves them out), cache writes and reads, and the total; Hindsight's fifth kind, reasoning (the
// thoughts, tokens.ts), is what ccusage's total holds beyond its four columns. Cost too (to a
// billionth; issue 13's bar is 2%).

import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, REPO, tempDir } from '../../../test/helpers.js';
import { generateGemini } from '../../../bench/generators/gemini.js';
import { ingestPaths } from '../../ingest/ingest.js';
import { SqliteStore } from '../../store/sqlite/sqlite-store.js';
import { runTool } from '../../tools/tool.js';
import { usageReport } from '../../tools/usage-report/index.js';

interface TheirTokens {
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
}
interface TheirRow extends TheirTokens {
  date?: string;
  sessionId?: string;
  totalTokens: number;
  totalCost: number;
  modelBreakdowns: (TheirTokens & { modelName: string; cost: number })[];
}
interface OurTokens {
  input: number;
  output: number;
  cache_write: number;
  cache_read: number;
  reasoning: number;
  total: number;
}
interface OurRow {
  key: string;
  tokens: OurTokens;
  cost_usd: number | null;
  partial: boolean;
  subagents?: { session_id: string }[];
  model_breakdowns: { model: string; tokens: OurTokens; cost_usd: number | null }[];
}

/** [input, output, cache write, cache read, reasoning, total, cost]. */
type Figures = [number, number, number, number, number, number, number];
const ZERO: Figures = [0, 0, 0, 0, 0, 0, 0];

/** ccusage's figures as they are; reasoning is what its total holds beyond its four columns (the thoughts). */
function theirs(t: TheirTokens, total: number, cost: number): Figures {
  const reasoning = total - t.inputTokens - t.outputTokens - t.cacheCreationTokens - t.cacheReadTokens;
  return [t.inputTokens, t.outputTokens, t.cacheCreationTokens, t.cacheReadTokens, reasoning, total, cost];
}
const ours = (t: OurTokens, cost: number | null): Figures => [t.input, t.output, t.cache_write, t.cache_read, t.reasoning, t.total, cost ?? Number.NaN];
const add = (a: Figures, b: Figures): Figures => a.map((x, i) => x + b[i]!) as Figures;

/** Token kinds equal; cost within 2% (issue 13's bar; in practice equal to a billionth). */
function expectSame(got: Figures, want: Figures, what: string): void {
  expect(got.slice(0, 6), what).toEqual(want.slice(0, 6));
  expect(Math.abs(got[6] - want[6]), `${what} cost ${got[6]} vs ${want[6]}`).toBeLessThanOrEqual(0.02 * want[6] + 1e-9);
}

let dataDir: string;
let store: SqliteStore;

function ccusage(report: 'daily' | 'session'): TheirRow[] {
  const run = spawnSync(process.execPath, [join(REPO, 'node_modules', 'ccusage', 'src', 'cli.js'), 'gemini', report, '--json', '--offline', '--breakdown', '-z', 'UTC'], {
    encoding: 'utf8',
    env: { ...process.env, GEMINI_DATA_DIR: dataDir, TZ: 'UTC' },
  });
  expect(run.status, run.stderr).toBe(0);
  return (JSON.parse(run.stdout) as Record<string, TheirRow[]>)[report === 'daily' ? 'daily' : 'sessions']!;
}

async function report(group_by: 'daily' | 'session'): Promise<OurRow[]> {
  const r = (await runTool(usageReport, { group_by, breakdown: true, limit: 500, max_bytes: 10_000_000 }, { store })) as Record<string, unknown>;
  expect(r.status, JSON.stringify(r.error)).toBe('ok');
  return r.rows as OurRow[];
}

beforeAll(async () => {
  const home = tempDir('hs-gemini-cc-');
  dataDir = join(home, 'tmp');
  cpSync(join(FIXTURES, 'other-agents', 'gemini', 'tmp'), dataDir, { recursive: true });
  const sampleDir = join(dataDir, '9da8b3dfb8655182ac1f0e66601c367e34f8d18447a29759eeba4d7e45dc60ea', 'chats');
  mkdirSync(sampleDir, { recursive: true });
  cpSync(join(FIXTURES, 'other-agents', 'gemini', 'session-sample.jsonl'), join(sampleDir, 'session-2026-04-23T12-52-0ab84937.jsonl'));
  const stats = generateGemini(home, { sessions: 60, seed: 13 });
  expect(stats.subagents).toBeGreaterThan(0);
  expect(stats.legacy).toBeGreaterThan(0);
  store = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
  await ingestPaths(store, [home]);
}, 120_000);

describe('Gemini usage vs ccusage 20.0.24', () => {
  it('matches the README figures for the three real samples', async () => {
    const rows = new Map((await report('session')).map((r) => [r.key, r]));
    const readme: [string, number, number, number, number][] = [
      ['5b959dae-8655-4cd1-b10f-720b8c336ea2', 45_092, 2_734, 56_538, 0.121772],
      ['37b7abef-713d-4522-85f0-8ff15a4e6d17', 25_301, 1_441, 62_117, 0.092228],
      ['0ab84937-9fe7-4284-986a-33c832af0b6a', 153_635, 2_152, 48_951, 0.158963],
    ];
    for (const [id, input, output, cacheRead, cost] of readme) {
      const row = rows.get(id)!;
      expect([row.tokens.input, row.tokens.output, row.tokens.cache_read], id).toEqual([input, output, cacheRead]);
      // The thinking tokens, apart from output and inside the total.
      expect(row.tokens.reasoning, id).toBeGreaterThan(0);
      expect(row.tokens.total, id).toBe(input + output + cacheRead + row.tokens.reasoning);
      expect(row.cost_usd!, id).toBeCloseTo(cost, 6);
    }
  });

  it('gives every day the tokens and cost of `ccusage gemini daily`, model by model', async () => {
    const mine = new Map((await report('daily')).map((r) => [r.key, r]));
    const days = ccusage('daily');
    expect([...mine.keys()].sort()).toEqual(days.map((d) => d.date!).sort());
    for (const day of days) {
      const row = mine.get(day.date!)!;
      expect(row.partial, day.date).toBe(false);
      expectSame(ours(row.tokens, row.cost_usd), theirs(day, day.totalTokens, day.totalCost), day.date!);
      const models = new Map(row.model_breakdowns.map((m) => [m.model, m]));
      expect([...models.keys()].sort(), day.date).toEqual(day.modelBreakdowns.map((m) => m.modelName).sort());
      // ccusage's breakdowns carry no total: the per-model reasoning is compared through the day's sum.
      let sum: Figures = ZERO;
      for (const m of day.modelBreakdowns) {
        const o = models.get(m.modelName)!;
        expect([o.tokens.input, o.tokens.output, o.tokens.cache_write, o.tokens.cache_read], `${day.date} ${m.modelName}`).toEqual([
          m.inputTokens,
          m.outputTokens,
          m.cacheCreationTokens,
          m.cacheReadTokens,
        ]);
        expect(Math.abs(o.cost_usd! - m.cost), `${day.date} ${m.modelName} cost`).toBeLessThanOrEqual(0.02 * m.cost + 1e-9);
        sum = add(sum, ours(o.tokens, o.cost_usd));
      }
      expectSame(sum, ours(row.tokens, row.cost_usd), `${day.date} breakdown sum`);
    }
  });

  it('gives every session the tokens and cost of `ccusage gemini session`, its sub-agents folded in', async () => {
    const mine = await report('session');
    const rootOf = new Map<string, string>();
    for (const r of mine) {
      rootOf.set(r.key, r.key);
      // A sub-agent is `<parent>:<its own id>`; ccusage lists it under its own id.
      for (const s of r.subagents ?? []) rootOf.set(s.session_id.slice(r.key.length + 1), r.key);
    }
    const want = new Map<string, Figures>();
    for (const s of ccusage('session')) {
      const root = rootOf.get(s.sessionId!);
      expect(root, `ccusage session ${s.sessionId} has a Hindsight session`).toBeDefined();
      want.set(root!, add(want.get(root!) ?? ZERO, theirs(s, s.totalTokens, s.totalCost)));
    }
    expect(mine.filter((r) => r.tokens.total > 0).map((r) => r.key).sort()).toEqual([...want.keys()].sort());
    for (const r of mine) if (want.has(r.key)) expectSame(ours(r.tokens, r.cost_usd), want.get(r.key)!, r.key);
    expect(mine.some((r) => (r.subagents ?? []).length > 0)).toBe(true);
  });
});
