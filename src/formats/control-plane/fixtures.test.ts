// The importer against the shared fixtures: every manifest fact (sessions, defects, hazards,
// merge order) and token totals counted once. The fixtures are read-only; nothing here mutates.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { toIso } from '../../core/time.js';
import { compareTimeline } from '../../core/timeline-order.js';
import { runImporter, type HarnessResult } from '../harness.js';
import { controlPlane } from './index.js';

const FIXTURES = fileURLToPath(new URL('../../../../shared/fixtures/control-plane/', import.meta.url));

interface ManifestDefect {
  kind: string;
  file: string | null;
  line: number | null;
  entry_id?: string;
  true_entry_hash?: string;
  timestamp?: string;
  entries_in_write_order?: { file: string; line: number; entry_id: string }[];
  expected_merge_order?: string[];
}
interface Manifest {
  files: { file: string; physical_lines: number }[];
  defects: ManifestDefect[];
  hazards: { kind: string; session_id?: string; session_ids?: string[] }[];
  session_table: {
    session_id: string;
    started_at: string;
    ended_at: string | null;
    turn_count: number;
    first_user_message: string;
    ledger_events: Record<string, number>;
    expected_status: string;
  }[];
}

const manifestOf = (set: string): Manifest => JSON.parse(readFileSync(`${FIXTURES}${set}/manifest.json`, 'utf8')) as Manifest;

/** The manifest's kinds as this pipeline and importer name them. */
const KIND_MAP: Record<string, string[]> = {
  whitespace_only_line: ['whitespace_only_line'],
  blank_line: ['blank_line'],
  missing_timestamp: ['missing_timestamp'],
  object_not_entry: ['object_not_entry'],
  malformed_json: ['malformed_json'],
  truncated_last_line: ['incomplete_last_line'],
  non_object_json: ['non_object_json'],
  tampered_entry_hash: ['hash_mismatch'],
  rotated_segment: ['rotated_segment'],
};

for (const set of ['normal', 'edge'] as const) {
  describe(`control-plane fixture ${set}/`, () => {
    const manifest = manifestOf(set);
    let r: HarnessResult;
    beforeAll(async () => {
      r = await runImporter(controlPlane, `${FIXTURES}${set}`);
    });

    it('finds exactly the sessions of the session table', () => {
      expect([...r.sessions.keys()].sort()).toEqual(manifest.session_table.map((s) => s.session_id).sort());
      expect(r.defects.filter((d) => d.kind === 'unattributed_event')).toEqual([]);
    });

    for (const row of manifest.session_table) {
      it(`summarises ${row.session_id} as the manifest says`, () => {
        const s = r.sessions.get(row.session_id)!;
        expect(s.summary.startedAt).toBe(toIso(row.started_at));
        expect(s.summary.endedAt).toBe(row.ended_at === null ? null : toIso(row.ended_at));
        expect(s.summary.turnCount).toBe(row.turn_count);
        expect(s.summary.status).toBe(row.expected_status);
        expect(s.summary.firstUserMessage ?? '').toBe(row.first_user_message);
        const perLedger: Record<string, number> = { ho2m: 0, ho1m: 0, governance: 0 };
        for (const e of s.events) perLedger[e.ledger]!++;
        expect(perLedger).toEqual(row.ledger_events);
        expect(s.summary.attrs?.ledger_events).toEqual(row.ledger_events);
        expect(s.facts).toMatchObject({ format: 'control-plane', kind: 'root', mainLedger: 'ho2m', projectPath: `${FIXTURES}${set}`.replace(/\/$/, '') });
        if (row.turn_count > 0) expect(s.facts.title).toBe(row.first_user_message.replace(/\s+/g, ' ').trim().slice(0, 200));
      });
    }

    it('reads every file to its last physical line', () => {
      for (const f of manifest.files) expect(r.lines.get(f.file)?.total).toBe(f.physical_lines);
    });

    it('reports every manifest defect with its file, line and kind', () => {
      const listed = manifest.defects.filter((d) => KIND_MAP[d.kind]);
      for (const d of listed) {
        const found = r.defects.filter((x) => x.file === d.file && x.line === d.line && KIND_MAP[d.kind]!.includes(x.kind));
        expect(found, `${d.kind} at ${d.file}:${d.line}`).toHaveLength(1);
      }
      for (const d of manifest.defects.filter((x) => x.kind === 'tampered_entry_hash')) {
        // The next entry still names the true hash: a link break on the line after.
        const next = r.defects.filter((x) => x.file === d.file && x.line === d.line! + 1 && x.kind === 'previous_hash_mismatch');
        expect(next).toHaveLength(1);
        const mismatch = r.defects.find((x) => x.file === d.file && x.line === d.line && x.kind === 'hash_mismatch')!;
        expect(mismatch.message).toContain(d.true_entry_hash!.slice(0, 12));
      }
    });

    it('reports no errors beyond the manifest (no false chain breaks)', () => {
      const expected = manifest.defects.flatMap((d) => {
        if (d.kind === 'tampered_entry_hash') return [`hash_mismatch ${d.file}:${d.line}`, `previous_hash_mismatch ${d.file}:${d.line! + 1}`];
        const ours = KIND_MAP[d.kind]?.[0];
        return ours && ['object_not_entry', 'malformed_json', 'non_object_json'].includes(ours) ? [`${ours} ${d.file}:${d.line}`] : [];
      });
      const errors = r.defects.filter((d) => d.severity === 'error').map((d) => `${d.kind} ${d.file}:${d.line}`);
      expect(errors.sort()).toEqual(expected.sort());
    });

    it('notes each session cut mid-turn', () => {
      const cut = manifest.hazards.find((h) => h.kind === 'session_cut_mid_turn')?.session_ids ?? [];
      expect(cut.length).toBeGreaterThan(0);
      for (const id of cut) {
        expect(r.sessions.get(id)!.derivedDefects.map((d) => d.kind)).toContain('turn_not_recorded');
      }
      for (const [id, s] of r.sessions) {
        if (s.summary.status === 'completed') expect(s.derivedDefects, id).toEqual([]);
      }
    });
  });
}

