// Analyst figures (issue 4): search_sessions p50 over a large Claude Code corpus; usage_report by
// session warm (store up to date) and cold (ingest included) against ccusage 20 on the same files
// in the same run; and the replay export's size against each real transcript.

import { spawnSync } from 'node:child_process';
import { existsSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ingestPaths } from '../src/ingest/ingest.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { exportSession } from '../src/tools/export-session/index.js';
import { findTool } from '../src/tools/registry.js';
import { runTool } from '../src/tools/tool.js';
import type { Figure } from './figure.js';
import { percentile, timeWholeUsageReport } from './measure.js';

async function timeTool(store: SqliteStore, tool: string, args: Record<string, unknown>, calls: number) {
  const ms: number[] = [];
  let result: Record<string, unknown> = {};
  for (let i = 0; i < calls + 2; i++) {
    const t0 = performance.now();
    result = (await runTool(findTool(tool)!, args, { store })) as Record<string, unknown>;
    JSON.stringify(result);
    if (i >= 2) ms.push(performance.now() - t0);
  }
  if (result.status !== 'ok') throw new Error(`${tool}: ${JSON.stringify(result).slice(0, 300)}`);
  ms.sort((a, b) => a - b);
  return { p50: percentile(ms, 50), p95: percentile(ms, 95), result };
}

function ccusageSeconds(repo: string, configDir: string): number | null {
  const bin = join(repo, 'node_modules', '.bin', 'ccusage');
  if (!existsSync(bin)) return null;
  const t0 = performance.now();
  const res = spawnSync(bin, ['session', '--json', '--offline'], {
    env: { ...process.env, CLAUDE_CONFIG_DIR: configDir },
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  if (res.status !== 0) throw new Error(`ccusage failed: ${res.stderr.slice(0, 300)}`);
  return (performance.now() - t0) / 1000;
}

/** search_sessions over the store of a large corpus (several queries, p50 of each). */
export async function measureSearch(name: string, db: string, corpusBytes: number): Promise<Figure[]> {
  const store = new SqliteStore(db);
  try {
    const out: Figure[] = [];
    for (const [label, args] of [
      ['word_all', { query: 'error', scope: 'all', limit: 20 }],
      ['word_transcript', { query: 'migration', scope: 'transcript', limit: 20 }],
      ['prefix', { query: 'refact*', limit: 20 }],
      ['phrase', { query: '"the test"', limit: 20 }],
    ] as const) {
      const r = await timeTool(store, 'search_sessions', args, 15);
      out.push({
        figure: `${name}.search_sessions_${label}_p50`,
        value: +r.p50.toFixed(1),
        unit: 'ms',
        p95: +r.p95.toFixed(1),
        note: `${JSON.stringify(args)} over ${(corpusBytes / 1e9).toFixed(2)} GB (${r.result.count} matches)`,
      });
    }
    return out;
  } finally {
    await store.close();
  }
}

/** usage_report by session, warm and cold, against ccusage 20 on the same config folder. */
export async function measureUsage(repo: string, name: string, configDir: string, db: string, work: string): Promise<Figure[]> {
  const ccusage = ccusageSeconds(repo, configDir);
  const store = new SqliteStore(db);
  let warm: { p50: number; p95: number; sessions: number };
  try {
    warm = await timeWholeUsageReport(store, 7);
  } finally {
    await store.close();
  }
  // Cold: a fresh store, ingest then report, timed together.
  const coldDb = join(work, `${name}-usage-cold.db`);
  for (const s of ['', '-wal', '-shm', '.ingest-lock']) rmSync(coldDb + s, { force: true });
  const t0 = performance.now();
  const cold = new SqliteStore(coldDb);
  try {
    await ingestPaths(cold, [configDir]);
    await runTool(findTool('usage_report')!, { group_by: 'session', limit: 500 }, { store: cold });
  } finally {
    await cold.close();
  }
  const coldSeconds = (performance.now() - t0) / 1000;
  for (const s of ['', '-wal', '-shm', '.ingest-lock']) rmSync(coldDb + s, { force: true });
  const base = ccusage === null ? {} : { baseline: +ccusage.toFixed(2), baseline_unit: 's, ccusage 20 `session --json --offline`, same files' };
  return [
    {
      figure: `${name}.usage_report_session_warm`,
      value: +(warm.p50 / 1000).toFixed(3),
      unit: 's',
      p95: +(warm.p95 / 1000).toFixed(3),
      ...base,
      ...(ccusage !== null && { ratio: +(ccusage / (warm.p50 / 1000)).toFixed(1) }),
      target: '>= 10x faster than ccusage',
      note: `ratio = ccusage seconds / ours (higher is better); the whole report, ${warm.sessions} sessions, every page`,
    },
    {
      figure: `${name}.usage_report_session_cold`,
      value: +coldSeconds.toFixed(2),
      unit: 's',
      ...base,
      ...(ccusage !== null && { ratio: +(coldSeconds / ccusage).toFixed(2) }),
      target: '<= 2x ccusage (ratio = ours / ccusage)',
      note: 'ingest into a fresh store + report',
    },
  ];
}

/** The replay export's size against the source files, per real transcript. */
export async function measureReplay(fixtures: string, work: string): Promise<Figure[]> {
  const db = join(work, 'replay-fixtures.db');
  for (const s of ['', '-wal', '-shm', '.ingest-lock']) rmSync(db + s, { force: true });
  const store = new SqliteStore(db);
  const out: Figure[] = [];
  try {
    await ingestPaths(store, [join(fixtures, 'claude-code')]);
    const { sessions } = await store.listSessions({ format: 'claude-code', topLevelOnly: true, limit: 100, offset: 0 });
    for (const s of sessions.sort((a, b) => (a.id < b.id ? -1 : 1))) {
      const ledgers = await store.sessionLedgers(s.id);
      const source = ledgers.flatMap((l) => l.files).filter((f) => !f.superseded).reduce((n, f) => n + statSync(f.path).size, 0);
      let bytes = 0;
      for await (const line of exportSession(store, s.id, { format: 'replay' })) bytes += Buffer.byteLength(line) + 1;
      out.push({
        figure: `replay_size.${s.id.slice(0, 8)}`,
        value: bytes,
        unit: 'bytes',
        baseline: source,
        baseline_unit: 'bytes of source (session + sub-agent files)',
        ratio: +(bytes / source).toFixed(3),
        target: source > 1e6 ? '<= 0.05' : undefined,
      });
    }
  } finally {
    await store.close();
    for (const s of ['', '-wal', '-shm']) rmSync(db + s, { force: true });
  }
  return out;
}
