// The corpus generator (bench/generators/codex.ts): deterministic per seed, and every rollout it
// writes reads without a finding beyond those its shape calls for.

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateCodex } from '../../../bench/generators/codex.js';
import { tempDir } from '../../../test/helpers.js';
import { runImporter } from '../harness.js';
import { codex } from './index.js';

function files(dir: string): string[] {
  return readdirSync(dir).sort().flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : [join(dir, n)]));
}

function hash(root: string): string {
  const h = createHash('sha256');
  for (const f of files(root)) h.update(relative(root, f)).update(readFileSync(f));
  return h.digest('hex');
}

describe('codex corpus generator', () => {
  it('writes the same home for the same seed', () => {
    const a = tempDir('hs-codex-gen-');
    const b = tempDir('hs-codex-gen-');
    generateCodex(a, { sessions: 8, seed: 5 });
    generateCodex(b, { sessions: 8, seed: 5 });
    expect(hash(a)).toBe(hash(b));
  });

  it('writes rollouts the importer reads cleanly: forks, sub-agents, Desktop sessions', async () => {
    const root = tempDir('hs-codex-gen-');
    const stats = generateCodex(root, { sessions: 40, seed: 21 });
    const r = await runImporter(codex, root);
    expect(r.sessions.size).toBe(stats.sessions);
    // Only warnings the shape calls for: calls left unanswered by an aborted turn.
    expect(r.defects.filter((d) => d.severity !== 'info')).toEqual([]);
    const kinds = [...r.sessions.values()].map((s) => s.facts.kind);
    expect(kinds.filter((k) => k === 'fork')).toHaveLength(stats.forks);
    expect(kinds.filter((k) => k === 'subagent')).toHaveLength(stats.subagents);
    const unknown = [...r.sessions.values()].filter((s) => s.summary.attrs?.usage === 'unknown');
    expect(unknown).toHaveLength(stats.withoutUsage);
    for (const s of r.sessions.values()) expect(s.summary.turnCount).toBeGreaterThan(0);
  });
});
