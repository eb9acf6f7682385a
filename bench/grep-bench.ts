// grep_jsonl against ripgrep on the same bytes (issue 12 item 5, issue 17 target 7: within 3× of
// rg for literal and common patterns, live and from the evidence). Cases, on each corpus:
// - literal_rare: an id that occurs a few times (picked from the corpus: the first UUID, else
//   Control Plane entry id, after the middle of its largest file), literal_common: the word `error`;
// - regex_common: a regex with a good literal every match holds (per corpus), and ignore_case:
//   `ERROR` ignoring case;
// - on the ledgers, also the earlier pathological pattern (a 64-character hex run then `x`,
//   which sent V8 into its slow linear fallback) and a normal one.
// Corpora: the real 2.6 MB Amplifier events ledger, the largest ledger of a generated ~100 MB
// Control Plane root, and (when BENCH_GREP_CC names a Claude Code config folder and
// BENCH_GREP_CC_DB its ingested store, opened read-only) every session of a big Claude Code
// corpus (scope all). The baseline is `rg -n` when installed, else `grep -En` (the figure says
// which), run as a process on the very files that were ingested. Hindsight's time is one
// grep_jsonl call in-process (the search workers already warm), read live and from the
// evidence. Rounds are interleaved (rg, live, evidence, rg, …) so load on a shared machine hits
// all three alike; the figures are medians, of wall time and of CPU time (Hindsight's process,
// its search workers included; rg's from its rusage), with the load average.
// To keep a run short: BENCH_GREP_ROUNDS (rounds per case, default 5 on the real ledger, 3
// elsewhere), BENCH_GREP_CASES (case kinds, comma-separated: literal_rare, literal_common,
// regex_common, ignore_case, pathological, normal), BENCH_GREP_CORPORA (real, control-plane,
// claude-code).
// Standalone: node dist/bench/grep-bench.js [WORK_DIR]

import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { closeSync, cpSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ingestPaths } from '../src/ingest/ingest.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { grepJsonl } from '../src/tools/grep-jsonl/index.js';
import { runTool } from '../src/tools/tool.js';
import type { Figure } from './figure.js';
import { generateControlPlane } from './generators/control-plane.js';

const LEDGER_PATTERNS = { pathological: '[0-9a-f]{64}x', normal: '"[a-z_]+": "[^"]*[Ee]rror' } as const;
const REAL_SESSION = 'c37652eb-ec4c-4cb5-9d3e-f0b1445ac643';
/** Ids to pick a rare one from: a UUID (sessions, messages), else a ledger entry id (`LED-20cc96f0`). */
const IDS = [/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/, /LED-[0-9a-f]{8}/];

interface Case {
  kind: string;
  pattern: string;
  ignoreCase?: boolean;
}

const ROUNDS = process.env.BENCH_GREP_ROUNDS ? Number(process.env.BENCH_GREP_ROUNDS) : null;
const CASES = process.env.BENCH_GREP_CASES?.split(',').filter(Boolean) ?? null;
const CORPORA = process.env.BENCH_GREP_CORPORA?.split(',').filter(Boolean) ?? null;
const wanted = (corpus: string) => CORPORA === null || CORPORA.includes(corpus);

/** CPU time (ms) of this process's waited-for children, from /proc (Linux), else null. */
function childrenCpuMs(): number | null {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / 100; // cutime + cstime, in USER_HZ (100)
  } catch {
    return null;
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

const RG = spawnSync('rg', ['--version']).status === 0;

/**
 * One run of ripgrep (else GNU grep -E): its time and match count. Its output goes to a file, as
 * a shell redirect would: collecting tens of MB through a pipe into a JavaScript string took
 * Node longer than the search (the earlier figures' baselines were inflated by it), and
 * /dev/null would let ripgrep stop at the first match.
 */
function baselineRun(c: Case, paths: string[], outFile: string): { ms: number; cpuMs: number | null; matches: number } {
  const flags = c.ignoreCase ? ['-i'] : [];
  const args = RG ? ['-n', '--no-heading', ...flags, '--', c.pattern, ...paths] : ['-Enr', ...flags, '--', c.pattern, ...paths];
  const out = openSync(outFile, 'w');
  const cpu0 = childrenCpuMs();
  const t0 = performance.now();
  spawnSync(RG ? 'rg' : 'grep', args, { stdio: ['ignore', out, 'ignore'] });
  const ms = performance.now() - t0;
  const cpu1 = childrenCpuMs();
  closeSync(out);
  let matches = 0;
  const text = readFileSync(outFile);
  for (let at = text.indexOf(10); at !== -1; at = text.indexOf(10, at + 1)) matches++;
  return { ms, cpuMs: cpu0 === null || cpu1 === null ? null : cpu1 - cpu0, matches };
}

async function hindsightRun(store: SqliteStore, args: Record<string, unknown>): Promise<{ ms: number; cpuMs: number; count: number; engine: string; readFrom: string; truncated: unknown }> {
  const cpu0 = process.cpuUsage(); // the whole process: the search workers' threads too
  const t0 = performance.now();
  const r = (await runTool(grepJsonl, { ...args, timeout_ms: 600_000, limit: 500, max_bytes: 10_000_000 }, { store })) as Record<string, any>;
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  if (r.status !== 'ok') throw new Error(`grep_jsonl failed: ${JSON.stringify(r)}`);
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000, count: r.count, engine: r.engine, readFrom: r.read_from, truncated: r.truncated };
}

