// First-run usage (issue 17, target 2): `hindsight usage daily --json` on a machine where nothing
// was ingested (a fresh default store, CLAUDE_CONFIG_DIR at the corpus) against ccusage 20 on the
// same files in the same run, then the warm run (the store up to date: the stamp of the last
// refresh still holds, so no ingest runs at all) against ccusage again. The first run answers
// from the usage pass (on both cores) and
// then ingests before it exits: both times are reported, the answer's (stdout complete) and the
// exit's. Its answer is checked against the warm run's (the numbers a full ingest gives).
//
// Then every grouping warm (issue 17, target 3): daily, weekly, monthly, session and blocks, each
// with and without --breakdown, against ccusage's same report (`ccusage GROUP --json --offline`;
// with --breakdown, `ccusage claude GROUP --breakdown`, since ccusage 20's all-agent reports have
// no breakdown), interleaved round by round (ours, the build of BENCH_BEFORE_BIN if given,
// ccusage), medians of the exit times.
//
// Run after a build: node dist/bench/first-run-bench.js [CONFIG_DIR]
// Without CONFIG_DIR a corpus of BENCH_FIRST_RUN_MB (default 300) MB is generated (seed 1).
// BENCH_HOME: a home whose default store an earlier first run made (kept, not removed): the first
//   run is skipped and only the warm groupings are measured.
// BENCH_WARM_ROUNDS: rounds of the warm groupings (default 3 with BENCH_HOME, else 0: none).
// BENCH_WARM_GROUPS: the groupings to measure, comma-separated (default all five).
// BENCH_BEFORE_BIN: another build's bin/hindsight (e.g. HEAD's), timed in the same rounds.
// BENCH_BEFORE_HOME: the home that build reads (default BENCH_HOME's). Needed when this build's
//   store schema is newer: it migrates the store on open, and an older build then refuses it.

import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { generateClaudeCode } from './generators/claude-code.js';

const REPO = resolve(import.meta.dirname, '..', '..');
const BIN = join(REPO, 'bin', 'hindsight');
const CCUSAGE = join(REPO, 'node_modules', '.bin', 'ccusage');

interface Timed {
  answerS: number;
  exitS: number;
  stdout: string;
}

/** Run a command; the answer time is when stdout first holds a whole JSON document, the exit time when the process ends. */
function timed(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<Timed> {
  return new Promise((done, fail) => {
    const started = process.hrtime.bigint();
    const since = () => Number(process.hrtime.bigint() - started) / 1e9;
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let answerS: number | null = null;
    child.stdout.on('data', (b: Buffer) => {
      stdout += b.toString('utf8');
      if (answerS !== null) return;
      try {
        JSON.parse(stdout);
        answerS = since();
      } catch {
        /* not whole yet */
      }
    });
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString('utf8')));
    child.on('exit', (code) => {
      const exitS = since();
      if (code !== 0) fail(new Error(`${cmd} ${args.join(' ')} exited ${code}: ${stderr.slice(0, 400)}`));
      else done({ answerS: answerS ?? exitS, exitS, stdout });
    });
  });
}

/** Days as [day, input, output, cache write, cache read, cost rounded to the cent]. */
function ourDays(json: string): unknown[] {
  const rows = (JSON.parse(json) as { rows: { key: string; tokens: Record<string, number>; cost_usd: number }[] }).rows;
  return rows.map((r) => [r.key, r.tokens.input, r.tokens.output, r.tokens.cache_write, r.tokens.cache_read, Math.round(r.cost_usd * 100)]);
}
function theirDays(json: string): unknown[] {
  const rows = (JSON.parse(json) as { daily: Record<string, number | string>[] }).daily;
  return rows.map((r) => [r.period ?? r.date, r.inputTokens, r.outputTokens, r.cacheCreationTokens, r.cacheReadTokens, Math.round((r.totalCost as number) * 100)]);
}

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const ratio = (a: number, b: number) => +(a / b).toFixed(2);

const GROUPINGS = ['daily', 'weekly', 'monthly', 'session', 'blocks'];

interface WarmCase {
  name: string;
  ours: string[];
  theirs: string[];
}

/** Each grouping with and without --breakdown, as our command line and ccusage's same report. */
function warmCases(groups: readonly string[]): WarmCase[] {
  return groups.flatMap((g) => [
    { name: g, ours: ['usage', g, '--json'], theirs: [g, '--json', '--offline'] },
    {
      name: `${g} --breakdown`,
      ours: ['usage', g, '--json', '--breakdown'],
      // ccusage 20's all-agent daily/weekly/monthly/session reports have no --breakdown; its Claude Code ones do.
      theirs: g === 'blocks' ? [g, '--json', '--offline', '--breakdown'] : ['claude', g, '--json', '--offline', '--breakdown'],
    },
  ]);
}

interface WarmFigure {
  report: string;
  ours_s: number;
  before_s?: number;
  ccusage_s: number;
  /** ccusage's time over ours: how many times faster ours is (target ≥ 4). */
  times_faster: number;
  before_times_faster?: number;
}

