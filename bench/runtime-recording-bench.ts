// What recording costs the runtime per step (issue 16, "Recorded natively"): on a session that
// already holds 200 messages, one typical step — a model_call, an assistant message with a tool
// call, its tool result (2 KB), a tool_execution span — appended through the recorder and then
// synced into a SQLite store, so every tool sees the step. Baseline in the same run: a bare
// appendFileSync of the same bytes. Also the append alone (record() without sync()).
// Run alone with `node dist/bench/runtime-recording-bench.js` (after npm run build).

import { appendFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RecordEntry, SessionRecorder } from '../src/runtime/recording/recorder.js';
import { createRecorder } from '../src/runtime/recording/recorder.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import type { Figure } from './figure.js';

const HISTORY_MESSAGES = 200;
const STEPS = 60;

function typicalStep(turn: number, step: number): RecordEntry[] {
  const id = `call_${turn}_${step}`;
  return [
    { type: 'model_call', turn, step, provider: 'openai-compatible', model: 'gpt-4o-mini', usage: { input_tokens: 12_000, output_tokens: 180, cache_read_tokens: 9_000, cache_creation_tokens: 0, reasoning_tokens: 0 }, usage_source: 'provider', finish_reason: 'tool_calls', response_id: `resp_${id}`, duration_ms: 1400, cost_usd: 0.0021 },
    { type: 'message', role: 'assistant', content: 'Reading the test file to see what fails.', tool_calls: [{ id, name: 'read', arguments: { path: `src/module-${step}.ts` } }], turn, step },
    { type: 'tool_result', turn, step, call_id: id, name: 'read', content: 'export function f(x: number): number {\n  return x * 2;\n}\n'.repeat(36), is_error: false, duration_ms: 2 },
    { type: 'span', span_id: `span_${id}`, parent_span_id: `turn_${turn}`, kind: 'tool_execution', name: 'read', start: '2026-05-11T09:00:00.000Z', end: '2026-05-11T09:00:00.002Z', duration_ms: 2, attributes: { tool: 'read' } },
  ];
}

/** Median and 95th percentile of `xs` (milliseconds). */
function quantiles(xs: number[]): { p50: number; p95: number } {
  const s = [...xs].sort((a, b) => a - b);
  return { p50: s[Math.floor(s.length / 2)]!, p95: s[Math.min(s.length - 1, Math.floor(s.length * 0.95))]! };
}

const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;

/** A recorder over a session of HISTORY_MESSAGES messages, already in the store. */
async function sessionWithHistory(dir: string, store: SqliteStore | null): Promise<SessionRecorder> {
  const rec = createRecorder({ sessionsRoot: join(dir, 'sessions'), store, onStoreWarning: (m) => process.stderr.write(`${m}\n`) });
  rec.record({ type: 'session_start', mode: 'run', provider: 'openai-compatible', model: 'gpt-4o-mini', cwd: '/work/demo', agent: 'default', tools_allowed: ['read', 'edit', 'write', 'bash'], hindsight_version: '0.4.0' });
  let messages = 0;
  for (let step = 1; messages < HISTORY_MESSAGES; step++) {
    if (step % 10 === 1) {
      rec.record({ type: 'message', role: 'user', content: `Task ${step}: make the tests pass`, turn: Math.ceil(step / 10) });
      messages++;
    }
    for (const e of typicalStep(Math.ceil(step / 10), step)) rec.record(e);
    messages += 2;
  }
  await rec.sync();
  return rec;
}

export async function measureRuntimeRecording(): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'hs-rec-bench-'));
  try {
    const store = new SqliteStore(join(dir, 'h.db'));
    const rec = await sessionWithHistory(dir, store);
    const appendOnly = await sessionWithHistory(join(dir, 'append-only'), null);
    const baselineFile = join(dir, 'baseline', 'step.jsonl');
    mkdirSync(join(dir, 'baseline'));
    const withSync: number[] = [];
    const recordOnly: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i < STEPS; i++) {
      const entries = typicalStep(100 + i, 1);
      // The same bytes the recorder writes for the step, appended the plainest way.
      const bytes = entries.map(({ type, ...fields }, n) => `${JSON.stringify({ type, session_id: rec.sessionId, seq: 10_000 + n, ts: new Date().toISOString(), ...fields })}\n`).join('');
      let t = process.hrtime.bigint();
      appendFileSync(baselineFile, bytes);
      bare.push(ms(t));
      t = process.hrtime.bigint();
      for (const e of entries) appendOnly.record(e);
      recordOnly.push(ms(t));
      t = process.hrtime.bigint();
      for (const e of entries) rec.record(e);
      await rec.sync();
      withSync.push(ms(t));
    }
    await rec.close();
    await appendOnly.close();
    await store.close();
    const step = quantiles(withSync);
    const append = quantiles(recordOnly);
    const base = quantiles(bare);
    const baseUnit = 'ms (appendFileSync of the same step bytes, same run)';
    return [
      { figure: 'runtime.recording.step_with_sync', value: +step.p50.toFixed(3), p95: +step.p95.toFixed(3), unit: 'ms', baseline: +base.p50.toFixed(4), baseline_unit: baseUnit, ratio: +(step.p50 / base.p50).toFixed(1), target: '< 1 s (visible to every tool within a second of each step)', note: `${STEPS} steps of 4 records on a session of ${HISTORY_MESSAGES} messages, each synced into SQLite` },
      { figure: 'runtime.recording.step_record_only', value: +append.p50.toFixed(4), p95: +append.p95.toFixed(4), unit: 'ms', baseline: +base.p50.toFixed(4), baseline_unit: baseUnit, ratio: +(append.p50 / base.p50).toFixed(2), note: 'record() of the step without sync() (the store is off)' },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(await measureRuntimeRecording(), null, 2));
}
