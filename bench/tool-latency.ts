// Tool latency on an ingested corpus: p50 / p95 over repeated calls of the forensic tools, as a
// surface would run them (argument validation, handler, JSON serialisation), and grep_jsonl
// against ripgrep (`rg -n`, else `grep -n`) on the very files the ledger was ingested from.

import { spawnSync } from 'node:child_process';
import { findTool } from '../src/tools/registry.js';
import { runTool } from '../src/tools/tool.js';
import type { Store } from '../src/store/store.js';
import type { Figure } from './figure.js';
import { percentile } from './measure.js';

export interface LatencyFigure extends Figure {
  calls?: number;
}

const CALLS = Number(process.env.BENCH_CALLS ?? 25);

async function time(store: Store, tool: string, args: Record<string, unknown>, calls = CALLS): Promise<{ p50: number; p95: number; result: Record<string, unknown> }> {
  const def = findTool(tool);
  if (!def) throw new Error(`no tool ${tool}`);
  const ms: number[] = [];
  let result: Record<string, unknown> = {};
  for (let i = 0; i < calls + 2; i++) {
    const t0 = performance.now();
    result = (await runTool(def, args, { store })) as Record<string, unknown>;
    JSON.stringify(result);
    if (i >= 2) ms.push(performance.now() - t0); // two warm-up calls (statement cache, page cache)
  }
  if (result.status !== 'ok') throw new Error(`${tool} ${JSON.stringify(args)}: ${JSON.stringify(result).slice(0, 300)}`);
  ms.sort((a, b) => a - b);
  return { p50: percentile(ms, 50), p95: percentile(ms, 95), result };
}

function latency(name: string, tool: string, r: { p50: number; p95: number }, target: string, note: string): LatencyFigure {
  return { figure: `${name}.${tool}_p50`, value: +r.p50.toFixed(2), unit: 'ms', p95: +r.p95.toFixed(2), calls: CALLS, target, note };
}

/** The grep baseline: ripgrep when installed, else GNU grep, timed on the same files. */
function searchBaseline(pattern: string, files: string[]): { p50: number; tool: string; matches: number } {
  const tool = spawnSync('rg', ['--version']).status === 0 ? 'rg' : 'grep';
  const ms: number[] = [];
  let matches = 0;
  for (let i = 0; i < 7; i++) {
    const t0 = performance.now();
    const res = spawnSync(tool, ['-n', '--', pattern, ...files], { encoding: 'utf8', maxBuffer: 1 << 30 });
    ms.push(performance.now() - t0);
    matches = res.stdout.split('\n').filter(Boolean).length;
  }
  ms.sort((a, b) => a - b);
  return { p50: percentile(ms, 50), tool, matches };
}

/** The session with the most events (the hardest overview and timeline). */
async function largestSession(store: Store, format: string): Promise<{ id: string; events: number }> {
  let best = { id: '', events: -1 };
  for (let offset = 0; ; offset += 500) {
    const { sessions } = await store.listSessions({ format: format as never, limit: 500, offset });
    for (const s of sessions) if (s.eventCount > best.events) best = { id: s.id, events: s.eventCount };
    if (sessions.length < 500) break;
  }
  return best;
}

export async function measureToolLatency(name: string, store: Store, format: 'control-plane' | 'claude-code'): Promise<LatencyFigure[]> {
  const figures: LatencyFigure[] = [];
  const indexed = 'p50 < 50 ms';
  figures.push(latency(name, 'list_sessions', await time(store, 'list_sessions', { limit: 20 }), indexed, 'limit 20'));

  const big = await largestSession(store, format);
  figures.push(
    latency(name, 'session_overview', await time(store, 'session_overview', { session_id: big.id }), indexed, `largest session (${big.events} events)`),
  );
  const middle = Math.floor(big.events / 2);
  figures.push(
    latency(
      name,
      'reconstruct_session',
      await time(store, 'reconstruct_session', { session_id: big.id, limit: 100, offset: middle }),
      indexed,
      `largest session, limit 100, offset ${middle}`,
    ),
  );

  // A ledger-wide query: Control Plane's governance ledger, or the largest Claude Code transcript.
  const ledgerArgs: Record<string, unknown> = format === 'control-plane' ? { ledger: 'governance' } : { session_id: big.id, ledger: 'transcript' };
  const eventType = format === 'control-plane' ? 'EXCHANGE' : 'assistant';
  const probe = await time(store, 'query_ledger_full', { ...ledgerArgs, event_type: eventType, max_entries: 1 }, 1);
  const total = probe.result.count as number;
  const deep = Math.max(0, Math.floor(total * 0.9));
  const q = await time(store, 'query_ledger_full', { ...ledgerArgs, event_type: eventType, max_entries: 10, offset: deep });
  figures.push(latency(name, 'query_ledger_full', q, indexed, `${eventType} of ${total}, offset ${deep}`));

  // A rare pattern: the id of one entry deep in the ledger (it occurs once).
  const entry = (q.result.entries as { id: string | null; file: string }[])[0];
  const pattern = entry?.id ?? 'no-such-thing-anywhere';
  const g = await time(store, 'grep_jsonl', { ...ledgerArgs, pattern, limit: 20 }, Math.min(CALLS, 10));
  const files = (g.result.files_searched as string[]) ?? [];
  const roots = format === 'control-plane' ? (await store.listRoots('control-plane')).map((r) => r.path) : [];
  const paths = await absolutePaths(store, files, roots, big.id);
  const base = searchBaseline(pattern, paths);
  /** A grep figure against the same rg run: the live search, or the evidence alone. */
  const grepFigure = (suffix: string, t: typeof g, baselineUnit: string, note: string): LatencyFigure => ({
    figure: `${name}.grep_jsonl${suffix}_p50`,
    value: +t.p50.toFixed(1),
    unit: 'ms',
    p95: +t.p95.toFixed(1),
    calls: Math.min(CALLS, 10),
    baseline: +base.p50.toFixed(1),
    baseline_unit: baselineUnit,
    ratio: +(t.p50 / base.p50).toFixed(2),
    target: '<= 3 (ratio)',
    note,
  });
  figures.push(grepFigure('', g, `ms, \`${base.tool} -n\` on the same ${paths.length} file(s) (${base.matches} matching lines; grep_jsonl count ${g.result.count})`, `rare pattern over the whole ${String(g.result.source)} ledger`));
  // The same search from the compressed evidence alone (read_from: evidence). The bench used to
  // rename the corpus's files away for this, which left them renamed if it was interrupted.
  const e = await time(store, 'grep_jsonl', { ...ledgerArgs, pattern, limit: 20, read_from: 'evidence' }, Math.min(CALLS, 10));
  figures.push(grepFigure('_from_evidence', e, `ms, \`${base.tool} -n\` on the same source files`, `same search with read_from: evidence (count ${e.result.count})`));
  return figures;
}

/** The source paths of the files grep searched (from the session's or the root's ledgers). */
async function absolutePaths(store: Store, relPaths: string[], roots: string[], sessionId: string): Promise<string[]> {
  const ledgers = roots.length ? (await Promise.all(roots.map((r) => store.rootLedgers(r)))).flat() : await store.sessionLedgers(sessionId);
  const byRel = new Map(ledgers.flatMap((l) => l.files.filter((f) => !f.superseded).map((f) => [f.relPath, f.path] as const)));
  return relPaths.map((p) => byRel.get(p) ?? p);
}
