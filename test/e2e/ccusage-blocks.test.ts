// `hindsight usage blocks` against `ccusage blocks` (ccusage 20, a pinned dev dependency, run
// offline) on the real Claude Code transcripts: every window's start, end and last call, its tokens
// kind by kind, its cost within 2%; and, on a copy of the transcripts moved in time so that their
// last window is open now, the active window's burn rate and projection.
//
// One difference is pinned, as in ccusage.test.ts: ccusage's blocks (like its session report) drop
// the five calls recorded only in `progress` lines of session 491e126e; Hindsight counts each call
// once wherever it is recorded, so the 2026-02-10 window holds them too.

import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { callCost } from '../../src/usage/cost.js';
import { copyFixture, FIXTURES, REPO, runCli, tempDir } from '../helpers.js';
import { PROGRESS_ONLY_CALLS } from '../progress-only-calls.js';

interface TheirBlock {
  id: string;
  startTime: string;
  endTime: string;
  actualEndTime: string | null;
  isActive: boolean;
  isGap: boolean;
  entries: number;
  tokenCounts: { inputTokens: number; outputTokens: number; cacheCreationInputTokens: number; cacheReadInputTokens: number };
  totalTokens: number;
  costUSD: number;
  models: string[];
  burnRate: { tokensPerMinute: number; tokensPerMinuteForIndicator: number; costPerHour: number } | null;
  projection: { totalTokens: number; totalCost: number; remainingMinutes: number } | null;
}
interface OurBlock {
  key: string;
  start: string;
  end: string;
  actual_end: string | null;
  active: boolean;
  gap: boolean;
  calls: number;
  tokens: { input: number; output: number; cache_write: number; cache_read: number; total: number };
  cost_usd: number | null;
  models: string[];
  burn_rate: { tokens_per_minute: number; tokens_per_minute_for_indicator: number; cost_per_hour: number | null } | null;
  projection: { total_tokens: number; cost_usd: number | null; remaining_minutes: number } | null;
}

type Kinds = [number, number, number, number];
const theirKinds = (b: TheirBlock): Kinds => [b.tokenCounts.inputTokens, b.tokenCounts.outputTokens, b.tokenCounts.cacheCreationInputTokens, b.tokenCounts.cacheReadInputTokens];
const ourKinds = (b: OurBlock): Kinds => [b.tokens.input, b.tokens.output, b.tokens.cache_write, b.tokens.cache_read];

/** The window of 2026-02-10 that also holds the progress-only calls, their kinds, model and cost. */
const PROGRESS_BLOCK = '2026-02-10T21:00:00.000Z';
const progress = PROGRESS_ONLY_CALLS['491e126e-1e71-469c-ade2-fcc8af567c74'];
const PROGRESS_KINDS: Kinds = [progress.inputTokens, progress.outputTokens, progress.cacheCreationTokens, progress.cacheReadTokens];
const PROGRESS_USD = callCost(
  progress.model,
  { input: progress.inputTokens, output: progress.outputTokens, cacheWrite: progress.cacheCreationTokens, cacheWrite1h: 0, cacheRead: progress.cacheReadTokens },
  null,
  'calculate',
).usd!;

function ccusageBlocks(configDir: string, extra: string[] = []): TheirBlock[] {
  const cc = spawnSync(join(REPO, 'node_modules', '.bin', 'ccusage'), ['blocks', '--json', '--offline', ...extra], {
    encoding: 'utf8',
    env: { ...process.env, CLAUDE_CONFIG_DIR: configDir, TZ: 'UTC' },
  });
  expect(cc.status, cc.stderr).toBe(0);
  return (JSON.parse(cc.stdout) as { blocks: TheirBlock[] }).blocks;
}

function ourBlocks(db: string, extra: string[] = []): OurBlock[] {
  const r = runCli(['usage', 'blocks', '--json', '--db', db, ...extra]);
  expect(r.status, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { rows: OurBlock[] }).rows;
}

function ingest(path: string): string {
  const db = join(tempDir('hs-blocks-'), 'h.db');
  const r = runCli(['ingest', path, '--db', db]);
  expect(r.status, r.stderr).toBe(0);
  return db;
}

const within2Percent = (ours: number, theirs: number, label: string) => expect(Math.abs(ours - theirs), label).toBeLessThanOrEqual(0.02 * Math.abs(theirs));

