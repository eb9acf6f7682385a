// First-run usage (issue 17, target 2): `hindsight usage daily --json` on a machine where nothing
// was ingested (a fresh default store, CLAUDE_CONFIG_DIR at the corpus) against ccusage 20 on the
// same files in the same run, then the warm run (the store up to date: the stamp of the last
// refresh still holds, so no ingest runs at all) against ccusage again. The first run answers
// from the usage pass (on both cores) and
// then ingests before it exits: both times are reported, the answer's (stdout complete) and the
// exit's. Its answer is checked against the warm run's (the numbers a full ingest gives).
//
// Run after a build: node dist/bench/first-run-bench.js [CONFIG_DIR]
// Without CONFIG_DIR a corpus of BENCH_FIRST_RUN_MB (default 300) MB is generated (seed 1).

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
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
  const home = join(work, 'home');
  // A machine with no store and no other agent's logs: HOME and XDG_DATA_HOME are empty folders.
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_DATA_HOME: join(home, 'data'), CLAUDE_CONFIG_DIR: config, TZ: 'UTC' };
  delete env.HINDSIGHT_DB;
  for (const k of ['CODEX_HOME', 'GEMINI_DATA_DIR', 'OPENCODE_DATA_DIR']) delete env[k];
  spawnSync('mkdir', ['-p', home]);

  const ccusage = () => timed(CCUSAGE, ['daily', '--json', '--offline'], env);
  const ours = () => timed(process.execPath, [BIN, 'usage', 'daily', '--json'], env);

  const ccFirst = await ccusage();
  const first = await ours();
  const ccWarm = await ccusage();
  const warm = [await ours(), await ours(), await ours()].sort((a, b) => a.exitS - b.exitS)[1]!;

  const same = JSON.stringify(JSON.parse(first.stdout).rows) === JSON.stringify(JSON.parse(warm.stdout).rows);
  const asCcusage = JSON.stringify(ourDays(first.stdout)) === JSON.stringify(theirDays(ccFirst.stdout));
  const ratio = (a: number, b: number) => +(a / b).toFixed(2);
  const figures = {
    corpus: config,
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
  process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
  if (!process.argv[2] && existsSync(work)) rmSync(work, { recursive: true, force: true });
  else rmSync(home, { recursive: true, force: true });
}

await main();