/** Each case: `runs` interleaved rounds of the baseline, Hindsight live and Hindsight from the evidence. */
async function compare(name: string, store: SqliteStore, args: Record<string, unknown>, paths: string[], bytes: number, cases: Case[], runs: number, work: string): Promise<Figure[]> {
  const figures: Figure[] = [];
  runs = ROUNDS ?? runs;
  for (const c of cases) {
    if (CASES !== null && !CASES.includes(c.kind)) continue;
    const call = { ...args, pattern: c.pattern, ignore_case: c.ignoreCase ?? false };
    await hindsightRun(store, call); // warm: the workers, the page cache
    const base: number[] = [];
    const baseCpu: number[] = [];
    const times = { auto: [] as number[], evidence: [] as number[] };
    const cpu = { auto: [] as number[], evidence: [] as number[] };
    const loads: number[] = [];
    let matches = 0;
    const last: Partial<Record<'auto' | 'evidence', Awaited<ReturnType<typeof hindsightRun>>>> = {};
    for (let i = 0; i < runs; i++) {
      const b = baselineRun(c, paths, join(work, 'grep-baseline.out'));
      base.push(b.ms);
      if (b.cpuMs !== null) baseCpu.push(b.cpuMs);
      matches = b.matches;
      for (const readFrom of ['auto', 'evidence'] as const) {
        const h = await hindsightRun(store, { ...call, read_from: readFrom });
        times[readFrom].push(h.ms);
        cpu[readFrom].push(h.cpuMs);
        last[readFrom] = h;
      }
      loads.push(loadavg()[0]!);
    }
    for (const readFrom of ['auto', 'evidence'] as const) {
      const h = last[readFrom]!;
      const ms = median(times[readFrom]);
      figures.push({
        figure: `${name}.grep_${c.kind}${readFrom === 'evidence' ? '_from_evidence' : ''}`,
        value: +ms.toFixed(1),
        unit: 'ms',
        baseline: +median(base).toFixed(1),
        baseline_unit: `ms (${RG ? 'rg -n' : 'grep -En'}${c.ignoreCase ? ' -i' : ''}, same files, ${(bytes / 1e6).toFixed(1)} MB)`,
        ratio: +(ms / median(base)).toFixed(2),
        target: c.kind === 'pathological' ? undefined : '<= 3',
        note: `pattern ${c.pattern}${c.ignoreCase ? ' (ignore_case)' : ''}; engine ${h.engine}; read ${h.readFrom}; ${h.count} matches (baseline ${matches})${h.truncated ? `; truncated ${String(h.truncated)}` : ''}; CPU ${median(cpu[readFrom]).toFixed(0)} ms${baseCpu.length ? ` (baseline ${median(baseCpu).toFixed(0)} ms)` : ''}; ${runs} rounds, load ${median(loads).toFixed(1)}`,
      });
    }
  }
  return figures;
}

/** An id that occurs a few times: the first UUID (else entry id) after the middle of the largest file. */
function rareId(paths: string[]): string {
  const largest = [...paths].sort((a, b) => statSync(b).size - statSync(a).size)[0]!;
  const text = readFileSync(largest, 'latin1');
  for (const id of IDS) {
    const found = id.exec(text.slice(text.length >> 1)) ?? id.exec(text);
    if (found) return found[0];
  }
  throw new Error(`no id in ${largest} to search for`);
}

function casesFor(paths: string[], commonRegex: string, ledger: boolean): Case[] {
  return [
    { kind: 'literal_rare', pattern: rareId(paths) },
    { kind: 'literal_common', pattern: 'error' },
    { kind: 'regex_common', pattern: commonRegex },
    { kind: 'ignore_case', pattern: 'ERROR', ignoreCase: true },
    ...(ledger ? Object.entries(LEDGER_PATTERNS).map(([kind, pattern]) => ({ kind, pattern })) : []),
  ];
}

