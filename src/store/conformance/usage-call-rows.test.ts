// Store.usageCallRows on every engine: the stored calls one by one are exactly the calls the
// sessions' timelines give (each counted once, mirrors as the timeline counts them), handed over in
// the same order, so blocks (and anything else reading each call) answer the same either way, on
// every format's sample and through a scoped store.

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, tempDir } from '../../../test/helpers.js';
import { recordScriptedRun } from '../../../test/runtime-session.js';
import { makeHome } from '../../formats/opencode/test-home.js';
import { ingestPaths } from '../../ingest/ingest.js';
import { scopedStore } from '../../surfaces/access/scope/scoped-store.js';
import { runTool } from '../../tools/tool.js';
import { usageReport } from '../../tools/usage-report/index.js';
import { buildBlocks } from '../../usage/blocks.js';
import { loadEachUsageCall } from '../../usage/calls.js';
import type { Store } from '../store.js';
import { postgresEngine, postgresUnavailable, sqliteEngine, type Engine } from './engines.js';

const unavailable = await postgresUnavailable();
const engines: Engine[] = [sqliteEngine(), ...(unavailable === null ? [postgresEngine()] : [])];

/** Fixture roots ingested as detected: Claude Code (with mirrored sub-agent calls), Codex, Gemini, Amplifier (recorded costs), Control Plane. */
const FIXTURE_ROOTS = ['claude-code', 'other-agents/codex/sessions', 'other-agents/gemini/tmp', 'amplifier/normal', 'amplifier/real', 'control-plane/normal'];
const NOW = Date.parse('2026-06-01T00:00:00Z');

/** The same store without usageCallRows (the path every other Store takes), counting its timeline reads. */
function timelineOnly(store: Store): { store: Store; timelineReads: () => number } {
  let reads = 0;
  const proxy = new Proxy(store, {
    get(target, prop) {
      if (prop === 'usageCallRows') return undefined;
      const value = Reflect.get(target, prop, target) as unknown;
      if (prop === 'sessionTimeline') reads++;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store: proxy, timelineReads: () => reads };
}

/** Counts the store's timeline reads (the fast path should make none). */
function counting(store: Store): { store: Store; timelineReads: () => number } {
  let reads = 0;
  const proxy = new Proxy(store, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (prop === 'sessionTimeline') reads++;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store: proxy, timelineReads: () => reads };
}

afterAll(async () => {
  for (const e of engines) await e.dispose();
});

describe.each(engines.map((e) => [e.name, e] as const))('usageCallRows on %s', (_name, engine) => {
  let store: Store;
  beforeAll(async () => {
    store = await engine.create();
    for (const root of FIXTURE_ROOTS) await ingestPaths(store, [copyFixture(root)]);
    await ingestPaths(store, [makeHome({ seed: 5, sessions: 4, layout: 'both' }).home], { format: 'opencode' });
    const runtime = join(tempDir('hs-rows-runtime-'), 'sessions');
    await recordScriptedRun(runtime);
    await ingestPaths(store, [runtime], { format: 'hindsight' });
  }, 120_000);
  afterAll(async () => {
    await store.close();
  });

  it('hands over the calls the timelines give, in the same order, without reading a timeline', async () => {
    const fast = counting(store);
    const slow = timelineOnly(store);
    const rows = await loadEachUsageCall(fast.store);
    const timeline = await loadEachUsageCall(slow.store);
    expect(fast.timelineReads()).toBe(0);
    expect(slow.timelineReads()).toBeGreaterThan(0);
    expect(rows).toEqual(timeline);
    // Every format's sample has calls here, with and without times and recorded costs.
    expect(new Set(rows.map((c) => c.format))).toEqual(new Set(['claude-code', 'codex', 'gemini', 'amplifier', 'control-plane', 'opencode', 'hindsight']));
    expect(rows.some((c) => c.recordedUsd !== null)).toBe(true);
    expect(rows.some((c) => (c.tokens.reasoning ?? 0) > 0)).toBe(true);
    expect(rows.some((c) => c.sessionId !== c.rootId)).toBe(true);
  });

  it('gives the same blocks report either way (every mode, order, breakdown, filters)', async () => {
    const options = [
      { group_by: 'blocks', now: '2026-06-01T00:00:00Z', limit: 500 },
      { group_by: 'blocks', now: '2026-06-01T00:00:00Z', breakdown: true, mode: 'auto', order: 'desc', limit: 500 },
      { group_by: 'blocks', now: '2026-06-01T00:00:00Z', mode: 'display', timezone: 'Europe/Berlin', limit: 500 },
    ];
    for (const args of options) {
      const fast = await runTool(usageReport, args, { store });
      const timeline = timelineOnly(store); // another object: the tool keeps no answer across them
      const slow = await runTool(usageReport, args, { store: timeline.store });
      expect(fast.status, JSON.stringify(args)).toBe('ok');
      expect(timeline.timelineReads()).toBeGreaterThan(0);
      expect(fast, JSON.stringify(args)).toEqual(slow);
      expect((fast as unknown as { rows: unknown[] }).rows.length).toBeGreaterThan(0);
    }
    const calls = await loadEachUsageCall(store);
    for (const format of new Set(calls.map((c) => c.format))) {
      const o = { now: NOW, mode: 'calculate' as const, format, breakdown: true };
      expect(buildBlocks(calls, o), format).toEqual(buildBlocks(await loadEachUsageCall(timelineOnly(store).store), o));
    }
  });

  it('is cut to a scoped store’s sessions, and answers as the scope’s timelines do', async () => {
    const all = await loadEachUsageCall(store);
    const project = all.find((c) => c.format === 'claude-code' && c.project !== null)!.project!;
    const scoped = scopedStore(store, [project]);
    expect(scoped.usageCallRows).toBeTypeOf('function');
    const rows = await loadEachUsageCall(scoped);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThan(all.length);
    expect(rows.every((c) => c.project === project)).toBe(true);
    expect(rows).toEqual(await loadEachUsageCall(timelineOnly(scoped).store));
  });
});
