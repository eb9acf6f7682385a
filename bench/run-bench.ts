// `npm run bench`: generate the corpora (cached under .bench/), then measure ingest throughput
// against the same run's bare read + JSON.parse, peak RSS, store size, and re-ingest time.
// Prints JSON: each figure with its unit, baseline, ratio and target.
// First, start-up of the command against `node -e 0` (startup-bench.ts).
// Then the new formats' ingest throughput (format-ingest-bench.ts) and what a format and a tool
// cost in code (format-cost.ts).
// Then the forensic tools' p50/p95 latency on the ingested stores (tool-latency.ts).
// Then the analyst figures (analyst-bench.ts): usage_report vs ccusage 20, search_sessions over a
// 1 GB corpus (BENCH_SEARCH_MB), replay export sizes on the real transcripts.
// Then the surfaces: HTTP under load (http-bench.ts) and MCP over HTTP (mcp-bench.ts); then
// PostgreSQL against SQLite (postgres-bench.ts) and sync (sync-bench.ts).
// Sizes: BENCH_CC_MB (default 500) and BENCH_CP_MB (default 300). BENCH_REUSE_STORES=1 skips the
// ingest figures and measures latency on the stores of the previous run.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { generateClaudeCode } from './generators/claude-code.js';
import { generateControlPlane } from './generators/control-plane.js';
import { bareParse } from './baseline.js';
import { measureReplay, measureSearch, measureUsage } from './analyst-bench.js';
import { measureToolLatency } from './tool-latency.js';
import type { Figure } from './figure.js';
import { measureHttp } from './http-bench.js';
import { measureMcp, measureMcpTransports } from './mcp-bench.js';
import { measureMcpSize } from './mcp-size-bench.js';
import { measurePostgres } from './postgres-bench.js';
import { measureSync } from './sync-bench.js';
import { measureGrep } from './grep-bench.js';
import { measureParsers } from './parser-bench.js';
import { FIXTURE_SESSION, fixtureStore } from './fixture-store.js';
import { measureStartup } from './startup-bench.js';
import { measureNewFormats } from './format-ingest-bench.js';
import { measureFormatCost } from './format-cost.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';

const REPO = resolve(import.meta.dirname, '..', '..');
const WORK = join(REPO, '.bench');
const CC_MB = Number(process.env.BENCH_CC_MB ?? 500);
const CP_MB = Number(process.env.BENCH_CP_MB ?? 300);
const SEARCH_MB = Number(process.env.BENCH_SEARCH_MB ?? 1000);

