// Layout: detecting plane roots, roots from the environment, which files are ledgers, and the
// promise never to write into a plane root.

import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runImporter } from '../harness.js';
import { controlPlane } from './index.js';

const FIXTURES = fileURLToPath(new URL('../../../../shared/fixtures/control-plane/', import.meta.url));

const temps: string[] = [];
afterEach(() => {
  for (const t of temps.splice(0)) rmSync(t, { recursive: true, force: true });
});
function temp(): string {
  const d = mkdtempSync(join(tmpdir(), 'hindsight-cp-'));
  temps.push(d);
  return d;
}
function touch(root: string, rel: string, text = '') {
  mkdirSync(join(root, rel, '..'), { recursive: true });
  writeFileSync(join(root, rel), text);
}
function tree(root: string): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true }).map((d) => {
    const p = join(d.parentPath, d.name);
    const s = statSync(p);
    return `${relative(root, p)} ${s.isDirectory() ? 'dir' : s.size} ${s.mtimeMs}`;
  }).sort();
}

describe('detect', () => {
  it('recognises plane roots by any of the three ledgers, active or rotated', async () => {
    expect(await controlPlane.detect(`${FIXTURES}normal`)).toBe(true);
    expect(await controlPlane.detect(`${FIXTURES}edge`)).toBe(true);
    const onlySegment = temp();
    touch(onlySegment, 'HOT/ledger/governance-20260214-200318.jsonl');
    expect(await controlPlane.detect(onlySegment)).toBe(true);
  });

  it('rejects folders without ledgers', async () => {
    const other = temp();
    touch(other, 'HO2/ledger/notes.jsonl');
    touch(other, 'HO1/ledger/ho1m-latest.jsonl');
    mkdirSync(join(other, 'HOT/ledger/governance.jsonl'), { recursive: true }); // a directory, not a ledger
    expect(await controlPlane.detect(other)).toBe(false);
    expect(await controlPlane.detect(join(other, 'missing'))).toBe(false);
  });
});

describe('defaultRoots', () => {
  it('takes existing roots from HINDSIGHT_CP_ROOT only', async () => {
    const a = temp();
    const b = temp();
    const roots = await controlPlane.defaultRoots({ HINDSIGHT_CP_ROOT: ` ${a},${join(a, 'nope')},${b},${a}` }, '/home/x');
    expect(roots).toEqual([a, b]);
    expect(await controlPlane.defaultRoots({}, a)).toEqual([]);
  });
});

describe('discover', () => {
  it('lists each ledger as segments then active file, ignoring idx/ and index.jsonl', async () => {
    const root = temp();
    cpSync(`${FIXTURES}edge`, root, { recursive: true });
    touch(root, 'HO2/ledger/index.jsonl', '{"note": "index"}\n');
    touch(root, 'HO2/ledger/idx/ho2m.idx', 'x');
    touch(root, 'HO1/ledger/idx/ho1m-20260214-200232.jsonl', '{}\n');
    const files = await controlPlane.discover(root);
    expect(files.map((f) => [f.relPath, f.ledger, f.ledgerRank, f.chainGroup, f.sessionId])).toEqual([
      ['HO2/ledger/ho2m-20260214-200318.jsonl', 'ho2m', 0, 'ho2m', undefined],
      ['HO2/ledger/ho2m.jsonl', 'ho2m', 0, 'ho2m', undefined],
      ['HO1/ledger/ho1m-20260214-200232.jsonl', 'ho1m', 1, 'ho1m', undefined],
      ['HO1/ledger/ho1m.jsonl', 'ho1m', 1, 'ho1m', undefined],
      ['HOT/ledger/governance-20260214-200318.jsonl', 'governance', 2, 'governance', undefined],
      ['HOT/ledger/governance.jsonl', 'governance', 2, 'governance', undefined],
    ]);
    expect(files.every((f) => f.root === root && f.path === join(root, f.relPath) && f.kind === 'jsonl')).toBe(true);
    expect(files.flatMap((f) => f.notes ?? []).map((n) => `${n.severity} ${n.kind} ${n.file}`)).toEqual([
      'info rotated_segment HO2/ledger/ho2m-20260214-200318.jsonl',
      'info rotated_segment HO1/ledger/ho1m-20260214-200232.jsonl',
      'info rotated_segment HOT/ledger/governance-20260214-200318.jsonl',
    ]);
  });

  it('never writes into the plane root', async () => {
    const root = temp();
    cpSync(`${FIXTURES}edge`, root, { recursive: true });
    const before = tree(root);
    await controlPlane.detect(root);
    await runImporter(controlPlane, root);
    expect(tree(root)).toEqual(before);
  });
});
