// Store.usageCallRows on every engine: the stored calls one by one are exactly the calls the
// sessions' timelines give (each counted once, mirrors as the timeline counts them), handed over in
// the same order, so blocks (and anything else reading each call) answer the same either way, on
// every format's sample and through a scoped store. And Store.usageCallHours (the calls summed per
// session and hour, what blocks read): the same blocks as from each call, to the byte, on those
// samples and on calls placed on the hour marks where windows open and close.

import { mkdirSync, writeFileSync } from 'node:fs';
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
import { loadBlockCalls, loadEachUsageCall } from '../../usage/calls.js';
import type { Store } from '../store.js';
import { postgresEngine, postgresUnavailable, sqliteEngine, type Engine } from './engines.js';

const unavailable = await postgresUnavailable();
const engines: Engine[] = [sqliteEngine(), ...(unavailable === null ? [postgresEngine()] : [])];

/** Fixture roots ingested as detected: Claude Code (with mirrored sub-agent calls), Codex, Gemini, Amplifier (recorded costs), Control Plane. */
const FIXTURE_ROOTS = ['claude-code', 'other-agents/codex/sessions', 'other-agents/gemini/tmp', 'amplifier/normal', 'amplifier/real', 'control-plane/normal'];
const NOW = Date.parse('2026-06-01T00:00:00Z');

/** The same store without `hidden` reads, counting its timeline reads. */
function without(store: Store, hidden: readonly (keyof Store)[]): { store: Store; timelineReads: () => number } {
  let reads = 0;
  const proxy = new Proxy(store, {
    get(target, prop) {
      if (hidden.includes(prop as keyof Store)) return undefined;
      const value = Reflect.get(target, prop, target) as unknown;
      if (prop === 'sessionTimeline') reads++;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store: proxy, timelineReads: () => reads };
}

/** The same store without its calls' reads (the path every other Store takes), counting its timeline reads. */
const timelineOnly = (store: Store) => without(store, ['usageCallRows', 'usageCallHours']);

/** The same store without its hour groups: blocks read each call. */
const rowsOnly = (store: Store) => without(store, ['usageCallHours']).store;

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
    const groups = await loadBlockCalls(store);
    expect(groups.length).toBeLessThan(calls.length);
    for (const format of new Set(calls.map((c) => c.format))) {
      for (const mode of ['calculate', 'auto'] as const) {
        const o = { now: NOW, mode, format, breakdown: true };
        const perCall = buildBlocks(await loadEachUsageCall(timelineOnly(store).store), o);
        expect(buildBlocks(calls, o), format).toEqual(perCall);
        // Summed per hour, to the byte: the figures the tool prints.
        expect(JSON.stringify(buildBlocks(groups, o)), format).toBe(JSON.stringify(perCall));
      }
    }
  });

  it('gives the same blocks from the hour groups as from each call (the tool: modes, order, zones, filters)', async () => {
    const fast = counting(store);
    const groups = await loadBlockCalls(fast.store);
    expect(fast.timelineReads()).toBe(0);
    expect(groups.reduce((n, g) => n + g.calls, 0)).toBe((await loadEachUsageCall(store)).length);
    const options = [
      { group_by: 'blocks', now: '2026-06-01T00:00:00Z', limit: 500 },
      { group_by: 'blocks', now: '2026-06-01T00:00:00Z', breakdown: true, mode: 'auto', order: 'desc', limit: 500 },
      { group_by: 'blocks', now: '2026-06-01T00:00:00Z', mode: 'display', timezone: 'Asia/Kolkata', since: '2026-01-01', limit: 500 },
      { group_by: 'blocks', now: '2026-06-01T00:00:00Z', format: 'amplifier', breakdown: true, limit: 500 },
    ];
    for (const args of options) {
      const hours = await runTool(usageReport, args, { store });
      const rows = await runTool(usageReport, args, { store: rowsOnly(store) });
      expect(hours.status, JSON.stringify(args)).toBe('ok');
      expect(JSON.stringify(hours), JSON.stringify(args)).toBe(JSON.stringify(rows));
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
    expect(scoped.usageCallHours).toBeTypeOf('function');
    const groups = await loadBlockCalls(scoped);
    expect(groups.every((c) => c.project === project)).toBe(true);
    const o = { now: NOW, mode: 'calculate' as const, breakdown: true };
    expect(JSON.stringify(buildBlocks(groups, o))).toBe(JSON.stringify(buildBlocks(rows, o)));
  });
});