describe('usage blocks vs ccusage 20 blocks', () => {
  let db: string;
  beforeAll(() => {
    db = ingest(join(FIXTURES, 'claude-code'));
  });

  it('gives every window and gap the start, end and last call of `ccusage blocks`, its tokens kind by kind and its cost within 2%', () => {
    const theirs = ccusageBlocks(join(FIXTURES, 'claude-code'));
    const mine = ourBlocks(db);
    expect(theirs.length).toBe(7);
    expect(mine.map((b) => [b.key, b.start, b.end, b.actual_end, b.gap])).toEqual(theirs.map((t) => [t.id, t.startTime, t.endTime, t.actualEndTime, t.isGap]));
    theirs.forEach((t, i) => {
      const o = mine[i]!;
      let kinds = theirKinds(t);
      let usd = t.costUSD;
      let entries = t.entries;
      let models = t.models;
      if (t.id === PROGRESS_BLOCK) {
        expect(models, 'ccusage blocks still drop the progress-only calls').not.toContain(progress.model);
        kinds = kinds.map((k, j) => k + PROGRESS_KINDS[j]!) as Kinds;
        usd += PROGRESS_USD;
        entries += 5;
        models = [...models, progress.model];
      }
      expect(ourKinds(o), t.id).toEqual(kinds);
      expect(o.tokens.total, t.id).toBe(kinds.reduce((a, b) => a + b, 0));
      expect(o.calls, t.id).toBe(entries);
      expect([...o.models].sort(), t.id).toEqual([...models].sort());
      if (t.isGap) expect(o.cost_usd, t.id).toBe(0);
      else within2Percent(o.cost_usd!, usd, t.id);
      // Neither is active: the transcripts are months old.
      expect([o.active, t.isActive, o.projection, t.projection], t.id).toEqual([false, false, null, null]);
    });
  });

  it('keeps the windows that start within --since/--until and orders them with --order, as ccusage does', () => {
    for (const extra of [['--since', '20250907'], ['--until', '20250907'], ['--since', '20260211'], ['--order', 'desc'], ['--since', '20250907', '--timezone', 'Asia/Tokyo']]) {
      const theirs = ccusageBlocks(join(FIXTURES, 'claude-code'), extra).map((t) => t.id);
      expect(ourBlocks(db, extra).map((b) => b.key), extra.join(' ')).toEqual(theirs);
    }
  });
});

/**
 * A copy of the Claude Code transcripts with every timestamp moved by whole hours (so windows keep
 * their shape) to put the last call less than an hour before now: its window is open.
 */
function movedToNow(): { dir: string; shiftMs: number } {
  const dir = copyFixture('claude-code');
  const lastCall = Date.parse('2026-02-11T22:54:29.802Z');
  const shiftMs = Math.floor((Date.now() - lastCall) / 3_600_000) * 3_600_000;
  const files = (folder: string): string[] =>
    readdirSync(folder).flatMap((name) => {
      const path = join(folder, name);
      return statSync(path).isDirectory() ? files(path) : name.endsWith('.jsonl') ? [path] : [];
    });
  for (const file of files(join(dir, 'projects'))) {
    const text = readFileSync(file, 'utf8').replace(/"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z)"/g, (_m, iso: string) => JSON.stringify(new Date(Date.parse(iso) + shiftMs).toISOString()));
    writeFileSync(file, text);
  }
  return { dir, shiftMs };
}

describe('the active window vs ccusage 20 blocks --active', () => {
  it('is the same window with the same burn rate, and a projection between ours just before and just after ccusage ran', () => {
    const { dir } = movedToNow();
    const db = ingest(dir);
    const before = new Date().toISOString();
    const [theirs, ...more] = ccusageBlocks(dir, ['--active']);
    const after = new Date().toISOString();
    expect(more).toEqual([]);
    const [early] = ourBlocks(db, ['--active', '--now', before]);
    const [late] = ourBlocks(db, ['--active', '--now', after]);
    for (const o of [early!, late!]) {
      expect([o.key, o.end, o.actual_end, o.active]).toEqual([theirs!.id, theirs!.endTime, theirs!.actualEndTime, true]);
      expect(ourKinds(o)).toEqual(theirKinds(theirs!));
      expect(o.burn_rate!.tokens_per_minute).toBeCloseTo(theirs!.burnRate!.tokensPerMinute, 6);
      expect(o.burn_rate!.tokens_per_minute_for_indicator).toBeCloseTo(theirs!.burnRate!.tokensPerMinuteForIndicator, 6);
      within2Percent(o.burn_rate!.cost_per_hour!, theirs!.burnRate!.costPerHour, 'cost per hour');
    }
    // The projection falls as now moves on: ccusage's, taken between the two, lies between ours.
    const p = theirs!.projection!;
    expect(p.remainingMinutes).toBeGreaterThanOrEqual(late!.projection!.remaining_minutes);
    expect(p.remainingMinutes).toBeLessThanOrEqual(early!.projection!.remaining_minutes);
    expect(p.totalTokens).toBeGreaterThanOrEqual(late!.projection!.total_tokens);
    expect(p.totalTokens).toBeLessThanOrEqual(early!.projection!.total_tokens);
    expect(p.totalCost).toBeGreaterThanOrEqual(0.98 * late!.projection!.cost_usd! - 0.01);
    expect(p.totalCost).toBeLessThanOrEqual(1.02 * early!.projection!.cost_usd! + 0.01);
  });
});
