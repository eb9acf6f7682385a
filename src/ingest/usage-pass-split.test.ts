// The usage pass read on both cores gives what one thread gives, and each format's usage reading
// (the kept lines, Claude Code's usage-only assistant lines) gives every session exactly the calls
// the full parse gives it: on the Claude Code fixtures, a generated corpus with sub-agents and
// mirrors, and runtime (hindsight) sessions with a handoff child.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildSync } from 'esbuild';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateClaudeCode } from '../../bench/generators/claude-code.js';
import { copyFixture, REPO, tempDir } from '../../test/helpers.js';
import type { Importer, SourceFile } from '../formats/importer.js';
import { loadImporter } from '../formats/registry.js';
import { runImporter } from './harness.js';
import { LONG_CONTEXT_THRESHOLD } from '../usage/price-types.js';
import { rootSummary, usagePass } from './usage-pass.js';
import { readFileUsage, readUsageUnit } from './usage-pass-file.js';
import { groupUsageCalls } from './usage-pass-groups.js';
import { rootUsage } from './usage-pass-sessions.js';
import { readingUnits, usageReader, useUsageWorkerUrl } from './usage-pass-split.js';
import { unitSummary } from './usage-pass-unit.js';

/** The worker bundled from the sources (a worker thread cannot load TypeScript). */
function bundledWorker(): URL {
  const dir = join(REPO, 'node_modules', '.cache', 'hindsight-test-workers');
  mkdirSync(dir, { recursive: true });
  const outfile = join(dir, `usage-pass-worker-${process.pid}-${Date.now()}.mjs`);
  buildSync({ entryPoints: [resolve(REPO, 'src', 'ingest', 'usage-pass-worker.ts')], bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', outfile, logLevel: 'error' });
  return pathToFileURL(outfile);
}

const ID = '11111111-2222-4333-8444-555555555555';
const CHILD = '66666666-2222-4333-8444-555555555555';

/** A runtime sessions root under `dataHome`: a session that hands off to a child, both with calls. */
function runtimeSessions(dataHome: string): string {
  const root = join(dataHome, 'hindsight', 'sessions');
  const day = join(root, '2026', '05', '11');
  mkdirSync(day, { recursive: true });
  const usage = (input: number, output: number) => ({ input_tokens: input, output_tokens: output, cache_read_tokens: 5, cache_creation_tokens: 2, reasoning_tokens: 1 });
  const call = (seq: number, input: number) => ({ type: 'model_call', seq, ts: `2026-05-11T09:00:${String(seq).padStart(2, '0')}.000Z`, turn: 1, step: seq, provider: 'openai-compatible', model: 'qwen3-coder', usage: usage(input, 7), usage_source: 'provider', duration_ms: 10, cost_usd: 0.25 });
  const write = (id: string, records: Record<string, unknown>[]) =>
    writeFileSync(join(day, `${id}.jsonl`), records.map((r) => JSON.stringify({ session_id: id, ...r })).join('\n') + '\n');
  write(ID, [
    { type: 'session_start', seq: 0, ts: '2026-05-11T09:00:00.000Z', mode: 'chat', provider: 'openai-compatible', model: 'qwen3-coder', cwd: '/srv/app', hindsight_version: '0.4.0' },
    { type: 'message', seq: 1, ts: '2026-05-11T09:00:01.000Z', role: 'user', content: 'fix the "model_call" test', turn: 1 },
    call(2, 100),
    { type: 'message', seq: 3, ts: '2026-05-11T09:00:03.000Z', role: 'assistant', content: 'done', turn: 1, step: 1 },
    { type: 'handoff', seq: 4, ts: '2026-05-11T09:00:04.000Z', child_session_id: CHILD, reason: 'context' },
    call(5, 200),
    { type: 'turn_end', seq: 6, ts: '2026-05-11T09:00:06.000Z', turn: 1, terminal_state: 'handoff', steps: 2, tool_calls: 0 },
  ]);
  write(CHILD, [
    { type: 'session_start', seq: 0, ts: '2026-05-11T09:00:07.000Z', mode: 'chat', provider: 'openai-compatible', model: 'qwen3-coder', cwd: '/srv/app', parent_session_id: ID, hindsight_version: '0.4.0' },
    call(8, 300),
  ]);
  return root;
}

/** Every session's calls from the full parse (the harness) and from the usage reading, side by side. */
async function bothWays(importer: Importer, root: string) {
  const full = await runImporter(importer, root);
  const files = await importer.discover(root);
  const chains = new Map<string, unknown>();
  const read = files.map((f) => {
    const u = readFileUsage(importer, f, f.chainGroup ? chains.get(f.chainGroup) : undefined);
    if (f.chainGroup) chains.set(f.chainGroup, u.chainState);
    return u;
  });
  const pass = rootUsage(importer, read);
  // Calls compared by what a report reads of them (seq numbers differ: the pass numbers usage events only).
  const shape = (c: { key: string; tsKey: string | null; model: string | null; input: number; output: number; cacheWrite: number; cacheWrite1h: number; cacheRead: number; reasoning?: number; costUsd: number | null; mirror: boolean }) =>
    [c.key, c.tsKey, c.model, c.input, c.output, c.cacheWrite, c.cacheWrite1h, c.cacheRead, c.reasoning ?? 0, c.costUsd, c.mirror];
  const fromFull = new Map([...full.sessions].map(([id, s]) => [id, { calls: s.calls.map(shape), parentId: s.facts.parentId ?? null, project: s.facts.project ?? null, projectPath: s.facts.projectPath ?? null }]));
  const fromPass = new Map<string, { calls: unknown[]; parentId: string | null; project: string | null; projectPath: string | null }>();
  for (const s of pass.sessions) fromPass.set(s.id, { calls: [], parentId: s.parentId, project: s.project, projectPath: s.projectPath });
  for (const { sessionId, call } of pass.calls) fromPass.get(sessionId)!.calls.push(shape(call));
  return { fromFull, fromPass, untimed: read.find((u) => u.untimed)?.untimed ?? null };
}

describe('each session gets the calls of the full parse', () => {
  it('Claude Code fixtures: sessions, sub-agents, sidechains, mirrors', async () => {
    const claude = await loadImporter('claude-code');
    const { fromFull, fromPass, untimed } = await bothWays(claude, copyFixture('claude-code'));
    expect(untimed).toBeNull();
    expect([...fromPass.values()].some((s) => s.calls.length > 0)).toBe(true);
    // Every session with calls is the same; the pass may also list sessions only its kept lines named.
    for (const [id, s] of fromFull) if (s.calls.length > 0) expect(fromPass.get(id), id).toEqual(s);
    for (const [id, s] of fromPass) if (s.calls.length > 0) expect(fromFull.get(id)?.calls, id).toEqual(s.calls);
  });

  it('a generated Claude Code corpus with sub-agent files and their progress mirrors', async () => {
    const config = join(tempDir('hs-gen-'), 'claude');
    generateClaudeCode(config, { targetBytes: 1.5e6, seed: 7 });
    const claude = await loadImporter('claude-code');
    const { fromFull, fromPass } = await bothWays(claude, config);
    const withCalls = (m: Map<string, { calls: unknown[] }>) => new Map([...m].filter(([, s]) => s.calls.length > 0));
    expect(withCalls(fromPass).size).toBeGreaterThan(3);
    expect(withCalls(fromPass)).toEqual(withCalls(fromFull));
  });

  it('runtime sessions: model_call records, the handoff child under its parent', async () => {
    const root = runtimeSessions(tempDir('hs-data-'));
    const runtime = await loadImporter('hindsight');
    const { fromFull, fromPass } = await bothWays(runtime, root);
    expect(fromPass.get(CHILD)).toMatchObject({ parentId: ID, projectPath: '/srv/app' });
    expect(fromPass.get(ID)!.calls).toHaveLength(2);
    expect(fromPass).toEqual(fromFull);
  });
});

describe('the pass on two threads', () => {
  let worker: URL;
  beforeAll(() => {
    worker = bundledWorker();
  });
  afterEach(() => useUsageWorkerUrl(undefined));

  it('gives what one thread gives, over Claude Code and runtime sessions at once', async () => {
    const home = tempDir('hs-home-');
    const config = join(tempDir('hs-gen-'), 'claude');
    generateClaudeCode(config, { targetBytes: 1e6, seed: 11 });
    runtimeSessions(join(home, 'data'));
    const env = { HOME: home, XDG_DATA_HOME: join(home, 'data'), CLAUDE_CONFIG_DIR: config };
    useUsageWorkerUrl(null);
    const one = await usagePass(LONG_CONTEXT_THRESHOLD, env, home);
    useUsageWorkerUrl(worker);
    const two = await usagePass(LONG_CONTEXT_THRESHOLD, env, home);
    expect(one.ok && two.ok).toBe(true);
    if (!one.ok || !two.ok) return;
    expect(one.result.roots.map((r) => r.format).sort()).toEqual(['claude-code', 'hindsight']);
    expect(two.result.groups.length).toBeGreaterThan(3);
    expect(two.result).toEqual(one.result);
  });

  it('a worker that cannot start costs nothing but time: its files are read here', async () => {
    const home = tempDir('hs-home-');
    const config = copyFixture('claude-code');
    const env = { HOME: home, XDG_DATA_HOME: join(home, 'data'), CLAUDE_CONFIG_DIR: config };
    useUsageWorkerUrl(null);
    const one = await usagePass(LONG_CONTEXT_THRESHOLD, env, home);
    useUsageWorkerUrl(pathToFileURL(join(tempDir(), 'missing-worker.mjs')));
    const broken = await usagePass(LONG_CONTEXT_THRESHOLD, env, home);
    expect(broken).toEqual(one);
  });
});

/**
 * A worker that claims every unit left, says how many in the file `mark`, and exits without
 * posting any.
 */
function useDyingWorker(): { mark: string } {
  const dir = tempDir('hs-worker-');
  const dying = join(dir, 'dying-worker.mjs');
  const mark = join(dir, 'claimed');
  writeFileSync(
    dying,
    `import { writeFileSync } from 'node:fs';\nimport { parentPort } from 'node:worker_threads';\n` +
      `parentPort.on('message', (m) => { if (!('read' in m)) return; const k = Atomics.add(new Int32Array(m.claims), 0, 1e6); if (k < m.units.length) { writeFileSync(${JSON.stringify(mark)}, String(m.units.length - k)); process.exit(3); } });\n`,
  );
  useUsageWorkerUrl(pathToFileURL(dying));
  return { mark };
}

/** `importer` with every file's reading held up by `ms` on this thread (the worker loads its own, untouched). */
function slowHere(importer: Importer, ms: number): Importer {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  return {
    ...importer,
    usageLines(file, options) {
      Atomics.wait(pause, 0, 0, ms);
      return importer.usageLines!(file, options);
    },
  };
}

describe('units shared between the threads', () => {
  let worker: URL;
  beforeAll(() => {
    worker = bundledWorker();
  });
  afterEach(() => useUsageWorkerUrl(undefined));

  it('a unit is a file, or a chain group\'s files in order; the larger units come first', () => {
    const dir = tempDir('hs-units-');
    const file = (name: string, bytes: number, chainGroup?: string): SourceFile => {
      writeFileSync(join(dir, name), 'x'.repeat(bytes));
      return { path: join(dir, name), root: dir, relPath: name, ledger: name, ledgerRank: 0, kind: 'jsonl', ...(chainGroup && { chainGroup }) };
    };
    const files = [file('a', 10), file('g1', 30, 'g'), file('b', 50), file('g2', 30, 'g'), file('c', 10), file('gone', 0)];
    files[5]!.path = join(dir, 'missing');
    // g: 60 bytes in two files, kept together in discovery order; a and c tie and keep their order.
    expect(readingUnits(files)).toEqual([[1, 3], [2], [0], [4], [5]]);
  });

  /** A generated root's files, read here alone (the reference) and by a reader with a worker. */
  async function generated(seed: number) {
    const config = join(tempDir('hs-gen-'), 'claude');
    generateClaudeCode(config, { targetBytes: 8e5, seed });
    const claude = await loadImporter('claude-code');
    const files = await claude.discover(config);
    return { claude, files, alone: readUsageUnit(claude, files, files.map((_, i) => i)) };
  }

  it('both threads take units, and the usages are those of one thread in discovery order', async () => {
    const { claude, files, alone } = await generated(21);
    useUsageWorkerUrl(worker);
    const reader = usageReader();
    try {
      // The worker loads while the first reads run here alone; with this side slowed down it soon
      // takes units too. However the units fall, the answer is the one thread's.
      let reads = 0;
      for (; reads < 100 && reader.shares.worker === 0; reads++) expect(await reader.read(slowHere(claude, 20), files)).toEqual(alone);
      expect(reader.shares.worker).toBeGreaterThan(0);
      for (const importer of [claude, slowHere(claude, 5), slowHere(claude, 40)]) expect(await reader.read(importer, files)).toEqual(alone);
      expect(reader.shares.here).toBeGreaterThan(0);
      expect(reader.shares.here + reader.shares.worker).toBe((reads + 3) * readingUnits(files).length);
    } finally {
      reader.close();
    }
  });

  it('a worker that dies holding units: they are read here', async () => {
    const { claude, files, alone } = await generated(22);
    const { mark } = useDyingWorker();
    const reader = usageReader();
    try {
      // Until the worker has started and claimed units (this side slowed down to let it).
      for (let i = 0; i < 100 && !existsSync(mark); i++) expect(await reader.read(slowHere(claude, 20), files)).toEqual(alone);
      expect(Number(readFileSync(mark, 'utf8'))).toBeGreaterThan(0);
      expect(reader.shares.worker).toBe(0);
      // The next read has no worker: all of it here.
      expect(await reader.read(claude, files)).toEqual(alone);
    } finally {
      reader.close();
    }
  });
});

describe('session groups summarised where they are read', () => {
  let worker: URL;
  beforeAll(() => {
    worker = bundledWorker();
  });
  afterEach(() => useUsageWorkerUrl(undefined));

  /** Rows in one order, whatever order they came in. */
  const sorted = <T>(rows: T[]) => rows.map((r) => JSON.stringify(r)).sort();

  it('Claude Code cuts a root by top-level session: each group\'s summary, put together, is the whole root\'s', async () => {
    const config = join(tempDir('hs-gen-'), 'claude');
    generateClaudeCode(config, { targetBytes: 4e6, seed: 23 });
    const claude = await loadImporter('claude-code');
    const files = await claude.discover(config);
    const keys = claude.usageGroups!(files)!;
    expect(new Set(keys).size).toBeGreaterThan(3);
    expect(new Set(keys).size).toBeLessThan(files.length); // sub-agent files join their parent's group
    const whole = rootUsage(claude, readUsageUnit(claude, files, files.map((_, i) => i)));
    // Discovery order of the groups' first files: the order summarize gives them in.
    const alone = readingUnits(files, keys)
      .sort((a, b) => a[0]! - b[0]!)
      .map((unit) => unitSummary(claude, files, unit, LONG_CONTEXT_THRESHOLD));
    expect(sorted(alone.flatMap((u) => u.sessions))).toEqual(sorted(whole.sessions));
    expect(sorted(alone.flatMap((u) => u.groups))).toEqual(sorted(groupUsageCalls(whole.calls, LONG_CONTEXT_THRESHOLD)));

    // The worker summarises the groups it claims and posts those: the same summaries, in the same order.
    useUsageWorkerUrl(worker);
    const reader = usageReader();
    try {
      for (let i = 0; i < 100 && reader.shares.worker === 0; i++) expect(await reader.summarize(slowHere(claude, 20), files, keys, LONG_CONTEXT_THRESHOLD)).toEqual(alone);
      expect(reader.shares.worker).toBeGreaterThan(0);
      expect(await reader.summarize(claude, files, keys, LONG_CONTEXT_THRESHOLD)).toEqual(alone);
    } finally {
      reader.close();
    }
  });

  it('a worker that dies holding session groups: they are summarised here', async () => {
    const config = join(tempDir('hs-gen-'), 'claude');
    generateClaudeCode(config, { targetBytes: 4e6, seed: 25 });
    const claude = await loadImporter('claude-code');
    const files = await claude.discover(config);
    const keys = claude.usageGroups!(files)!;
    useUsageWorkerUrl(null);
    const one = usageReader();
    const alone = await one.summarize(claude, files, keys, LONG_CONTEXT_THRESHOLD);
    one.close();
    expect(alone.length).toBeGreaterThan(3);
    const { mark } = useDyingWorker();
    const reader = usageReader();
    try {
      for (let i = 0; i < 100 && !existsSync(mark); i++) expect(await reader.summarize(slowHere(claude, 20), files, keys, LONG_CONTEXT_THRESHOLD)).toEqual(alone);
      expect(Number(readFileSync(mark, 'utf8'))).toBeGreaterThan(0);
      expect(reader.shares.worker).toBe(0);
    } finally {
      reader.close();
    }
  });

  it('a cut that does not hold (a sub-agent apart from its parent) is noticed: the root is read whole', async () => {
    const config = join(tempDir('hs-gen-'), 'claude');
    generateClaudeCode(config, { targetBytes: 8e5, seed: 24 });
    const claude = await loadImporter('claude-code');
    const files = await claude.discover(config);
    const fileByFile: Importer = { ...claude, usageGroups: (fs) => fs.map((f) => f.relPath) };
    const uncut: Importer = { ...claude, usageGroups: undefined };
    // Cut file by file, the parents would count their sub-agents' mirrored calls too.
    const apart = readingUnits(files, fileByFile.usageGroups!(files)!).map((unit) => unitSummary(claude, files, unit, LONG_CONTEXT_THRESHOLD));
    const whole = groupUsageCalls(rootUsage(claude, readUsageUnit(claude, files, files.map((_, i) => i))).calls, LONG_CONTEXT_THRESHOLD);
    expect(sorted(apart.flatMap((u) => u.groups))).not.toEqual(sorted(whole));

    useUsageWorkerUrl(null);
    const reader = usageReader();
    try {
      const got = await rootSummary(fileByFile, files, reader, LONG_CONTEXT_THRESHOLD);
      expect(got.ok).toBe(true);
      if (!got.ok) return;
      expect(sorted(got.groups)).toEqual(sorted(whole));
      expect(got).toEqual(await rootSummary(uncut, files, reader, LONG_CONTEXT_THRESHOLD));
    } finally {
      reader.close();
    }
  });

  it('Claude Code does not cut a root holding a file whose session only its lines name (an older-layout agent file)', async () => {
    const claude = await loadImporter('claude-code');
    const file = (relPath: string, sessionId?: string, parentId?: string): SourceFile => ({
      path: `/x/${relPath}`,
      root: '/x',
      relPath,
      ledger: 'transcript',
      ledgerRank: 0,
      kind: 'jsonl',
      ...(sessionId && { sessionId, facts: [{ id: sessionId, format: 'claude-code', ...(parentId && { parentId }) }] }),
    });
    const files = [file('p/a.jsonl', 'a'), file('p/a/subagents/agent-1.jsonl', 'a:1', 'a'), file('p/b.jsonl', 'b')];
    expect(claude.usageGroups!(files)).toEqual(['a', 'a', 'b']);
    expect(claude.usageGroups!([...files, file('p/agent-2.jsonl')])).toBeNull();
  });
});
