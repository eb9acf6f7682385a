// The token_count rules, case by case, against the ccusage 20.0.24 binary on the same rollouts:
// repeated totals, missing `last`, totals that go back, `info: null`, all-zero counts, cached input
// above input, cache writes, model from turn_context / the count itself / the fallback,
// codex-auto-review by day, and a fork whose rollout replays its parent's calls.

import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers.js';
import { runImporter } from '../harness.js';
import { codex } from './index.js';

type Obj = Record<string, unknown>;
const U = (i: number, c: number, o: number, r = 0) => ({ input_tokens: i, cached_input_tokens: c, output_tokens: o, reasoning_output_tokens: r, total_tokens: i + o });
const at = (s: number, day = '2026-02-01') => new Date(Date.parse(`${day}T00:00:00.000Z`) + s * 1000).toISOString();
const meta = (id: string, s = 0, extra: Obj = {}, day?: string) => ({ timestamp: at(s, day), type: 'session_meta', payload: { id, timestamp: at(s, day), cwd: '/work/x', cli_version: '0.125.0', ...extra } });
const ctx = (model: string, s = 1, day?: string) => ({ timestamp: at(s, day), type: 'turn_context', payload: { cwd: '/work/x', model } });
const tok = (s: number, last: Obj | null, total: Obj | null, extra: Obj = {}, day?: string) => ({
  timestamp: at(s, day),
  type: 'event_msg',
  payload: { type: 'token_count', info: { ...(total ? { total_token_usage: total } : {}), ...(last ? { last_token_usage: last } : {}) }, ...extra },
});

/** Rollouts by session id (a uuid, as Codex names them). */
const CASES: Record<string, Obj[]> = {};
let n = 0;
function rollout(lines: (id: string) => Obj[]): string {
  const id = `00000000-0000-7000-8000-${String(++n).padStart(12, '0')}`;
  CASES[id] = lines(id);
  return id;
}

const repeat = rollout((id) => [meta(id), ctx('gpt-5'), tok(10, U(1000, 100, 10), U(1000, 100, 10)), tok(11, U(1000, 100, 10), U(1000, 100, 10)), tok(12, U(500, 0, 5), U(1500, 100, 15))]);
const noLast = rollout((id) => [meta(id), ctx('gpt-5'), tok(10, null, U(1000, 100, 10)), tok(11, null, U(3000, 300, 30))]);
const reset = rollout((id) => [meta(id), ctx('gpt-5'), tok(10, U(1000, 0, 10), U(1000, 0, 10)), tok(11, U(200, 0, 2), U(200, 0, 2))]);
const infoNull = rollout((id) => [meta(id), ctx('gpt-5'), { timestamp: at(5), type: 'event_msg', payload: { type: 'token_count', info: null } }, tok(11, U(1000, 0, 10), U(1000, 0, 10))]);
const cachedAbove = rollout((id) => [meta(id), ctx('gpt-5'), tok(10, U(100, 500, 10), U(100, 500, 10))]);
const cacheWrite = rollout((id) => [meta(id), ctx('gpt-5'), tok(10, { ...U(1000, 100, 10), cache_write_input_tokens: 200 }, { ...U(1000, 100, 10), cache_write_input_tokens: 200 })]);
const noModel = rollout((id) => [meta(id), tok(10, U(1000, 0, 10), U(1000, 0, 10))]);
const countModel = rollout((id) => [meta(id), ctx('gpt-5'), tok(10, U(1000, 0, 10), U(1000, 0, 10), { model: 'gpt-5.4' }), tok(12, U(1000, 0, 10), U(2000, 0, 20))]);
const modelSwitch = rollout((id) => [meta(id), ctx('gpt-5'), tok(10, U(1000, 0, 10), U(1000, 0, 10)), ctx('gpt-5.5', 11), tok(12, U(1000, 0, 10), U(2000, 0, 20))]);
const autoReview = rollout((id) => [meta(id, 0, {}, '2026-03-10'), ctx('codex-auto-review', 1, '2026-03-10'), tok(2, U(1000, 0, 10), U(1000, 0, 10), {}, '2026-03-10')]);
const zero = rollout((id) => [meta(id), ctx('gpt-5'), tok(10, U(0, 0, 0), U(0, 0, 0)), tok(12, U(10, 0, 1), U(10, 0, 1))]);
// A parent and its fork: the fork's rollout opens with the parent's history, rewritten to the fork
// instant (a burst a few ms apart), then its own calls after a pause.
const parentLines = (id: string) => [meta(id), ctx('gpt-5.5'), tok(10, U(20_000, 0, 100), U(20_000, 0, 100)), tok(40, U(25_000, 19_000, 200), U(45_000, 19_000, 300))];
const parent = rollout(parentLines);
const burst = (s: number, k: number) => new Date(Date.parse(at(s)) + k * 3).toISOString();
const fork = rollout((id) => [
  meta(id, 100, { forked_from_id: parent }),
  ...parentLines(parent).map((l, k) => ({ ...l, timestamp: burst(100, k + 1) })),
  ctx('gpt-5.5', 110),
  tok(120, U(30_000, 25_000, 50), U(75_000, 44_000, 350)),
]);
// A spawned agent whose parent is not in the home: the burst rule alone decides.
const orphanSpawn = rollout((id) => [
  meta(id, 200, { source: { subagent: { thread_spawn: { parent_thread_id: '00000000-0000-7000-8000-999999999999', depth: 1 } } } }),
  ...parentLines('00000000-0000-7000-8000-999999999999').map((l, k) => ({ ...l, timestamp: burst(200, k + 1) })),
  tok(230, U(9_000, 0, 40), U(54_000, 19_000, 340)),
]);