/** Every case, `rounds` times, interleaved: ours, before (if given), ccusage; medians of the exit times. */
async function warmGroupings(cases: readonly WarmCase[], rounds: number, env: NodeJS.ProcessEnv, before: string | undefined, beforeEnv = env): Promise<WarmFigure[]> {
  const times = cases.map(() => ({ ours: [] as number[], before: [] as number[], theirs: [] as number[] }));
  for (let r = 0; r < rounds; r++) {
    for (const [i, c] of cases.entries()) {
      times[i]!.ours.push((await timed(process.execPath, [BIN, ...c.ours], env)).exitS);
      if (before) times[i]!.before.push((await timed(process.execPath, [before, ...c.ours], beforeEnv)).exitS);
      times[i]!.theirs.push((await timed(CCUSAGE, c.theirs, env)).exitS);
    }
    process.stderr.write(`warm round ${r + 1}/${rounds} done\n`);
  }
  return cases.map((c, i) => {
    const t = times[i]!;
    const ours = median(t.ours);
    const theirs = median(t.theirs);
    const figure: WarmFigure = { report: c.name, ours_s: +ours.toFixed(3), ccusage_s: +theirs.toFixed(3), times_faster: ratio(theirs, ours) };
    if (before) {
      figure.before_s = +median(t.before).toFixed(3);
      figure.before_times_faster = ratio(theirs, median(t.before));
    }
    return figure;
  });
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'hs-first-run-'));
  let config = process.argv[2];
  if (!config) {
    const mb = Number(process.env.BENCH_FIRST_RUN_MB ?? 300);
    config = join(work, 'claude');
    const t = Date.now();
    const stats = generateClaudeCode(config, { targetBytes: mb * 1e6, seed: 1 });
    process.stderr.write(`generated ${(stats.bytes / 1e6).toFixed(0)} MB in ${((Date.now() - t) / 1000).toFixed(1)} s\n`);
  }
  const given = process.env.BENCH_HOME;
  const home = given ? resolve(given) : join(work, 'home');
  // A machine with no store and no other agent's logs: HOME and XDG_DATA_HOME are empty folders.
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_DATA_HOME: join(home, 'data'), CLAUDE_CONFIG_DIR: config, TZ: 'UTC' };
  delete env.HINDSIGHT_DB;
  for (const k of ['CODEX_HOME', 'GEMINI_DATA_DIR', 'OPENCODE_DATA_DIR']) delete env[k];
  mkdirSync(home, { recursive: true });
  // Without BENCH_HOME the bench stays target 2's (the first run), unless rounds are asked for.
  const rounds = Number(process.env.BENCH_WARM_ROUNDS ?? (given ? 3 : 0));
  const groups = process.env.BENCH_WARM_GROUPS ? process.env.BENCH_WARM_GROUPS.split(',').map((g) => g.trim()) : GROUPINGS;
  const before = process.env.BENCH_BEFORE_BIN ? resolve(process.env.BENCH_BEFORE_BIN) : undefined;
  let figures: Record<string, unknown> = { corpus: config };
  if (!given) figures = { ...figures, ...(await firstRun(env)) };
  if (rounds > 0) {
    const beforeHome = process.env.BENCH_BEFORE_HOME ? resolve(process.env.BENCH_BEFORE_HOME) : undefined;
    const beforeEnv = beforeHome ? { ...env, HOME: beforeHome, XDG_DATA_HOME: join(beforeHome, 'data') } : env;
    const warm = await warmGroupings(warmCases(groups), rounds, env, before, beforeEnv);
    figures.warm_rounds = rounds;
    figures.warm = warm;
    process.stderr.write(`${warmTable(warm)}\n`);
  }
  process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
  // Everything the bench made is under `work`: a generated corpus and, without BENCH_HOME, the home.
  rmSync(work, { recursive: true, force: true });
}

/** The warm figures as a Markdown table. */
function warmTable(warm: readonly WarmFigure[]): string {
  const withBefore = warm.some((w) => w.before_s !== undefined);
  const head = withBefore ? '| report | ours | before | ccusage 20 | ours: × faster | before: × faster |' : '| report | ours | ccusage 20 | × faster |';
  const rows = warm.map((w) =>
    withBefore
      ? `| ${w.report} | ${w.ours_s.toFixed(2)} s | ${w.before_s!.toFixed(2)} s | ${w.ccusage_s.toFixed(2)} s | ${w.times_faster} | ${w.before_times_faster} |`
      : `| ${w.report} | ${w.ours_s.toFixed(2)} s | ${w.ccusage_s.toFixed(2)} s | ${w.times_faster} |`,
  );
  return [head, head.replace(/[^|]+/g, '---'), ...rows].join('\n');
}

/** The first run against ccusage, then the warm daily report against ccusage again (target 2's figures). */
async function firstRun(env: NodeJS.ProcessEnv): Promise<Record<string, unknown>> {
  const ccusage = () => timed(CCUSAGE, ['daily', '--json', '--offline'], env);
  const ours = () => timed(process.execPath, [BIN, 'usage', 'daily', '--json'], env);

  const ccFirst = await ccusage();
  const first = await ours();
  const ccWarm = await ccusage();
  const warm = [await ours(), await ours(), await ours()].sort((a, b) => a.exitS - b.exitS)[1]!;

  const same = JSON.stringify(JSON.parse(first.stdout).rows) === JSON.stringify(JSON.parse(warm.stdout).rows);
  const asCcusage = JSON.stringify(ourDays(first.stdout)) === JSON.stringify(theirDays(ccFirst.stdout));
  return {
    ccusage_s: +ccFirst.exitS.toFixed(2),
    first_answer_s: +first.answerS.toFixed(2),
    first_answer_ratio: ratio(first.answerS, ccFirst.exitS),
    first_exit_s: +first.exitS.toFixed(2),
    first_exit_ratio: ratio(first.exitS, ccFirst.exitS),
    ccusage_again_s: +ccWarm.exitS.toFixed(2),
    warm_s: +warm.exitS.toFixed(2),
    warm_ratio: ratio(warm.exitS, ccWarm.exitS),
    first_answer_equals_full_ingest: same,
    days_equal_ccusage: asCcusage,
  };
}

await main();
