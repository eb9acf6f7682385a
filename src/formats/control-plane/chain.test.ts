// Hash-chain verification across appended lines (resume), rotated segments and damaged copies.
// Every mutation happens on a copy in a temp dir.

import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { Defect } from '../../core/model.js';
import { parseJsonlFile, type ParsedEvent } from '../../ingest/parse-file.js';
import { runImporter } from '../harness.js';
import type { LineParser, SourceFile } from '../importer.js';
import { controlPlane } from './index.js';

const NORMAL = fileURLToPath(new URL('../../../../shared/fixtures/control-plane/normal/', import.meta.url));
const HO2_LINES = readFileSync(`${NORMAL}HO2/ledger/ho2m.jsonl`, 'utf8').split('\n').filter(Boolean);
const HO1_LINES = readFileSync(`${NORMAL}HO1/ledger/ho1m.jsonl`, 'utf8').split('\n').filter(Boolean);

const temps: string[] = [];
afterEach(() => {
  for (const t of temps.splice(0)) rmSync(t, { recursive: true, force: true });
});

/** A plane root holding the given files (relPath → lines). */
function plane(files: Record<string, string[]>): string {
  const root = mkdtempSync(join(tmpdir(), 'hindsight-cp-'));
  temps.push(root);
  for (const [rel, lines] of Object.entries(files)) {
    mkdirSync(join(root, rel, '..'), { recursive: true });
    writeFileSync(join(root, rel), lines.map((l) => `${l}\n`).join(''));
  }
  return root;
}

function collect(file: SourceFile, parser: LineParser, from?: { offset: number; lineNumber: number }) {
  const events: ParsedEvent[] = [];
  const defects: Defect[] = [];
  const res = parseJsonlFile(file, parser, { line() {}, event: (e) => events.push(e), defect: (d) => defects.push(d), facts() {} }, from ?? {});
  return { events, defects, res };
}

const chainDefects = (ds: Defect[]) => ds.filter((d) => d.kind === 'hash_mismatch' || d.kind === 'previous_hash_mismatch').map((d) => `${d.kind}@${d.line}`);

describe('appended lines resume the chain', () => {
  it('continues from the snapshot without false breaks', async () => {
    const root = plane({ 'HO2/ledger/ho2m.jsonl': HO2_LINES.slice(0, 200) });
    const [file] = await controlPlane.discover(root);
    const parserA = controlPlane.createParser(file!, {});
    const a = collect(file!, parserA);
    expect(a.events).toHaveLength(200);
    expect(a.defects).toEqual([]);
    // The store keeps the snapshot as JSON with every checkpoint: it must survive that and stay small.
    const saved = JSON.stringify(parserA.snapshot());
    expect(saved.length).toBeLessThan(300);
    const state = JSON.parse(saved) as unknown;
    appendFileSync(file!.path, HO2_LINES.slice(200).map((l) => `${l}\n`).join(''));

    const resumed = collect(file!, controlPlane.createParser(file!, { resumeState: state }), a.res);
    expect(resumed.defects).toEqual([]);
    expect(resumed.events).toHaveLength(HO2_LINES.length - 200);
    expect(resumed.events[0]!.lineNumber).toBe(201);

    // Without the state the first appended line looks like a broken chain: the state is what links it.
    const fresh = collect(file!, controlPlane.createParser(file!, {}), a.res);
    expect(chainDefects(fresh.defects)).toEqual(['previous_hash_mismatch@201']);
  });

  it('still verifies appended lines: an edited entry is caught', async () => {
    const root = plane({ 'HO2/ledger/ho2m.jsonl': HO2_LINES.slice(0, 100) });
    const [file] = await controlPlane.discover(root);
    const parserA = controlPlane.createParser(file!, {});
    const a = collect(file!, parserA);
    const rest = HO2_LINES.slice(100);
    rest[20] = rest[20]!.replace('"reason": "', '"reason": "edited: ');
    appendFileSync(file!.path, rest.map((l) => `${l}\n`).join(''));
    const resumed = collect(file!, controlPlane.createParser(file!, { resumeState: parserA.snapshot() }), a.res);
    // Content changed, stored hash kept: a mismatch on the entry only; the next still links.
    expect(chainDefects(resumed.defects)).toEqual(['hash_mismatch@121']);
  });
});

describe('damaged ledgers', () => {
  it('reports a deleted entry as a link break on the entry after the gap', async () => {
    const lines = [...HO2_LINES];
    lines.splice(299, 1);
    const r = await runImporter(controlPlane, plane({ 'HO2/ledger/ho2m.jsonl': lines }));
    expect(chainDefects(r.defects)).toEqual(['previous_hash_mismatch@300']);
    expect(r.defects.find((d) => d.kind === 'previous_hash_mismatch')!.message).toMatch(/removed, inserted or altered/);
  });
});

describe('rotated segments', () => {
  it('carries the chain from a segment into the active file', async () => {
    const r = await runImporter(
      controlPlane,
      plane({ 'HO1/ledger/ho1m-20260213-230000.jsonl': HO1_LINES.slice(0, 150), 'HO1/ledger/ho1m.jsonl': HO1_LINES.slice(150) }),
    );
    expect(r.defects.map((d) => `${d.kind} ${d.file}`)).toEqual(['rotated_segment HO1/ledger/ho1m-20260213-230000.jsonl']);
    expect(r.events).toHaveLength(HO1_LINES.length);
  });

  it('reports the gap when the older segment is missing', async () => {
    const r = await runImporter(controlPlane, plane({ 'HO1/ledger/ho1m.jsonl': HO1_LINES.slice(150) }));
    expect(chainDefects(r.defects)).toEqual(['previous_hash_mismatch@1']);
  });

  it('follows the chain when segment names disagree with it, and warns', async () => {
    const r = await runImporter(
      controlPlane,
      plane({
        // Chain order: …-20260214 (lines 1–100), then …-20260213 (101–200), then the active file.
        'HO2/ledger/ho2m-20260214-000000.jsonl': HO2_LINES.slice(0, 100),
        'HO2/ledger/ho2m-20260213-000000.jsonl': HO2_LINES.slice(100, 200),
        'HO2/ledger/ho2m.jsonl': HO2_LINES.slice(200),
      }),
    );
    expect(r.files.map((f) => f.relPath)).toEqual(['HO2/ledger/ho2m-20260214-000000.jsonl', 'HO2/ledger/ho2m-20260213-000000.jsonl', 'HO2/ledger/ho2m.jsonl']);
    expect(r.defects.filter((d) => d.kind === 'segment_order_disagreement')).toMatchObject([{ severity: 'warning', file: 'HO2/ledger/ho2m-20260214-000000.jsonl' }]);
    expect(chainDefects(r.defects)).toEqual([]);
  });
});
