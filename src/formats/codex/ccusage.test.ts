// Usage per session, day and model equals ccusage 20.0.24's on the same rollouts: the three real
// ones (the loose VS Code sample put under sessions/, where ccusage reads it) and a generated
// home with forks, spawned agents, archived and Desktop sessions. Tokens exactly; cost within 2%.
// The sample's custom model name `aide-gpt-5` is priced as gpt-5 by both (the known id it contains).

import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateCodex } from '../../../bench/generators/codex.js';
import { tempDir } from '../../../test/helpers.js';
import { ingestPaths } from '../../ingest/ingest.js';
import { openStore } from '../../store/open.js';
import { findTool } from '../../tools/registry.js';
import { runTool } from '../../tools/tool.js';

const FIXTURES = '../shared/fixtures/other-agents/codex';
const CCUSAGE = 'node_modules/ccusage/src/cli.js';
const SAMPLE_ID = '01996135-afde-7911-97f0-d863511eca56';

type Obj = Record<string, any>;

function ccusage(home: string, report: 'session' | 'daily'): Obj {
  const out = execFileSync('node', [CCUSAGE, 'codex', report, '--json', '--offline', '-z', 'UTC', '--breakdown'], {
    env: { ...process.env, CODEX_HOME: home, LOG_LEVEL: '0' },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(out) as Obj;
}

const uuidOf = (ccusageSessionId: string) => /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/.exec(ccusageSessionId)![1]!;

function home(): string {
  const root = tempDir('hs-codex-cc-');
  const day = join(root, 'sessions', '2026', '05', '11');
  mkdirSync(day, { recursive: true });
  for (const f of ['rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl', 'rollout-2026-05-11T13-28-45-019e1695-0522-7c83-8b39-0dd379793f80.jsonl']) {
    copyFileSync(join(FIXTURES, 'sessions/2026/05/11', f), join(day, f));
  }
  const sampleDay = join(root, 'sessions', '2025', '09', '19');
  mkdirSync(sampleDay, { recursive: true });
  copyFileSync(join(FIXTURES, 'rollout-sample.jsonl'), join(sampleDay, `rollout-2025-09-19T09-02-12-${SAMPLE_ID}.jsonl`));
  const stats = generateCodex(root, { sessions: 30, seed: 13 });
  // The corpus must hold what makes the comparison worth making.
  expect(stats.forks).toBeGreaterThan(0);
  expect(stats.subagents).toBeGreaterThan(0);
  expect(stats.archived).toBeGreaterThan(0);
  expect(stats.withoutUsage).toBeGreaterThan(0);
  return root;
}

async function report(root: string, groupBy: 'session' | 'daily'): Promise<Obj> {
  const store = await openStore({ db: join(tempDir('hs-codex-cc-db-'), 'h.db') });
  await ingestPaths(store, [root], { format: 'codex' });
  const r = await runTool(findTool('usage_report')!, { group_by: groupBy, breakdown: true, limit: 500 }, { store });
  expect(r.status).toBe('ok');
  return r as Obj;
}

const tokensOf = (t: Obj) => ({ input: t.input, output: t.output, cacheRead: t.cache_read, cacheWrite: t.cache_write });
const ccTokens = (c: Obj) => ({ input: c.inputTokens, output: c.outputTokens, cacheRead: c.cacheReadTokens, cacheWrite: c.cacheCreationTokens });

describe('codex usage equals ccusage 20.0.24', async () => {
  const root = home();
  const ccSessions = ccusage(root, 'session');
  const ccDaily = ccusage(root, 'daily');
  const bySession = await report(root, 'session');
  const byDay = await report(root, 'daily');

  it('per session: tokens exactly, cost within 2% (sub-agents and forks compared one by one)', () => {
    const mine = new Map<string, Obj>();
    for (const row of bySession.rows as Obj[]) {
      let own = { ...tokensOf(row.tokens) };
      let ownCost = row.cost_usd as number;
      for (const sub of row.subagents as Obj[]) {
        mine.set(sub.session_id, { tokens: tokensOf(sub.tokens), cost: sub.cost_usd, unpriced: sub.unpriced_models });
        for (const k of Object.keys(own) as (keyof typeof own)[]) own[k] -= tokensOf(sub.tokens)[k];
        ownCost -= sub.cost_usd ?? 0;
      }
      mine.set(row.session_id, { tokens: own, cost: ownCost, unpriced: row.unpriced_models });
    }
    const theirs = ccSessions.sessions as Obj[];
    // Every session ccusage reports, and only those (the Desktop rollouts report no usage in either).
    expect([...mine.keys()].filter((id) => mine.get(id)!.tokens.input + mine.get(id)!.tokens.output > 0).sort()).toEqual(theirs.map((s) => uuidOf(s.sessionId)).sort());
    expect(theirs.length).toBeGreaterThan(20);
    // Forks and spawned agents are children here (their replayed history not counted again).
    expect((bySession.rows as Obj[]).filter((r) => r.subagents.length > 0).length).toBeGreaterThan(1);
    for (const s of theirs) {
      const id = uuidOf(s.sessionId);
      const m = mine.get(id)!;
      expect(m.tokens, id).toEqual(ccTokens(s));
      if (id === SAMPLE_ID) {
        expect(Object.keys(s.models)).toEqual(['aide-gpt-5']);
        expect(s.models['aide-gpt-5'].isFallback).toBe(false);
        expect(s.costUSD).toBeCloseTo(0.309737, 6); // priced as gpt-5 by ccusage
        expect(m.unpriced).toEqual([]);
      }
      expect(Math.abs(m.cost - s.costUSD), `${id}: ${m.cost} vs ${s.costUSD}`).toBeLessThanOrEqual(0.02 * s.costUSD + 1e-9);
    }
    // The real TUI session, to the cent and token (README figures).
    const tui = mine.get('019e1625-789d-76c0-80ab-3724b5ddb799')!;
    expect(tui.tokens).toEqual({ input: 1_126_300, output: 9_118, cacheRead: 4_929_536, cacheWrite: 0 });
    expect(tui.cost).toBeCloseTo(8.369808, 6);
  });

  it('per day and model: tokens exactly, cost within 2%', () => {
    const rows = new Map((byDay.rows as Obj[]).map((r) => [r.key, r]));
    expect([...rows.keys()].sort()).toEqual((ccDaily.daily as Obj[]).map((d) => d.date).sort());
    for (const d of ccDaily.daily as Obj[]) {
      const row = rows.get(d.date)!;
      expect(tokensOf(row.tokens), d.date).toEqual(ccTokens(d));
      const models = new Map((row.model_breakdowns as Obj[]).map((m) => [m.model, m]));
      expect([...models.keys()].sort(), d.date).toEqual(Object.keys(d.models).sort());
      for (const [model, c] of Object.entries(d.models as Record<string, Obj>)) {
        const m = models.get(model)!;
        expect(tokensOf(m.tokens), `${d.date} ${model}`).toEqual(ccTokens(c));
      }
      expect(row.unpriced_models, d.date).toEqual([]);
      expect(Math.abs(row.cost_usd - d.costUSD), d.date).toBeLessThanOrEqual(0.02 * d.costUSD + 1e-9);
    }
  });
});
