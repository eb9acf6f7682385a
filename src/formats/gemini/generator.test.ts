// The bench's Gemini home generator (bench/generators/gemini.ts): deterministic per seed, every
// file in the shape Gemini CLI writes, and read back whole by the importer.

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateGemini } from '../../../bench/generators/gemini.js';
import { tempDir } from '../../../test/helpers.js';
import { runImporter } from '../harness.js';
import { gemini } from './index.js';

function walk(dir: string): string[] {
  return readdirSync(dir).sort().flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

function corpusHash(root: string): string {
  const h = createHash('sha256');
  for (const f of walk(root)) h.update(relative(root, f)).update('\0').update(readFileSync(f));
  return h.digest('hex');
}

describe('generateGemini', () => {
  it('writes the same home for the same seed, and another for another seed', () => {
    const [a, b, c] = [tempDir('hs-gen-'), tempDir('hs-gen-'), tempDir('hs-gen-')];
    generateGemini(a, { sessions: 12, seed: 5 });
    generateGemini(b, { sessions: 12, seed: 5 });
    generateGemini(c, { sessions: 12, seed: 6 });
    expect(corpusHash(a)).toBe(corpusHash(b));
    expect(corpusHash(a)).not.toBe(corpusHash(c));
  });

  it('writes chats the importer reads without a finding, with the sessions, sub-agents and calls it counted', async () => {
    const home = tempDir('hs-gen-');
    const stats = generateGemini(home, { sessions: 30, seed: 21 });
    const files = walk(home);
    expect(stats.files).toBe(files.length);
    expect(stats.bytes).toBe(files.reduce((n, f) => n + statSync(f).size, 0));
    for (const f of files.filter((x) => x.endsWith('.jsonl'))) {
      for (const line of readFileSync(f, 'utf8').trimEnd().split('\n')) expect(typeof JSON.parse(line)).toBe('object');
    }
    const r = await runImporter(gemini, home);
    expect(r.defects.filter((d) => d.severity !== 'info')).toEqual([]);
    const sessions = [...r.sessions.values()];
    expect(sessions.filter((s) => s.facts.kind === 'root')).toHaveLength(stats.sessions);
    expect(sessions.filter((s) => s.facts.kind === 'subagent')).toHaveLength(stats.subagents);
    expect(sessions.reduce((n, s) => n + s.summary.llmCalls, 0)).toBe(stats.calls);
    // Project paths come from .project_root for slug folders and are proven from tool arguments in
    // hash folders; only a hash-folder chat that never named a path leaves it unknown.
    const unknown = sessions.filter((s) => s.facts.projectPath === undefined);
    expect(unknown.every((s) => /^[0-9a-f]{64}$/.test(s.facts.project ?? '') && s.summary.toolCalls === 0)).toBe(true);
    expect(unknown.length).toBeLessThan(sessions.length / 4);
    expect(new Set(sessions.map((s) => s.summary.status))).toEqual(new Set(['completed', 'interrupted']));
  });
});
