// usage_report against ccusage 20.0.24 itself on the same generated OpenCode folder (database and
// the storage/ copies an upgrade leaves behind): every session and every day, model by model, kind
// by kind, and cost within 2%.
//
// The reasoning ccusage bills as output but leaves out of outputTokens (its totalTokens and cost
// include it) is Hindsight's `reasoning` kind, so every kind is compared exactly. One difference is
// by design: ccusage lists a sub-agent session on its own row where Hindsight folds it into its
// parent's row and lists it under `subagents`.

import { beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../store/store.js';
import { ccusage, ingested, makeHome, tool, type CcusageRow } from './test-home.js';

type Kinds = { input: number; output: number; cache_write: number; cache_read: number; reasoning: number };

/** ccusage's figures in Hindsight's terms: what its total holds beyond the four kinds is reasoning. */
function theirKinds(r: Pick<CcusageRow, 'inputTokens' | 'outputTokens' | 'cacheCreationTokens' | 'cacheReadTokens'> & { totalTokens?: number }): Kinds {
  const four = r.inputTokens + r.outputTokens + r.cacheCreationTokens + r.cacheReadTokens;
  const extra = r.totalTokens === undefined ? 0 : r.totalTokens - four;
  return { input: r.inputTokens, output: r.outputTokens, cache_write: r.cacheCreationTokens, cache_read: r.cacheReadTokens, reasoning: extra };
}
const ourKinds = (t: Partial<Kinds>): Kinds => ({ input: t.input ?? 0, output: t.output ?? 0, cache_write: t.cache_write ?? 0, cache_read: t.cache_read ?? 0, reasoning: t.reasoning ?? 0 });
const minus = (a: Kinds, b: Kinds): Kinds => ({ input: a.input - b.input, output: a.output - b.output, cache_write: a.cache_write - b.cache_write, cache_read: a.cache_read - b.cache_read, reasoning: a.reasoning - b.reasoning });

/** Within 2%; a session with no priced call is null here (unpriced, never $0) and $0 in ccusage. */
function closeCost(ours: number | null, theirs: number): void {
  if (ours === null) expect(theirs).toBe(0);
  else expect(Math.abs(ours - theirs)).toBeLessThanOrEqual(Math.max(0.02 * theirs, 1e-9));
}

describe('OpenCode usage vs ccusage 20', () => {
  let home: string;
  let store: Store;
  beforeAll(async () => {
    ({ home } = makeHome({ seed: 11, sessions: 14, layout: 'both' }));
    ({ store } = await ingested([home]));
  });

  it('covers what the comparison needs: several models, an unpriced one, sub-agents, reasoning', () => {
    const sessions = ccusage(home, 'session');
    const models = new Set(sessions.flatMap((r) => r.modelsUsed));
    expect([...models].sort()).toEqual(['big-pickle', 'claude-haiku-4-5', 'claude-sonnet-4-5-20250929', 'gemini-3-pro-preview', 'gpt-5']);
    expect(sessions.length).toBeGreaterThan(14); // sub-agent sessions on rows of their own
    expect(sessions.some((r) => r.totalTokens > r.inputTokens + r.outputTokens + r.cacheCreationTokens + r.cacheReadTokens)).toBe(true); // reasoning billed as output
  });

  it('gives every session the tokens and cost of `ccusage opencode session` (mode auto, as ccusage prices)', async () => {
    const theirs = ccusage(home, 'session');
    const ours = (await tool(store, 'usage_report', { group_by: 'session', breakdown: true, mode: 'auto', limit: 500 })).rows as {
      session_id: string; tokens: Kinds; cost_usd: number | null; subagents?: { session_id: string; tokens: Kinds; cost_usd: number | null }[];
    }[];
    // Our rows are top-level sessions with their sub-agents folded in: take each session's own share.
    const own = new Map<string, { tokens: Kinds; cost: number | null }>();
    for (const row of ours) {
      let rest = ourKinds(row.tokens);
      let cost = row.cost_usd;
      for (const sub of row.subagents ?? []) {
        own.set(sub.session_id, { tokens: ourKinds(sub.tokens), cost: sub.cost_usd });
        rest = minus(rest, ourKinds(sub.tokens));
        if (cost !== null && sub.cost_usd !== null) cost -= sub.cost_usd; // an unpriced sub-agent adds nothing to the row
      }
      own.set(row.session_id, { tokens: rest, cost });
    }
    expect([...own.keys()].sort()).toEqual(theirs.map((r) => r.sessionId!).sort());
    for (const t of theirs) {
      const o = own.get(t.sessionId!)!;
      expect(o.tokens, t.sessionId).toEqual(theirKinds(t));
      closeCost(o.cost, t.totalCost);
    }
  });

  it('gives every day the tokens of `ccusage opencode daily`, model by model, and its cost', async () => {
    const theirs = ccusage(home, 'daily');
    const ours = (await tool(store, 'usage_report', { group_by: 'daily', breakdown: true, mode: 'auto', limit: 500 })).rows as {
      key: string; tokens: Kinds; cost_usd: number | null; model_breakdowns: { model: string; tokens: Kinds; cost_usd: number | null }[];
    }[];
    expect(ours.map((r) => r.key)).toEqual(theirs.map((r) => r.date));
    for (const [i, t] of theirs.entries()) {
      const o = ours[i]!;
      expect(ourKinds(o.tokens), t.date).toEqual(theirKinds(t));
      closeCost(o.cost_usd, t.totalCost);
      // A day's breakdown has no total per model: the four kinds it names are compared exactly.
      const models = Object.fromEntries(o.model_breakdowns.map((m) => [m.model, ourKinds(m.tokens)]));
      for (const m of t.modelBreakdowns) {
        expect(models[m.modelName]!.input).toBe(m.inputTokens);
        expect(models[m.modelName]!.cache_read).toBe(m.cacheReadTokens);
        expect(models[m.modelName]!.cache_write).toBe(m.cacheCreationTokens);
        expect(models[m.modelName]!.output).toBe(m.outputTokens);
      }
    }
  });

  it('prices from the table like ccusage when OpenCode recorded no cost, and lists the model no table prices', async () => {
    const calculated = await tool(store, 'usage_report', { group_by: 'daily', mode: 'calculate', limit: 500 });
    expect(calculated.totals.unpriced_models).toEqual(['big-pickle']);
    expect(calculated.totals.partial).toBe(true);
    const unpricedInCcusage = ccusage(home, 'daily').flatMap((d) => d.modelBreakdowns.filter((m) => m.missingPricing).map((m) => m.modelName));
    expect([...new Set(unpricedInCcusage)]).toEqual(['big-pickle']);
  });
});