function writeHome(): string {
  const root = tempDir('hs-codex-rules-');
  const dir = join(root, 'sessions', '2026', '02', '01');
  mkdirSync(dir, { recursive: true });
  for (const [id, lines] of Object.entries(CASES)) {
    writeFileSync(join(dir, `rollout-2026-02-01T00-00-00-${id}.jsonl`), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  }
  return root;
}

describe('codex token_count rules equal ccusage 20.0.24', async () => {
  const root = writeHome();
  const cc = JSON.parse(
    execFileSync('node', ['node_modules/ccusage/src/cli.js', 'codex', 'session', '--json', '--offline', '-z', 'UTC'], { env: { ...process.env, CODEX_HOME: root }, encoding: 'utf8' }),
  ) as { sessions: Record<string, any>[] };
  const theirs = new Map(cc.sessions.map((s) => [String(s.sessionId).slice(-36), s]));
  const r = await runImporter(codex, root);
  const mine = (id: string) => r.sessions.get(id)!.summary;

  it.each([
    ['repeated totals', repeat],
    ['no last_token_usage', noLast],
    ['totals going back', reset],
    ['info: null', infoNull],
    ['cached above input', cachedAbove],
    ['cache writes', cacheWrite],
    ['no model recorded', noModel],
    ['model on the count', countModel],
    ['model switch', modelSwitch],
    ['codex-auto-review', autoReview],
    ['all-zero count', zero],
    ['parent of a fork', parent],
    ['fork replaying its parent', fork],
    ['spawned agent, parent absent', orphanSpawn],
  ])('%s', (_name, id) => {
    const s = theirs.get(id)!;
    const m = mine(id);
    expect(m.tokens).toEqual({ input: s.inputTokens, output: s.outputTokens, cacheRead: s.cacheReadTokens, cacheWrite: s.cacheCreationTokens });
    expect([...m.models].sort()).toEqual(Object.keys(s.models).sort());
  });

  it('marks what it inferred and what it did not count', () => {
    const fallback = r.sessions.get(noModel)!.events.find((e) => e.usage)!;
    expect(fallback.usage!.model).toBe('gpt-5');
    expect(fallback.attrs.modelFallback).toBe(true);
    const review = r.sessions.get(autoReview)!.events.find((e) => e.usage)!;
    expect(review.usage!.model).toBe('gpt-5.4');
    expect(review.attrs).toMatchObject({ loggedModel: 'codex-auto-review', modelFallback: true });
    const f = r.sessions.get(fork)!;
    expect(f.events.filter((e) => e.attrs.replayed === true)).toHaveLength(2);
    expect(f.summary.llmCalls).toBe(1);
    expect(f.facts).toMatchObject({ kind: 'fork', parentId: parent });
    // The copied session_meta is not the fork's own start.
    expect(f.events.filter((e) => e.kind === 'session_start')).toHaveLength(1);
    expect(r.sessions.get(orphanSpawn)!.facts).toMatchObject({ kind: 'subagent' });
    expect(r.sessions.get(repeat)!.summary.llmCalls).toBe(2);
  });
});