/** A Claude Code session of assistant calls at these times (ISO), each its own message. */
function writeSession(root: string, id: string, times: readonly string[]): void {
  const dir = join(root, 'projects', '-home-u-hours');
  mkdirSync(dir, { recursive: true });
  const lines = [
    { type: 'user', sessionId: id, uuid: `${id}-u`, timestamp: times[0], cwd: '/home/u/hours', message: { role: 'user', content: 'go' } },
    ...times.map((timestamp, i) => ({
      type: 'assistant', sessionId: id, uuid: `${id}-a${i}`, timestamp, requestId: `req_${id}_${i}`,
      message: {
        id: `msg_${id}_${i}`, model: i % 3 === 2 ? 'claude-opus-4-6' : 'claude-sonnet-4-5', role: 'assistant', content: [{ type: 'text', text: 'ok' }],
        usage: { input_tokens: 3 + i, output_tokens: 100 * (i + 1), cache_creation_input_tokens: 1_000 * i, cache_read_input_tokens: 7_777 * (i + 1) },
      },
    })),
  ];
  writeFileSync(join(dir, `${id}.jsonl`), lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
}

describe.each(engines.map((e) => [e.name, e] as const))('usageCallHours at hour marks on %s', (_name, engine) => {
  it('cuts the windows as each call does: a call at the 5-hour mark stays, one a millisecond later opens the next', async () => {
    const store = await engine.create();
    const root = tempDir('hs-hours-');
    writeSession(root, '00000000-0000-4000-8000-00000000000a', [
      '2026-03-01T10:20:00.000Z', '2026-03-01T14:05:00.000Z', '2026-03-01T14:55:00.000Z',
      // The window's 5-hour mark, then 1 ms past it (same hour), then a pause of more than 5 hours.
      '2026-03-01T15:00:00.000Z', '2026-03-01T15:00:00.001Z', '2026-03-01T21:00:00.000Z',
    ]);
    writeSession(root, '00000000-0000-4000-8000-00000000000b', [
      // Starts after the other session's 14:00 calls began and ends before they end; shares an instant with it.
      '2026-03-01T14:10:00.000Z', '2026-03-01T14:15:00.000Z', '2026-03-01T15:00:00.000Z', '2026-03-01T21:00:00.000Z', '2026-03-02T02:00:00.000Z',
    ]);
    await ingestPaths(store, [root]);
    const args = { group_by: 'blocks', now: '2026-03-02T03:00:00Z', breakdown: true, limit: 500 };
    const hours = (await runTool(usageReport, args, { store })) as unknown as { rows: { start: string; actual_end: string | null; calls: number; active: boolean }[] };
    expect(hours.rows.map((r) => [r.start, r.actual_end, r.calls, r.active])).toEqual([
      ['2026-03-01T10:00:00.000Z', '2026-03-01T15:00:00.000Z', 7, false],
      ['2026-03-01T15:00:00.000Z', '2026-03-01T15:00:00.001Z', 1, false],
      ['2026-03-01T20:00:00.001Z', null, 0, false],
      ['2026-03-01T21:00:00.000Z', '2026-03-02T02:00:00.000Z', 3, false],
    ]);
    const grouped = await loadBlockCalls(store);
    expect(grouped.length).toBeLessThan(11);
    expect(JSON.stringify(hours)).toBe(JSON.stringify(await runTool(usageReport, args, { store: rowsOnly(store) })));
    expect(JSON.stringify(hours)).toBe(JSON.stringify(await runTool(usageReport, args, { store: timelineOnly(store).store })));
    await store.close();
  });
});
