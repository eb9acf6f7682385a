// The generated plane root imports with intact chains, the expected sessions, and is
// reproducible from its seed.

import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { controlPlane } from '../../src/formats/control-plane/index.js';
import { runImporter } from '../../src/formats/harness.js';
import { generateControlPlane } from './control-plane.js';

const base = mkdtempSync(join(tmpdir(), 'hindsight-cp-gen-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const digest = (root: string, files: string[]) =>
  files.map((f) => `${relative(root, f)} ${createHash('sha256').update(readFileSync(f)).digest('hex')}`);

describe('generateControlPlane', () => {
  it('writes a root that imports with intact chains and every session', async () => {
    const root = join(base, 'a');
    const g = generateControlPlane(root, { sessions: 24, seed: 5, rotateBytes: 256 * 1024 });
    expect(g.sessions).toBe(24);
    const r = await runImporter(controlPlane, root);
    expect(r.sessions.size).toBe(24);
    expect(r.events).toHaveLength(g.entries);
    expect(r.files.map((f) => f.path).sort()).toEqual([...g.files].sort());
    // Rotation happened, and nothing else was found: chains link across every segment.
    expect(r.defects.filter((d) => d.kind === 'rotated_segment').length).toBeGreaterThan(0);
    expect(r.defects.filter((d) => d.kind !== 'rotated_segment')).toEqual([]);
    const statuses = new Set([...r.sessions.values()].map((s) => s.summary.status));
    expect(statuses).toEqual(new Set(['completed', 'errored', 'active']));
    for (const [id, s] of r.sessions) {
      expect(s.summary.startedAt, id).not.toBeNull();
      if (s.summary.status === 'completed') expect(s.summary.turnCount).toBeGreaterThan(0);
      expect(s.summary.tokens.input, id).toBeGreaterThan(0);
    }
  });

  it('is deterministic for a seed and differs across seeds', () => {
    const a = generateControlPlane(join(base, 'b1'), { sessions: 5, seed: 9 });
    const b = generateControlPlane(join(base, 'b2'), { sessions: 5, seed: 9 });
    const c = generateControlPlane(join(base, 'b3'), { sessions: 5, seed: 10 });
    expect(digest(join(base, 'b1'), a.files)).toEqual(digest(join(base, 'b2'), b.files));
    expect(digest(join(base, 'b1'), a.files)).not.toEqual(digest(join(base, 'b3'), c.files));
    expect(a.bytes).toBe(b.bytes);
  });

  it('keeps starting sessions until targetBytes is reached', () => {
    const g = generateControlPlane(join(base, 'c'), { sessions: 1, seed: 3, targetBytes: 2_000_000 });
    expect(g.bytes).toBeGreaterThanOrEqual(2_000_000);
    expect(g.sessions).toBeGreaterThan(1);
    const onDisk = g.files.reduce((n, f) => n + readFileSync(f).length, 0);
    expect(onDisk).toBe(g.bytes);
  });
});
