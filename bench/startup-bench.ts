// Start-up of the built `hindsight` command against a bare `node -e 0` measured in the same run:
// `--help`, `tools` and a SQLite `tool list_sessions '{}'` should each stay within 2× of it (each
// command loads only the engines and surfaces it uses; src/surfaces/cli/main.ts).
// Runs are interleaved (baseline, then each command, round after round) so a machine that gets
// busier or quieter during the run moves the baseline and the commands together.
// Alone: `node dist/bench/startup-bench.js [DB]` (BENCH_STARTUP_RUNS, default 15) prints its figures.
// On the fixture store, list_sessions answers with titles that hold URLs but no secret, so its
// redaction runs without loading secretlint's preset (src/core/redact.ts, loadRules); a store whose
// titles hold credentials pays ~10–20 ms more, once, for the preset.

import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Figure } from './figure.js';
import { percentile } from './measure.js';

const REPO = resolve(import.meta.dirname, '..', '..');
const BIN = join(REPO, 'bin', 'hindsight');

interface Probe {
  name: string;
  /** The command line as a reader would type it. */
  label: string;
  args: string[];
}

/** Wall-clock milliseconds of one run of `node ARGS`; a failing run stops the bench (a broken build is not fast). */
function timeRun(args: string[]): number {
  const t0 = performance.now();
  const res = spawnSync(process.execPath, args, { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 16 * 1024 * 1024 });
  const ms = performance.now() - t0;
  if (res.status !== 0) throw new Error(`startup bench: node ${args.join(' ')} exited ${res.status}: ${res.stderr.slice(0, 500)}`);
  return ms;
}

/**
 * Median and p95 start-up (ms) of each command and of `node -e 0`, `runs` interleaved rounds after
 * one warm-up round. `db` is the SQLite store `tool list_sessions` reads.
 */
export function measureStartup(db: string, runs = Number(process.env.BENCH_STARTUP_RUNS ?? 15)): Figure[] {
  const baseline: Probe = { name: 'node_e_0', label: 'node -e 0', args: ['-e', '0'] };
  const probes: Probe[] = [
    { name: 'help', label: 'hindsight --help', args: [BIN, '--help'] },
    { name: 'tools', label: 'hindsight tools', args: [BIN, 'tools'] },
    { name: 'tool_list_sessions_sqlite', label: "hindsight tool list_sessions '{}' (SQLite)", args: [BIN, 'tool', 'list_sessions', '{}', '--db', db] },
  ];
  const all = [baseline, ...probes];
  const times = new Map<string, number[]>(all.map((p) => [p.name, []]));
  for (let round = -1; round < runs; round++) {
    for (const p of all) {
      const ms = timeRun(p.args);
      if (round >= 0) times.get(p.name)!.push(ms);
    }
  }
  const stats = (name: string) => {
    const sorted = times.get(name)!.sort((a, b) => a - b);
    return { p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
  };
  const base = stats(baseline.name);
  const figures: Figure[] = [
    { figure: 'startup.node_e_0', value: +base.p50.toFixed(1), unit: 'ms (median)', p95: +base.p95.toFixed(1), note: `${runs} runs, interleaved with the commands below` },
  ];
  for (const p of probes) {
    const s = stats(p.name);
    figures.push({
      figure: `startup.${p.name}`,
      value: +s.p50.toFixed(1),
      unit: 'ms (median)',
      p95: +s.p95.toFixed(1),
      baseline: +base.p50.toFixed(1),
      baseline_unit: 'ms median of `node -e 0`, same run',
      ratio: +(s.p50 / base.p50).toFixed(2),
      target: '<= 2',
      note: p.label,
    });
  }
  return figures;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { fixtureStore } = await import('./fixture-store.js');
  const db = process.argv[2] ?? (await fixtureStore());
  process.stdout.write(`${JSON.stringify({ machine: { node: process.version }, figures: measureStartup(db) }, null, 2)}\n`);
}
