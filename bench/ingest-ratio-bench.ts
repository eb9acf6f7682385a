// Issue 17 target 1: ingest at half of bare parsing or better, for every format, peak RSS under
// 300 MB. For each format's generated corpus (cached under WORK): the bare read + JSON.parse of
// every record (format-ingest-bench.ts's bareParseAny) and a first ingest into a fresh SQLite file
// in a child process (its own peak RSS), alternated for BENCH_INGEST_ROUNDS rounds (default 2);
// the best of each is kept, since this machine kind is shared and a slow round says more about
// the neighbours than about the code. BENCH_BEFORE_DIST (another build's dist folder, e.g. the
// commit before a change) adds that build's ingest to every round, for a before/after in one run.
//
// Usage: node dist/bench/ingest-ratio-bench.js [WORK]   (BENCH_INGEST_MB scales the corpora, default 100)

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Figure } from './figure.js';
import { bareParseAny } from './format-ingest-bench.js';
import { ingestFloor } from './ingest-floor.js';
import { generateAmplifier } from './generators/amplifier.js';
import { generateClaudeCode } from './generators/claude-code.js';
import { generateCodex } from './generators/codex.js';
import { generateControlPlane } from './generators/control-plane.js';
import { generateGemini } from './generators/gemini.js';
import { generateOpenCode } from './generators/opencode.js';

const MB = Number(process.env.BENCH_INGEST_MB ?? 100);
const ROUNDS = Number(process.env.BENCH_INGEST_ROUNDS ?? 2);

interface Corpus {
  format: string;
  make(dir: string): unknown;
}

// Sizes relative to MB: the smaller formats' generators write fewer bytes per session.
const CORPORA: Corpus[] = [
  { format: 'claude-code', make: (dir) => generateClaudeCode(dir, { targetBytes: MB * 1e6, seed: 1 }) },
  { format: 'control-plane', make: (dir) => generateControlPlane(dir, { sessions: Math.max(20, Math.round(MB * 2)), seed: 1, targetBytes: MB * 1e6 }) },
  { format: 'amplifier', make: (dir) => generateAmplifier(dir, { targetBytes: MB * 0.3e6, seed: 1 }) },
  { format: 'codex', make: (dir) => generateCodex(dir, { sessions: Math.round(MB * 3), seed: 13 }) },
  { format: 'gemini', make: (dir) => generateGemini(dir, { sessions: Math.round(MB * 3), seed: 13 }) },
  { format: 'opencode', make: (dir) => generateOpenCode(dir, { seed: 13, targetBytes: MB * 0.4e6, layout: 'db' }) },
];

interface ChildRun {
  seconds: number;
  events: number;
  maxRssBytes: number;
}

function ingestChild(dist: string, db: string, path: string): ChildRun {
  for (const suffix of ['', '-wal', '-shm', '.ingest-lock']) rmSync(db + suffix, { force: true });
  const res = spawnSync(process.execPath, [join(dist, 'bench', 'ingest-child.js'), db, path], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  if (res.status !== 0) throw new Error(`ingest of ${path} failed: ${res.stderr}`);
  return JSON.parse(res.stdout.trim().split('\n').pop()!) as ChildRun;
}

function corpus(work: string, c: Corpus): string {
  const dir = join(work, `ingest-${c.format}-${MB}mb`);
  const marker = join(dir, '.complete');
  if (!existsSync(marker)) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(marker, JSON.stringify(c.make(dir)));
  }
  return dir;
}

const best = <T>(runs: T[], key: (r: T) => number): T => runs.reduce((a, b) => (key(b) < key(a) ? b : a));

/** `dist`: the build to measure (the folder holding bench/ingest-child.js); `before`: another build to compare. */
export async function measureIngestRatio(work: string, dist = resolve(import.meta.dirname, '..'), before = process.env.BENCH_BEFORE_DIST): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const c of CORPORA) {
    const dir = corpus(work, c);
    const bare: ReturnType<typeof bareParseAny>[] = [];
    const after: ChildRun[] = [];
    const old: ChildRun[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      bare.push(bareParseAny(dir));
      after.push(ingestChild(dist, join(work, `ingest-${c.format}.db`), dir));
      if (before) old.push(ingestChild(resolve(before), join(work, `ingest-${c.format}-before.db`), dir));
    }
    const base = best(bare, (r) => r.seconds);
    const run = best(after, (r) => r.seconds);
    const baseMBs = base.bytes / 1e6 / base.seconds;
    const mbs = base.bytes / 1e6 / run.seconds;
    const note = `${(base.bytes / 1e6).toFixed(1)} MB, ${base.records} records, ${run.events} events; best of ${ROUNDS}`;
    figures.push({
      figure: `${c.format}.ingest_vs_bare_parse`,
      value: +mbs.toFixed(1),
      unit: 'MB/s',
      baseline: +baseMBs.toFixed(1),
      baseline_unit: 'MB/s (bare read + JSON.parse of every record, same run)',
      ratio: +(mbs / baseMBs).toFixed(3),
      target: '>= 0.5 (issue 17)',
      note,
    });
    // What no ingest of this store's content could beat on two cores (ingest-floor.ts).
    const floor = await ingestFloor(join(work, `ingest-${c.format}.db`), join(work, 'ingest-floor-scratch.db'));
    const floorSeconds = base.seconds + floor.compressSeconds + floor.hashSeconds + floor.rowsSeconds;
    figures.push({
      figure: `${c.format}.ingest_ratio_ceiling`,
      value: +((2 * base.seconds) / floorSeconds).toFixed(3),
      unit: 'ratio to bare parse (best any ingest could reach on 2 cores)',
      target: '>= 0.5 needed for target 1 to be reachable at all',
      note:
        `floor ${floorSeconds.toFixed(2)} s of CPU on one thread: bare parse ${base.seconds.toFixed(2)} s, ` +
        `compress ${floor.blocks} evidence blocks ${floor.compressSeconds.toFixed(2)} s, line hashes ${floor.hashSeconds.toFixed(2)} s, ` +
        `${floor.rows} event rows ${floor.rowsSeconds.toFixed(2)} s (search-index rows, summaries and format checks left out); ` +
        `this ingest: ${run.seconds.toFixed(2)} s wall`,
    });
    figures.push({ figure: `${c.format}.ingest_peak_rss`, value: +(Math.max(...after.map((r) => r.maxRssBytes)) / 1e6).toFixed(1), unit: 'MB', target: '< 300' });
    if (before) {
      const prev = best(old, (r) => r.seconds);
      const prevMBs = base.bytes / 1e6 / prev.seconds;
      figures.push({
        figure: `${c.format}.ingest_before_change`,
        value: +prevMBs.toFixed(1),
        unit: 'MB/s',
        baseline: +baseMBs.toFixed(1),
        baseline_unit: 'MB/s (bare parse, same run)',
        ratio: +(prevMBs / baseMBs).toFixed(3),
        note: `peak RSS ${(Math.max(...old.map((r) => r.maxRssBytes)) / 1e6).toFixed(1)} MB`,
      });
    }
  }
  return figures;
}

if (process.argv[1]?.endsWith('ingest-ratio-bench.js')) {
  const work = resolve(process.argv[2] ?? join(import.meta.dirname, '..', '..', '.bench'));
  mkdirSync(work, { recursive: true });
  console.log(JSON.stringify(await measureIngestRatio(work), null, 1));
}
