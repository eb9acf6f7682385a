// grep_jsonl against ripgrep on the same files (issue 12, item 5): a pathological pattern (a
// 64-character hex run then `x`, which sent V8 into its slow linear fallback for ~10 s per 2.6 MB)
// and a normal one, on a real 2.6 MB Amplifier events ledger and on a ~100 MB generated Control
// Plane ledger. The baseline is `rg -n` when installed, else `grep -En` (the figure says which),
// run as a process on the very files that were ingested. Hindsight's time is one grep_jsonl call
// in-process (the search worker already warm), read live and from the evidence.
// Standalone: node dist/bench/grep-bench.js [WORK_DIR]

import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ingestPaths } from '../src/ingest/ingest.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { grepJsonl } from '../src/tools/grep-jsonl/index.js';
import { runTool } from '../src/tools/tool.js';
import type { Figure } from './figure.js';
import { generateControlPlane } from './generators/control-plane.js';

const PATTERNS = { pathological: '[0-9a-f]{64}x', normal: '"[a-z_]+": "[^"]*[Ee]rror' } as const;
const REAL_SESSION = 'c37652eb-ec4c-4cb5-9d3e-f0b1445ac643';

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** ripgrep when installed, else GNU grep -E: the tool, its median time and its match count. */
function baseline(pattern: string, files: string[], runs: number): { tool: string; ms: number; matches: number } {
  const tool = spawnSync('rg', ['--version']).status === 0 ? 'rg' : 'grep';
  const args = tool === 'rg' ? ['-n', '--no-heading', '--', pattern, ...files] : ['-En', '--', pattern, ...files];
  const ms: number[] = [];
  let matches = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const res = spawnSync(tool, args, { encoding: 'utf8', maxBuffer: 1 << 30 });
    ms.push(performance.now() - t0);
    matches = res.stdout.split('\n').filter(Boolean).length;
  }
  return { tool: tool === 'rg' ? 'rg -n' : 'grep -En', ms: median(ms), matches };
}

async function hindsight(store: SqliteStore, args: Record<string, unknown>, runs: number): Promise<{ ms: number; count: number; engine: string; truncated: unknown }> {
  const ms: number[] = [];
  let r: Record<string, any> = {};
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    r = (await runTool(grepJsonl, { ...args, timeout_ms: 600_000, limit: 500, max_bytes: 10_000_000 }, { store })) as Record<string, any>;
    ms.push(performance.now() - t0);
    if (r.status !== 'ok') throw new Error(`grep_jsonl failed: ${JSON.stringify(r)}`);
  }
  return { ms: median(ms), count: r.count, engine: r.engine, truncated: r.truncated };
}

async function compare(name: string, store: SqliteStore, args: Record<string, unknown>, files: string[], runs: number): Promise<Figure[]> {
  const bytes = files.reduce((n, f) => n + statSync(f).size, 0);
  const figures: Figure[] = [];
  for (const [kind, pattern] of Object.entries(PATTERNS)) {
    const base = baseline(pattern, files, runs);
    for (const readFrom of ['auto', 'evidence'] as const) {
      const h = await hindsight(store, { ...args, pattern, read_from: readFrom }, runs);
      figures.push({
        figure: `${name}.grep_${kind}${readFrom === 'evidence' ? '_from_evidence' : ''}`,
        value: +h.ms.toFixed(1),
        unit: 'ms',
        baseline: +base.ms.toFixed(1),
        baseline_unit: `ms (${base.tool}, same files, ${(bytes / 1e6).toFixed(1)} MB)`,
        ratio: +(h.ms / base.ms).toFixed(2),
        note: `pattern ${pattern}; engine ${h.engine}; ${h.count} matches (baseline ${base.matches})${h.truncated ? `; truncated ${String(h.truncated)}` : ''}`,
      });
    }
  }
  return figures;
}

/** The figures; `fixtures` is the shared fixtures folder (for the real ledger). */
export async function measureGrep(work: string, fixtures: string, corpusMb = Number(process.env.BENCH_GREP_MB ?? 100)): Promise<Figure[]> {
  mkdirSync(work, { recursive: true });
  const figures: Figure[] = [];

  const real = join(work, 'grep-real');
  rmSync(real, { recursive: true, force: true });
  cpSync(join(fixtures, 'amplifier', 'real'), real, { recursive: true });
  const realStore = new SqliteStore(join(real, 'h.db'));
  await ingestPaths(realStore, [join(real, 'projects')]);
  const events = join(real, 'projects', '-workspace', 'sessions', REAL_SESSION, 'events.jsonl');
  figures.push(...(await compare('real-amplifier-events', realStore, { session_id: REAL_SESSION, ledger: 'events' }, [events], 5)));
  await realStore.close();

  const dir = join(work, `grep-control-plane-${corpusMb}mb`);
  if (!existsSync(join(dir, '.complete'))) {
    rmSync(dir, { recursive: true, force: true });
    generateControlPlane(dir, { sessions: Math.max(20, corpusMb * 2), seed: 5, targetBytes: corpusMb * 1e6 });
    spawnSync('touch', [join(dir, '.complete')]);
  }
  const db = join(work, `grep-control-plane-${corpusMb}mb.db`);
  for (const suffix of ['', '-wal', '-shm', '.ingest-lock']) rmSync(db + suffix, { force: true });
  const store = new SqliteStore(db);
  await ingestPaths(store, [dir]);
  const ledgers = await store.rootLedgers(resolve(dir));
  const size = (l: (typeof ledgers)[number]) => l.files.reduce((n, f) => n + f.size, 0);
  const largest = [...ledgers].sort((a, b) => size(b) - size(a))[0]!;
  const files = largest.files.filter((f) => !f.superseded).map((f) => f.path);
  figures.push(...(await compare(`generated-control-plane-${corpusMb}mb-${largest.ledger}`, store, { ledger: largest.ledger, root: resolve(dir) }, files, 3)));
  await store.close();
  return figures;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const repo = resolve(import.meta.dirname, '..', '..');
  const figures = await measureGrep(process.argv[2] ?? join(repo, '.bench'), join(repo, '..', 'shared', 'fixtures'));
  process.stdout.write(`${JSON.stringify({ machine: { node: process.version }, figures }, null, 2)}\n`);
}