const sizeOf = (paths: string[]) => paths.reduce((n, f) => n + statSync(f).size, 0);

/** The figures; `fixtures` is the shared fixtures folder (for the real ledger). */
export async function measureGrep(work: string, fixtures: string, corpusMb = Number(process.env.BENCH_GREP_MB ?? 100)): Promise<Figure[]> {
  mkdirSync(work, { recursive: true });
  const figures: Figure[] = [];

  if (wanted('real')) await measureReal(work, fixtures, figures);
  if (wanted('control-plane')) await measureControlPlane(work, corpusMb, figures);
  if (wanted('claude-code')) await measureClaudeCode(work, figures);
  return figures;
}

async function measureReal(work: string, fixtures: string, figures: Figure[]): Promise<void> {
  const real = join(work, 'grep-real');
  rmSync(real, { recursive: true, force: true });
  cpSync(join(fixtures, 'amplifier', 'real'), real, { recursive: true });
  const realStore = new SqliteStore(join(real, 'h.db'));
  await ingestPaths(realStore, [join(real, 'projects')]);
  const events = join(real, 'projects', '-workspace', 'sessions', REAL_SESSION, 'events.jsonl');
  const realCases = casesFor([events], '"event": "tool:[a-z_]+"', true);
  figures.push(...(await compare('real-amplifier-events', realStore, { session_id: REAL_SESSION, ledger: 'events' }, [events], sizeOf([events]), realCases, 5, work)));
  await realStore.close();
}

async function measureControlPlane(work: string, corpusMb: number, figures: Figure[]): Promise<void> {
  const dir = join(work, `grep-control-plane-${corpusMb}mb`);
  if (!existsSync(join(dir, '.complete'))) {
    rmSync(dir, { recursive: true, force: true });
    generateControlPlane(dir, { sessions: Math.max(20, corpusMb * 2), seed: 5, targetBytes: corpusMb * 1e6 });
    spawnSync('touch', [join(dir, '.complete')]);
  }
  const db = join(work, `grep-control-plane-${corpusMb}mb.db`);
  if (!existsSync(join(dir, '.ingested'))) {
    for (const suffix of ['', '-wal', '-shm', '.ingest-lock']) rmSync(db + suffix, { force: true });
    const fresh = new SqliteStore(db);
    await ingestPaths(fresh, [dir]);
    await fresh.close();
    spawnSync('touch', [join(dir, '.ingested')]);
  }
  const store = new SqliteStore(db, { readonly: true });
  const ledgers = await store.rootLedgers(resolve(dir));
  const size = (l: (typeof ledgers)[number]) => l.files.reduce((n, f) => n + f.size, 0);
  const largest = [...ledgers].sort((a, b) => size(b) - size(a))[0]!;
  const files = largest.files.filter((f) => !f.superseded).map((f) => f.path);
  const cpCases = casesFor(files, '"event_type": "[A-Z_]+"', true);
  figures.push(...(await compare(`generated-control-plane-${corpusMb}mb-${largest.ledger}`, store, { ledger: largest.ledger, root: resolve(dir) }, files, sizeOf(files), cpCases, 3, work)));
  await store.close();
}

async function measureClaudeCode(work: string, figures: Figure[]): Promise<void> {
  const ccDir = process.env.BENCH_GREP_CC;
  const ccDb = process.env.BENCH_GREP_CC_DB;
  if (ccDir && ccDb) {
    const cc = new SqliteStore(ccDb, { readonly: true });
    const projects = join(ccDir, 'projects');
    const paths = spawnSync('find', [projects, '-type', 'f'], { encoding: 'utf8', maxBuffer: 1 << 28 }).stdout.split('\n').filter(Boolean);
    const ccCases = casesFor(paths.filter((p) => p.endsWith('.jsonl')), '"name":"(Bash|Read)"', false);
    figures.push(...(await compare(`claude-code-${(sizeOf(paths) / 1e6).toFixed(0)}mb-all`, cc, { scope: 'all' }, [projects], sizeOf(paths), ccCases, 3, work)));
    await cc.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const repo = resolve(import.meta.dirname, '..', '..');
  const figures = await measureGrep(process.argv[2] ?? join(repo, '.bench'), join(repo, '..', 'shared', 'fixtures'));
  process.stdout.write(`${JSON.stringify({ machine: { node: process.version }, figures }, null, 2)}\n`);
}
