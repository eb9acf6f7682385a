// Checks the bench corpus generators: valid JSONL, byte-for-byte determinism, the real-corpus line-size
// shape for Claude Code, and the session kinds (sub-agents, forks) the importers must see.

import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateAmplifier, type AmplifierStats } from './amplifier.js';
import { generateClaudeCode } from './claude-code.js';
import type { GenStats } from './prng.js';

const TARGET = 5_000_000;
type Obj = Record<string, any>;

const tmp = mkdtempSync(join(tmpdir(), 'hindsight-gen-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else out.push(p);
  }
  return out;
}

/** Hash of every file's relative path and bytes, in sorted order: equal hashes mean identical corpora. */
function corpusHash(root: string): string {
  const h = createHash('sha256');
  for (const f of walk(root)) h.update(relative(root, f)).update('\0').update(readFileSync(f));
  return h.digest('hex');
}

/** Parsed lines of a JSONL file plus raw byte sizes; fails on a line that is not a JSON object. */
function readJsonl(path: string): { objs: Obj[]; sizes: number[]; raw: string[] } {
  const buf = readFileSync(path);
  if (buf.length > 0) expect(buf[buf.length - 1], `${path} ends with a newline`).toBe(10);
  const raw = buf.toString('utf8').split('\n').slice(0, -1);
  const objs = raw.map((l) => JSON.parse(l) as unknown);
  for (const o of objs) expect(o !== null && typeof o === 'object' && !Array.isArray(o)).toBe(true);
  return { objs: objs as Obj[], sizes: raw.map((l) => Buffer.byteLength(l) + 1), raw };
}

function percentile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
}

function expectStatsMatchDisk(root: string, stats: GenStats): void {
  const files = walk(root);
  const jsonl = files.filter((f) => f.endsWith('.jsonl'));
  expect(stats.files).toBe(files.length);
  expect(stats.bytes).toBe(files.reduce((n, f) => n + statSync(f).size, 0));
  expect(stats.lines).toBe(jsonl.reduce((n, f) => n + readJsonl(f).objs.length, 0));
}

