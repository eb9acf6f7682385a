// usage_report against ccusage 20 itself (a pinned dev dependency, run offline) on the real
// Claude Code transcripts: every day, every session and every model, kind by kind.
//
// ccusage 20 disagrees with itself on one thing (formats.md, "Token usage traps"): its daily report
// counts calls recorded only in `progress` lines (a sub-agent whose own file is absent), its session
// report drops them. Hindsight counts each call once wherever it is recorded, so its daily AND
// session reports equal ccusage's daily; its session report differs from ccusage's by exactly those
// calls, pinned below.

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, REPO, runCli, tempDir } from '../helpers.js';

interface CcusageTokens {
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
}
interface CcusageRow extends CcusageTokens {
  period: string;
  totalCost: number;
  modelBreakdowns: (CcusageTokens & { modelName: string })[];
}
interface OurTokens {
  input: number;
  output: number;
  cache_write: number;
  cache_read: number;
}
interface OurRow {
  key: string;
  session_id?: string;
  tokens: OurTokens;
  cost_usd: number | null;
  model_breakdowns: { model: string; tokens: OurTokens }[];
}

type Kinds = [number, number, number, number];
const theirKinds = (t: CcusageTokens): Kinds => [t.inputTokens, t.outputTokens, t.cacheCreationTokens, t.cacheReadTokens];
const ourKinds = (t: OurTokens): Kinds => [t.input, t.output, t.cache_write, t.cache_read];
const plus = (a: Kinds, b: Kinds): Kinds => [a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3]];

/** Session 491e126e: five claude-haiku-4-5 calls (nine progress lines, 109,659 tokens) that only ccusage's daily report counts. */
const PROGRESS_ONLY = {
  session: '491e126e-1e71-469c-ade2-fcc8af567c74',
  model: 'claude-haiku-4-5-20251001',
  tokens: [24, 7, 14_285, 95_343] as Kinds,
};

function ccusage(report: 'daily' | 'session', extra: string[] = []): CcusageRow[] {
  const cc = spawnSync(join(REPO, 'node_modules', '.bin', 'ccusage'), [report, '--json', '--offline', '--breakdown', ...extra], {
    encoding: 'utf8',
    env: { ...process.env, CLAUDE_CONFIG_DIR: join(FIXTURES, 'claude-code'), TZ: 'UTC' },
  });
  expect(cc.status, cc.stderr).toBe(0);
  return (JSON.parse(cc.stdout) as Record<string, CcusageRow[]>)[report]!;
}

function ours(db: string, report: 'daily' | 'session', extra: string[] = []): OurRow[] {
  const r = runCli(['usage', report, '--breakdown', '--json', '--db', db, ...extra]);
  expect(r.status, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { rows: OurRow[] }).rows;
}

/** Per model, its kinds (a row's breakdown as a sorted map, for toEqual). */
function byModel(rows: { model: string; kinds: Kinds }[]): Record<string, Kinds> {
  return Object.fromEntries(rows.map((m) => [m.model, m.kinds] as const).sort(([a], [b]) => (a < b ? -1 : 1)));
}

describe('usage_report vs ccusage 20', () => {
  let db: string;
  beforeAll(() => {
    db = join(tempDir('hs-ccusage-'), 'h.db');
    expect(runCli(['ingest', join(FIXTURES, 'claude-code'), '--db', db]).status).toBe(0);
  });

  it('gives every day the tokens of `ccusage daily`, kind by kind and model by model', () => {
    const theirs = ccusage('daily');
    const mine = new Map(ours(db, 'daily').map((r) => [r.key, r]));
    expect([...mine.keys()].sort()).toEqual(theirs.map((t) => t.period).sort());
    for (const t of theirs) {
      const o = mine.get(t.period)!;
      expect(ourKinds(o.tokens), t.period).toEqual(theirKinds(t));
      expect(byModel(o.model_breakdowns.map((m) => ({ model: m.model, kinds: ourKinds(m.tokens) }))), t.period).toEqual(
        byModel(t.modelBreakdowns.map((m) => ({ model: m.modelName, kinds: theirKinds(m) }))),
      );
      expect(o.cost_usd).not.toBeNull();
    }
    // The day the issue named: 587,849 before progress-only calls were counted.
    const day = mine.get('2026-02-10')!.tokens;
    expect(day.input + day.output + day.cache_write + day.cache_read).toBe(697_508);
  });

  it('gives every session the tokens of `ccusage session`, plus the progress-only calls it drops', () => {
    const theirs = ccusage('session');
    expect(theirs.length).toBe(6);
    const mine = new Map(ours(db, 'session').map((r) => [r.session_id ?? r.key, r]));
    expect([...mine.keys()].sort()).toEqual(theirs.map((t) => t.period).sort());
    for (const t of theirs) {
      const o = mine.get(t.period)!;
      const expected = t.modelBreakdowns.map((m) => ({ model: m.modelName, kinds: theirKinds(m) }));
      let total = theirKinds(t);
      if (t.period === PROGRESS_ONLY.session) {
        expect(expected.some((m) => m.model === PROGRESS_ONLY.model), 'ccusage session still drops the progress-only calls').toBe(false);
        expected.push({ model: PROGRESS_ONLY.model, kinds: PROGRESS_ONLY.tokens });
        total = plus(total, PROGRESS_ONLY.tokens);
      }
      expect(ourKinds(o.tokens), t.period).toEqual(total);
      expect(byModel(o.model_breakdowns.map((m) => ({ model: m.model, kinds: ourKinds(m.tokens) }))), t.period).toEqual(byModel(expected));
      // Costs come from our own dated price table; they agree with ccusage's within a cent
      // unless a call crosses the 200k long-context tier (billed whole by Anthropic's rule).
      expect(o.cost_usd).not.toBeNull();
    }
  });

  it('cuts days in a --timezone as ccusage daily --timezone does, and orders them with --order', () => {
    // Asia/Tokyo is UTC+9: the calls of 2026-02-10 (UTC) fall on 2026-02-11 there.
    // Europe/Helsinki's midnight falls inside session 8463c716 (21:41–22:54 UTC): its calls split.
    for (const zone of ['Asia/Tokyo', 'America/Los_Angeles', 'Europe/Helsinki']) {
      const theirs = ccusage('daily', ['--timezone', zone]);
      const mine = ours(db, 'daily', ['--timezone', zone]);
      expect(mine.map((r) => [r.key, ourKinds(r.tokens)]), zone).toEqual(theirs.map((t) => [t.period, theirKinds(t)]));
    }
    expect(ours(db, 'daily', ['--timezone', 'Asia/Tokyo']).map((r) => r.key)).toContain('2026-02-12');
    const desc = ccusage('daily', ['--order', 'desc']).map((t) => t.period);
    expect(desc).toEqual(ccusage('daily').map((t) => t.period).reverse());
    expect(ours(db, 'daily', ['--order', 'desc']).map((r) => r.key)).toEqual(desc);
  });

  it('agrees with itself: the session report and the daily report add up to the same totals', () => {
    const sum = (rows: OurRow[]) => rows.reduce<Kinds>((acc, r) => plus(acc, ourKinds(r.tokens)), [0, 0, 0, 0]);
    const daily = sum(ours(db, 'daily'));
    expect(sum(ours(db, 'session'))).toEqual(daily);
    expect(daily).toEqual(ccusage('daily').reduce<Kinds>((acc, t) => plus(acc, theirKinds(t)), [0, 0, 0, 0]));
  });
});