describe('control-plane fixture edge/ hazards', () => {
  const manifest = manifestOf('edge');
  let r: HarnessResult;
  beforeAll(async () => {
    r = await runImporter(controlPlane, `${FIXTURES}edge`);
  });

  it('merges entries with identical timestamps as ho2m > ho1m > governance, then entry id', () => {
    const tie = manifest.defects.find((d) => d.kind === 'identical_timestamps')!;
    const events = tie.entries_in_write_order!.map((w) => {
      const e = r.events.find((x) => x.file === w.file && x.lineNumber === w.line);
      expect(e?.ids.entry).toBe(w.entry_id);
      return e!;
    });
    expect(new Set(events.map((e) => e.tsKey)).size).toBe(1);
    expect([...events].sort(compareTimeline).map((e) => e.ids.entry)).toEqual(tie.expected_merge_order);
  });

  it('keeps a user message with U+2028, U+2029 and U+0085 whole', () => {
    const s = r.sessions.get('SES-AB82C1E0')!;
    expect(s.summary.firstUserMessage).toMatch(/\u2028.*\u2029.*\u0085/s);
    const turn = r.events.find((e) => e.sessionId === 'SES-AB82C1E0' && e.type === 'TURN_RECORDED')!;
    expect(turn.text).toContain(s.summary.firstUserMessage);
  });

  it('keeps the entry without timestamp in place, and its hash verifies', () => {
    const d = manifest.defects.find((x) => x.kind === 'missing_timestamp')!;
    const e = r.events.find((x) => x.file === d.file && x.lineNumber === d.line)!;
    const before = r.events.find((x) => x.file === d.file && x.lineNumber === d.line! - 1)!;
    expect(e.ids.entry).toBe(d.entry_id);
    expect(e.tsMissing).toBe(true);
    expect(e.tsKey).toBe(before.tsKey);
    expect(r.defects.filter((x) => x.file === d.file && x.line === d.line).map((x) => x.kind)).toEqual(['missing_timestamp']);
  });

  it('lists each rotated segment as info and links the chain across it', () => {
    const segments = manifest.defects.filter((d) => d.kind === 'rotated_segment');
    expect(segments).toHaveLength(3);
    for (const d of segments) {
      expect(r.defects.find((x) => x.kind === 'rotated_segment' && x.file === d.file)).toMatchObject({ severity: 'info', line: null });
    }
    for (const active of ['HO2/ledger/ho2m.jsonl', 'HO1/ledger/ho1m.jsonl', 'HOT/ledger/governance.jsonl']) {
      expect(r.defects.filter((x) => x.file === active && x.line === 1)).toEqual([]);
      expect(r.events.some((x) => x.file === active && x.lineNumber === 1)).toBe(true);
    }
    expect(r.files.map((f) => f.relPath)).toEqual([
      'HO2/ledger/ho2m-20260214-200318.jsonl',
      'HO2/ledger/ho2m.jsonl',
      'HO1/ledger/ho1m-20260214-200232.jsonl',
      'HO1/ledger/ho1m.jsonl',
      'HOT/ledger/governance-20260214-200318.jsonl',
      'HOT/ledger/governance.jsonl',
    ]);
  });
});