describe('generateClaudeCode', () => {
  const root = join(tmp, 'cc-a');
  let stats: GenStats;
  let files: { path: string; objs: Obj[]; sizes: number[] }[];

  beforeAll(() => {
    stats = generateClaudeCode(root, { targetBytes: TARGET, seed: 1 });
    files = walk(root).filter((f) => f.endsWith('.jsonl')).map((path) => ({ path, ...readJsonl(path) }));
  });

  it('stops just past targetBytes and reports counts that match the disk', () => {
    expect(stats.bytes).toBeGreaterThanOrEqual(TARGET);
    expect(stats.bytes).toBeLessThan(TARGET * 1.5);
    expect(stats.sessions).toBeGreaterThan(1);
    expectStatsMatchDisk(root, stats);
  });

  it('is deterministic per seed: same seed gives the same bytes, another seed differs', () => {
    const again = join(tmp, 'cc-b');
    const other = join(tmp, 'cc-c');
    generateClaudeCode(again, { targetBytes: TARGET, seed: 1 });
    generateClaudeCode(other, { targetBytes: TARGET, seed: 2 });
    expect(corpusHash(again)).toBe(corpusHash(root));
    expect(corpusHash(other)).not.toBe(corpusHash(root));
  });

  it('follows the real line-size distribution and type mix', () => {
    const sizes = files.flatMap((f) => f.sizes).sort((a, b) => a - b);
    const objs = files.flatMap((f) => f.objs);
    expect(percentile(sizes, 0.5)).toBeGreaterThanOrEqual(400);
    expect(percentile(sizes, 0.5)).toBeLessThanOrEqual(1000);
    expect(percentile(sizes, 0.9)).toBeGreaterThanOrEqual(1500);
    expect(percentile(sizes, 0.9)).toBeLessThanOrEqual(3500);
    expect(sizes[sizes.length - 1]).toBeLessThanOrEqual(200_000);
    const progress = objs.filter((o) => o.type === 'progress').length / objs.length;
    expect(progress).toBeGreaterThanOrEqual(0.55);
    expect(progress).toBeLessThanOrEqual(0.7);
    const nonAscii = files.flatMap((f) => readFileSync(f.path, 'utf8').split('\n').slice(0, -1))
      .filter((l) => /[^\x00-\x7f]/.test(l)).length / objs.length;
    expect(nonAscii).toBeGreaterThan(0.07);
    expect(nonAscii).toBeLessThan(0.25);
    for (const type of ['user', 'assistant', 'system', 'file-history-snapshot', 'queue-operation']) {
      expect(objs.some((o) => o.type === type), type).toBe(true);
    }
    for (const sub of ['turn_duration', 'compact_boundary', 'local_command']) {
      expect(objs.some((o) => o.subtype === sub), sub).toBe(true);
    }
    const compact = objs.find((o) => o.subtype === 'compact_boundary') as Obj;
    expect(compact.parentUuid).toBeNull();
    expect(typeof compact.logicalParentUuid).toBe('string');
    expect(compact.compactMetadata.preTokens).toBeGreaterThan(0);
  });

  it('writes chained, monotonic lines with the common fields', () => {
    for (const f of files) {
      const seen = new Set<string>();
      let last = '';
      for (const o of f.objs) {
        if (o.type === 'summary' || o.type === 'file-history-snapshot') {
          expect(o.timestamp).toBeUndefined();
          continue;
        }
        expect(o.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        expect(o.timestamp >= last, `${f.path}: time goes forward`).toBe(true);
        last = o.timestamp;
        if (o.type === 'queue-operation') continue;
        for (const k of ['uuid', 'sessionId', 'cwd', 'version', 'gitBranch']) expect(typeof o[k], k).toBe('string');
        if (o.parentUuid !== null) expect(seen.has(o.parentUuid), 'parent written earlier').toBe(true);
        seen.add(o.uuid);
      }
    }
  });

  it('splits each API response into lines sharing message.id and requestId, output_tokens not decreasing', () => {
    const byId = new Map<string, Obj[]>();
    for (const o of files.flatMap((f) => f.objs)) {
      if (o.type !== 'assistant') continue;
      byId.set(o.message.id, [...(byId.get(o.message.id) ?? []), o]);
      expect(['claude-opus-4-6', 'claude-sonnet-4-5', 'claude-haiku-4-5-20251001']).toContain(o.message.model);
      expect(o.message.content).toHaveLength(1);
      const u = o.message.usage;
      expect(u.cache_creation.ephemeral_5m_input_tokens + u.cache_creation.ephemeral_1h_input_tokens).toBe(u.cache_creation_input_tokens);
    }
    const split = [...byId.values()].filter((lines) => lines.length > 1);
    expect(split.length).toBeGreaterThan(10);
    for (const lines of split) {
      expect(new Set(lines.map((l) => l.requestId)).size).toBe(1);
      const outs = lines.map((l) => l.message.usage.output_tokens as number);
      for (let i = 1; i < outs.length; i++) expect(outs[i]).toBeGreaterThanOrEqual(outs[i - 1] as number);
    }
  });

  it('writes sub-agents in the new layout, linked from the parent Task result and agent_progress', () => {
    const agents = files.filter((f) => f.path.includes(`${join('subagents', 'agent-')}`));
    expect(agents.length).toBeGreaterThan(0);
    for (const a of agents) {
      const id = basename(a.path).match(/^agent-([0-9a-f]{7})\.jsonl$/)?.[1] as string;
      expect(id).toBeDefined();
      const sessionDir = dirname(dirname(a.path));
      const parentPath = `${sessionDir}.jsonl`;
      expect(existsSync(join(dirname(a.path), `agent-${id}.meta.json`))).toBe(true);
      expect(a.objs.every((o) => o.isSidechain === true && o.agentId === id && o.sessionId === basename(sessionDir))).toBe(true);
      expect(a.objs[0]?.parentUuid).toBeNull();
      const parent = files.find((f) => f.path === parentPath) as { objs: Obj[] };
      expect(parent.objs.some((o) => o.toolUseResult?.agentId === id)).toBe(true);
      expect(parent.objs.some((o) => o.data?.type === 'agent_progress' && o.data.agentId === id && o.data.message.message.usage))
        .toBe(true);
    }
  });

  it('honours the sessionsPerProject cap; a later session opens with a summary of an earlier one', () => {
    const capped = join(tmp, 'cc-cap');
    const s = generateClaudeCode(capped, { targetBytes: 1e12, seed: 3, projects: 2, sessionsPerProject: 2 });
    expect(s.sessions).toBe(4);
    const projects = readdirSync(join(capped, 'projects'));
    expect(projects).toHaveLength(2);
    const leaves = new Map<string, string>();
    const summaries: { project: string; leafUuid: string }[] = [];
    for (const f of walk(capped).filter((p) => p.endsWith('.jsonl') && !p.includes('subagents'))) {
      const { objs } = readJsonl(f);
      const project = basename(dirname(f));
      leaves.set(objs[objs.length - 1]?.uuid as string, project);
      for (const o of objs) if (o.type === 'summary') summaries.push({ project, leafUuid: o.leafUuid });
    }
    expect(summaries.length).toBeGreaterThan(0);
    for (const sm of summaries) expect(leaves.get(sm.leafUuid)).toBe(sm.project);
  });
});

describe('generateAmplifier', () => {
  const home = join(tmp, 'amp-a');
  let stats: AmplifierStats;
  let sessions: { id: string; dir: string; meta: Obj; transcript: Obj[]; events: Obj[]; eventSizes: number[] }[];

  beforeAll(() => {
    stats = generateAmplifier(home, { targetBytes: TARGET, seed: 1 });
    sessions = walk(home).filter((f) => basename(f) === 'metadata.json').map((f) => {
      const dir = dirname(f);
      const ev = readJsonl(join(dir, 'events.jsonl'));
      return { id: basename(dir), dir, meta: JSON.parse(readFileSync(f, 'utf8')) as Obj,
        transcript: readJsonl(join(dir, 'transcript.jsonl')).objs, events: ev.objs, eventSizes: ev.sizes };
    });
  });

  it('writes the session layout and counts that match the disk', () => {
    expect(stats.bytes).toBeGreaterThanOrEqual(TARGET);
    expectStatsMatchDisk(home, stats);
    const dirs = walk(home).map(dirname).filter((d) => basename(dirname(d)) === 'sessions');
    for (const d of new Set(dirs)) {
      expect(readdirSync(d).sort()).toEqual(['events.jsonl', 'metadata.json', 'transcript.jsonl']);
    }
    for (const s of sessions) expect(s.meta.session_id).toBe(s.id);
    expect(sessions.length).toBe(stats.sessions + stats.subagents);
  });

  it('is deterministic per seed', () => {
    const again = join(tmp, 'amp-b');
    const other = join(tmp, 'amp-c');
    generateAmplifier(again, { targetBytes: TARGET, seed: 1 });
    generateAmplifier(other, { targetBytes: TARGET, seed: 2 });
    expect(corpusHash(again)).toBe(corpusHash(home));
    expect(corpusHash(other)).not.toBe(corpusHash(home));
  });

  it('has sub-agents and a fork linked to their parents', () => {
    const ids = new Set(sessions.map((s) => s.id));
    const subs = sessions.filter((s) => s.id.includes('_'));
    expect(subs.length).toBeGreaterThan(0);
    for (const s of subs) {
      expect(s.id).toMatch(/^[0-9a-f]{16}-[0-9a-f]{16}_[a-z-]+$/);
      expect(ids.has(s.meta.parent_id)).toBe(true);
      expect(s.meta.agent_name).toContain(':');
      expect(s.events[0]?.data.parent_id).toBe(s.meta.parent_id);
    }
    const forks = sessions.filter((s) => !s.id.includes('_') && s.meta.parent_id);
    expect(forks.length).toBeGreaterThan(0);
    for (const f of forks) {
      const parent = sessions.find((s) => s.id === f.meta.parent_id) as (typeof sessions)[number];
      expect(f.meta.forked_from_turn).toBeGreaterThan(0);
      expect(f.transcript.slice(0, 2)).toEqual(parent.transcript.slice(0, 2));
    }
  });

  it('writes events and transcripts shaped like the logging hook and the CLI store', () => {
    const names = new Set(sessions.flatMap((s) => s.events.map((e) => e.event as string)));
    for (const n of ['session:start', 'session:end', 'prompt:submit', 'prompt:complete', 'provider:request', 'provider:response',
      'llm:request', 'llm:response', 'content_block:start', 'content_block:end', 'tool:pre', 'tool:post', 'orchestrator:complete',
      'execution:start', 'execution:end']) {
      expect(names.has(n), n).toBe(true);
    }
    for (const s of sessions) {
      let last = '';
      s.events.forEach((e, i) => {
        expect(e.ts).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}\+00:00$/);
        expect(e.ts > last).toBe(true);
        last = e.ts;
        expect(e.schema).toEqual({ name: 'amplifier.log', ver: '1.0.0' });
        expect(['INFO', 'DEBUG', 'ERROR']).toContain(e.lvl);
        expect('parent_id' in e.data).toBe(true);
        if (e.event === 'llm:request') expect(s.eventSizes[i]).toBeGreaterThan(30_000);
        if (e.event === 'llm:response') expect(typeof e.data.usage.cost_usd).toBe('string');
      });
      expect(s.transcript.filter((m) => m.role === 'user')).toHaveLength(s.meta.turn_count);
      const called = new Set<string>();
      for (const m of s.transcript) {
        expect(typeof m.metadata.timestamp).toBe('string');
        if (m.role === 'assistant') for (const b of m.content) if (b.type === 'tool_call') called.add(b.id);
        if (m.role === 'tool') expect(called.has(m.tool_call_id)).toBe(true);
      }
    }
  });
});