function corpus(name: string, mb: number, make: (dir: string) => { bytes: number }): string {
  const dir = join(WORK, `${name}-${mb}mb`);
  const marker = join(dir, '.complete');
  if (!existsSync(marker)) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const started = Date.now();
    const info = make(dir);
    writeFileSync(marker, JSON.stringify(info));
    process.stderr.write(`generated ${name}: ${(info.bytes / 1e6).toFixed(0)} MB in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  }
  return dir;
}

function dbSize(db: string): number {
  let n = 0;
  for (const suffix of ['', '-wal', '-shm']) if (existsSync(db + suffix)) n += statSync(db + suffix).size;
  return n;
}

function ingestChild(db: string, path: string) {
  const res = spawnSync(process.execPath, [join(REPO, 'dist', 'bench', 'ingest-child.js'), db, path], {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  if (res.status !== 0) throw new Error(`ingest failed: ${res.stderr}`);
  return JSON.parse(res.stdout.trim().split('\n').pop()!) as { seconds: number; bytes: number; events: number; lines: number; maxRssBytes: number; filesUnchanged: number; files: number };
}

function measure(name: string, dir: string): Figure[] {
  const base = bareParse(dir);
  const baseMBs = base.bytes / 1e6 / base.seconds;
  const db = join(WORK, `${name}.db`);
  for (const suffix of ['', '-wal', '-shm', '.ingest-lock']) rmSync(db + suffix, { force: true });
  const first = ingestChild(db, dir);
  const second = ingestChild(db, dir);
  const mbs = first.bytes / 1e6 / first.seconds;
  const size = dbSize(db);
  return [
    { figure: `${name}.corpus_bytes`, value: base.bytes, unit: 'bytes' },
    {
      figure: `${name}.ingest_throughput`,
      value: +mbs.toFixed(1),
      unit: 'MB/s',
      baseline: +baseMBs.toFixed(1),
      baseline_unit: 'MB/s (bare read + JSON.parse of every line, same run)',
      ratio: +(mbs / baseMBs).toFixed(3),
      target: '>= 0.5',
    },
    {
      figure: `${name}.ingest_events_per_second`,
      value: Math.round(first.events / first.seconds),
      unit: 'events/s',
      baseline: Math.round(base.lines / base.seconds),
      baseline_unit: 'lines/s parsed (bare)',
      ratio: +((first.events / first.seconds) / (base.lines / base.seconds)).toFixed(3),
    },
    { figure: `${name}.ingest_seconds`, value: +first.seconds.toFixed(2), unit: 's', baseline: +base.seconds.toFixed(2), baseline_unit: 's (bare parse)', ratio: +(first.seconds / base.seconds).toFixed(3) },
    { figure: `${name}.peak_rss`, value: +(first.maxRssBytes / 1e6).toFixed(1), unit: 'MB', target: '< 300' },
    {
      figure: `${name}.store_size`,
      value: +(size / 1e6).toFixed(1),
      unit: 'MB',
      baseline: +(base.bytes / 1e6).toFixed(1),
      baseline_unit: 'MB corpus',
      ratio: +(size / base.bytes).toFixed(3),
      target: '<= 0.35',
    },
    {
      figure: `${name}.reingest_unchanged`,
      value: +second.seconds.toFixed(3),
      unit: 's',
      baseline: +first.seconds.toFixed(2),
      baseline_unit: 's first ingest',
      ratio: +(second.seconds / first.seconds).toFixed(4),
      target: '< 0.02',
    },
  ];
}

mkdirSync(WORK, { recursive: true });
// Start-up first, before the corpora load the machine: `hindsight --help`, `tools` and a SQLite
// `tool list_sessions` against `node -e 0` in the same run (startup-bench.ts).
const startupDb = join(WORK, 'startup-fixtures.db');
for (const suffix of ['', '-wal', '-shm', '.ingest-lock']) rmSync(startupDb + suffix, { force: true });
await fixtureStore(startupDb);
const startup = measureStartup(startupDb);
const cc = corpus('claude-code', CC_MB, (dir) => generateClaudeCode(dir, { targetBytes: CC_MB * 1e6, seed: 1 }));
const cp = corpus('control-plane', CP_MB, (dir) => generateControlPlane(dir, { sessions: Math.max(20, Math.round(CP_MB * 2)), seed: 1, targetBytes: CP_MB * 1e6 }));
const reuse = process.env.BENCH_REUSE_STORES === '1';
const figures: Figure[] = [...startup, ...(reuse ? [] : [...measure('claude-code', cc), ...measure('control-plane', cp)])];
// The formats of issue 13: ingest throughput against a bare parse of the same records, and what a
// format and a tool cost in code now against the layout before the redesign.
if (!reuse) figures.push(...measureNewFormats(REPO, WORK));
figures.push(...measureFormatCost(REPO));
for (const [name, format] of [['claude-code', 'claude-code'], ['control-plane', 'control-plane']] as const) {
  const store = new SqliteStore(join(WORK, `${name}.db`));
  try {
    figures.push(...(await measureToolLatency(name, store, format)));
  } finally {
    await store.close();
  }
}
// Analyst figures: usage vs ccusage on the Claude Code corpus, search over a 1 GB corpus, replay sizes.
figures.push(...(await measureUsage(REPO, 'claude-code', cc, join(WORK, 'claude-code.db'), WORK)));
const big = corpus('claude-code-search', SEARCH_MB, (dir) => generateClaudeCode(dir, { targetBytes: SEARCH_MB * 1e6, seed: 2 }));
const searchDb = join(WORK, 'claude-code-search.db');
if (!reuse || !existsSync(searchDb)) {
  for (const suffix of ['', '-wal', '-shm', '.ingest-lock']) rmSync(searchDb + suffix, { force: true });
  ingestChild(searchDb, big);
}
figures.push(...(await measureSearch('claude-code-search', searchDb, SEARCH_MB * 1e6)));
figures.push(...(await (await import('./scope-bench.js')).measureScope(searchDb))); // team scoping: scoped vs unscoped tools (issue 17, target 5)
figures.push(...(await measureReplay(join(REPO, '..', 'shared', 'fixtures'), WORK)));
// grep_jsonl vs ripgrep (else grep -E): a pathological and a normal pattern, real and ~100 MB ledgers.
figures.push(...(await measureGrep(WORK, join(REPO, '..', 'shared', 'fixtures'))));
// Tool-call parsers (docs/parsers.md): throughput per format family, cost per streamed delta, a 10 KB output.
figures.push(...measureParsers(join(REPO, '..', 'shared', 'fixtures', 'tool-calls')));
figures.push(...(await (await import('./runtime-recording-bench.js')).measureRuntimeRecording()));
figures.push(...(await import('./runtime-context-bench.js')).measureRuntimeContext());
figures.push(...(await (await import('./runtime-step-bench.js')).measureRuntimeStep()));
// Ingest against bare parsing, per format (issue 17 target 1), in-thread and with a parse worker.
figures.push(...(await (await import('./ingest-ratio-bench.js')).measureIngestRatio(WORK)));
// OTLP export (issue 18): spans per second built from the store, encoded and pushed to a loopback sink.
figures.push(...(await (await import('./otel-bench.js')).measureOtel(join(REPO, '..', 'shared', 'fixtures', 'claude-code'))));
// Surfaces: the HTTP API under load (autocannon, 100 connections, BENCH_HTTP_SECONDS, default 30)
// and MCP over HTTP, on the real transcripts, against in-process calls of the same tools.
const surfacesDb = join(WORK, 'surfaces-fixtures.db');
for (const suffix of ['', '-wal', '-shm', '.ingest-lock']) rmSync(surfacesDb + suffix, { force: true });
await fixtureStore(surfacesDb);
figures.push(...(await measureHttp(surfacesDb, FIXTURE_SESSION, { seconds: Number(process.env.BENCH_HTTP_SECONDS ?? 30) })));
figures.push(...(await measureMcp(surfacesDb)));
// Per call, MCP over Streamable HTTP against the same calls over stdio (issue 17 target 6).
figures.push(...(await measureMcpTransports(surfacesDb)));
// What an agent pays in context: tools/list (default and full sets) and a default timeline page.
figures.push(...(await measureMcpSize(surfacesDb)));
// Team scale (PostgreSQL at HINDSIGHT_BENCH_PG / HINDSIGHT_TEST_PG): the 500 MB corpus ingested into
// PostgreSQL and the forensic tools' latency there against SQLite; sync push of the 500 MB store
// and sync status over 10,000 sessions.
figures.push(...(await measurePostgres(join(WORK, 'claude-code.db'), cc, 'claude-code')));
figures.push(...(await measureSync(join(WORK, 'claude-code.db'))));
const out = { machine: { node: process.version, cpus: (await import('node:os')).cpus().length }, figures };
process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
