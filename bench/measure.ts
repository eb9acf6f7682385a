// Small helpers every benchmark shares: percentiles of sorted timings, the whole usage report timed
// the way the usage figures define it, and dropping a PostgreSQL schema a bench created.

import type { Store } from '../src/store/store.js';
import { findTool } from '../src/tools/registry.js';
import { runTool } from '../src/tools/tool.js';

/** The p-th percentile (nearest rank) of timings sorted ascending. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/**
 * The whole by-session usage report (every page of 500 rows, as ccusage prints every session),
 * serialised as the CLI would: p50 and p95 (ms) of `calls` runs after two warm-ups.
 */
export async function timeWholeUsageReport(store: Store, calls = 7): Promise<{ p50: number; p95: number; sessions: number }> {
  const tool = findTool('usage_report')!;
  const ms: number[] = [];
  let sessions = 0;
  for (let i = 0; i < calls + 2; i++) {
    const t0 = performance.now();
    sessions = 0;
    for (let offset = 0; ; offset += 500) {
      const r = (await runTool(tool, { group_by: 'session', limit: 500, offset, max_bytes: 10_000_000 }, { store })) as Record<string, unknown>;
      if (r.status !== 'ok') throw new Error(`usage_report: ${JSON.stringify(r).slice(0, 300)}`);
      JSON.stringify(r);
      sessions += r.returned as number;
      if (!r.has_more) break;
    }
    if (i >= 2) ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  return { p50: percentile(ms, 50), p95: percentile(ms, 95), sessions };
}

export { dropSchema } from '../src/store/postgres/drop-schema.js';
