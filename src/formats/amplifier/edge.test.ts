// The edge fixture set: every manifest defect reported where it is, every valid line around it
// kept, and the quirks (U+2028, reminders, repaired entries, non-ASCII slug) read correctly.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Defect } from '../../core/model.js';
import { keyToIso, toTimeKey } from '../../core/time.js';
import { runImporter, type HarnessResult } from '../harness.js';
import { amplifier } from './index.js';

const ROOT = join(import.meta.dirname, '../../../../shared/fixtures/amplifier/edge');
const manifest = JSON.parse(readFileSync(join(ROOT, 'manifest.json'), 'utf8')) as {
  counts: Record<string, number>;
  defects: { path: string; line: number | null; kind: string }[];
};
interface Expected {
  kind: string;
  parent_id: string | null;
  project: string;
  agent_name: string | null;
  turn_count: number;
  user_prompts: string[];
  tool_calls: { total: number; failed: number; unfinished: number };
  llm_responses: number;
  input_tokens: number;
  output_tokens: number;
  first_ts: string | null;
  last_ts: string | null;
  event_count: number;
  ended: boolean;
  error_count: number;
}
const expected = JSON.parse(readFileSync(join(ROOT, 'expected.json'), 'utf8')).sessions as Record<string, Expected>;

const CAFE = 'projects/-home-zoë-projets-café-menu/sessions';
const SANDBOX = 'projects/-home-dev-amplifier-sandbox/sessions';
/** Sessions whose files the defects changed (expected.json describes them before injection). */
const ALTERED = new Set([
  '52db5df8-81cf-426b-adfd-e132dfb0981a',
  '26deeb0c-0451-40e5-bd59-8db0e7d23cb7',
  '9ccf8a61-4afd-4897-aae7-b1ded3680aff',
]);

/** How each manifest defect kind shows up in our reports (severity, kind, derived or not). */
const REPORTED_AS: Record<string, { severity: Defect['severity']; kind: string; derived?: boolean }> = {
  empty_events: { severity: 'info', kind: 'empty_file' },
  malformed_line: { severity: 'error', kind: 'malformed_json' },
  truncated_final_line: { severity: 'warning', kind: 'incomplete_last_line' },
  orphaned_tool_call: { severity: 'warning', kind: 'orphan_tool_call', derived: true },
  missing_metadata: { severity: 'warning', kind: 'missing_metadata' },
  invalid_metadata_json: { severity: 'error', kind: 'invalid_document_json' },
  rewind_backup: { severity: 'warning', kind: 'rewind_backup' },
  transcript_shorter_than_events: { severity: 'warning', kind: 'transcript_shorter_than_events', derived: true },
};

let result: HarnessResult;
let derived: Defect[];
beforeAll(async () => {
  result = await runImporter(amplifier, ROOT);
  derived = [...result.sessions.values()].flatMap((s) => s.derivedDefects);
});

const session = (id: string) => result.sessions.get(id)!;
const lineCount = (rel: string) => {
  const text = readFileSync(join(ROOT, rel), 'utf8');
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
};

describe('amplifier importer on the edge set', () => {
  it('finds 13 sessions with the manifest’s kinds', () => {
    const kinds: Record<string, number> = {};
    for (const s of result.sessions.values()) kinds[s.facts.kind!] = (kinds[s.facts.kind!] ?? 0) + 1;
    expect(result.sessions.size).toBe(13);
    expect(kinds).toEqual(manifest.counts);
  });

  for (const d of manifest.defects.filter((x) => x.kind !== 'huge_line')) {
    it(`reports ${d.kind} at ${d.path}:${d.line ?? '-'}`, () => {
      const how = REPORTED_AS[d.kind]!;
      const pool = how.derived ? derived : result.defects;
      const hit = pool.filter((x) => x.kind === how.kind && x.file === d.path && x.line === d.line);
      expect(hit).toHaveLength(1);
      expect(hit[0]!.severity).toBe(how.severity);
    });
  }

  it('parses the 1.7 MB llm:request line (line 32) normally and the session stays exact', () => {
    const huge = manifest.defects.find((d) => d.kind === 'huge_line')!;
    expect(result.defects.filter((d) => d.file === huge.path)).toEqual([]);
    const ev = result.events.find((e) => e.file === huge.path && e.lineNumber === huge.line)!;
    expect(ev.type).toBe('llm:request');
    expect(ev.attrs.huge).toBeUndefined();
    expect(ev.summary.length).toBeLessThan(100);
    const s = session('c57c90c9-20a1-479b-9dea-10b22bee349e').summary;
    expect(s.attrs?.eventsLogRecords).toBe(47);
    expect(s.llmCalls).toBe(3);
    expect(s.tokens.input + s.tokens.cacheRead).toBe(25652);
  });

  for (const [id, want] of Object.entries(expected)) {
    if (ALTERED.has(id)) continue;
    it(`matches expected.json for untouched session ${id}`, () => {
      const s = session(id);
      expect(s.facts.kind).toBe(want.kind);
      expect(s.facts.parentId ?? null).toBe(want.parent_id);
      expect(s.facts.project).toBe(want.project);
      if (want.agent_name) expect(s.facts.agentName).toBe(want.agent_name);
      const sum = s.summary;
      expect(sum.turnCount).toBe(want.turn_count);
      expect(sum.toolCalls).toBe(want.tool_calls.total);
      expect(sum.toolErrors).toBe(want.tool_calls.failed);
      expect(sum.attrs?.unfinishedToolCalls).toBe(want.tool_calls.unfinished);
      expect(sum.llmCalls).toBe(want.llm_responses);
      expect(sum.tokens.input + sum.tokens.cacheRead).toBe(want.input_tokens);
      expect(sum.tokens.output).toBe(want.output_tokens);
      expect(sum.errors).toBe(want.error_count);
      expect(sum.attrs?.eventsLogRecords).toBe(want.event_count);
      expect(sum.attrs?.sessionEnded).toBe(want.ended);
      if (want.first_ts) {
        expect(sum.startedAt).toBe(keyToIso(toTimeKey(want.first_ts)));
        expect(sum.endedAt).toBe(keyToIso(toTimeKey(want.last_ts)));
      }
    });
  }

  it('keeps every valid line around the malformed line 77 and recovers the record appended onto it', () => {
    const rel = `${SANDBOX}/52db5df8-81cf-426b-adfd-e132dfb0981a/events.jsonl`;
    expect(lineCount(rel)).toBe(108);
    expect(result.lines.get(rel)).toMatchObject({ total: 108, bad: 1 });
    const s = session('52db5df8-81cf-426b-adfd-e132dfb0981a').summary;
    // 107 whole lines plus the session:resume recovered from behind the torn tool:pre.
    expect(s.attrs?.eventsLogRecords).toBe(108);
    expect(result.defects.filter((d) => d.file === rel && d.line === 77).map((d) => d.kind).sort()).toEqual([
      'malformed_json',
      'recovered_record',
    ]);
    // The torn part held one tool:pre, which is lost.
    expect(s.toolCalls).toBe(5);
    expect(s.llmCalls).toBe(9);
    expect(s.tokens.input + s.tokens.cacheRead).toBe(153872);
    expect(s.turnCount).toBe(4);
  });

  it('holds back the truncated final line 71 and keeps the 70 before it', () => {
    const rel = `${CAFE}/26deeb0c-0451-40e5-bd59-8db0e7d23cb7/events.jsonl`;
    expect(result.lines.get(rel)).toMatchObject({ total: 71, incomplete: 1, bad: 0 });
    const s = session('26deeb0c-0451-40e5-bd59-8db0e7d23cb7').summary;
    expect(s.attrs?.eventsLogRecords).toBe(70);
    expect(s.endedAt).toBe('2026-06-08T14:43:28.083Z');
    expect(s.tokens.input + s.tokens.cacheRead).toBe(51301);
  });

  it('reads a rewound session as the transcript now says, keeping the old history as evidence', () => {
    const id = '9ccf8a61-4afd-4897-aae7-b1ded3680aff';
    const s = session(id).summary;
    expect(s.turnCount).toBe(2);
    expect(s.attrs?.promptsSubmitted).toBe(3);
    expect(s.attrs?.eventsLogRecords).toBe(80);
    expect(s.status).toBe('active');
    const backups = result.files.filter((f) => f.sessionId === id && f.evidenceOnly);
    expect(backups.map((f) => f.ledger)).toEqual([
      'events.bak-pre-rewind-20260624031137',
      'transcript.bak-pre-rewind-20260624031137',
    ]);
    expect(result.lines.get(`${SANDBOX}/${id}/transcript.jsonl.bak-pre-rewind-20260624031137`)?.total).toBe(25);
    expect(result.events.some((e) => e.file.includes('.bak-pre-rewind-'))).toBe(false);
  });

  it('falls back to metadata.json.backup when metadata.json is truncated, and says so', () => {
    const id = '4863ed70-1975-450d-a97d-10ed299beb3f';
    const used = result.defects.find((d) => d.kind === 'metadata_backup_used' && d.sessionId === id)!;
    expect(used.severity).toBe('info');
    expect(used.file).toBe(`${CAFE}/${id}/metadata.json`);
    expect(session(id).facts).toMatchObject({ kind: 'root', projectPath: '/home/zoë/projets/café-menu' });
    expect(session(id).facts.attrs?.bundle).toEqual(expect.any(String));
  });

  it('links the running sub-agent (no metadata) to its parent and agent through the events', () => {
    const s = session('0000000000000000-6656ec43abe9979e_foundation-explorer');
    expect(s.facts).toMatchObject({ kind: 'subagent', parentId: '5a4aa4ea-1dd9-47a3-b6bd-cd1c8e820787', agentName: 'foundation:explorer' });
    expect(s.summary.turnCount).toBe(1);
    expect(s.summary.firstUserMessage).toMatch(/^Explore the repository/);
  });

  it('gives a never-resumed fork no activity of its own but its inherited turn', () => {
    const s = session('c2f3b428-81a7-47bf-b933-2b5cb3581855');
    expect(s.summary).toMatchObject({ turnCount: 1, toolCalls: 0, llmCalls: 0, endedAt: null, status: 'active' });
    expect(s.summary.startedAt).toBe('2026-06-06T12:48:46.206Z'); // forked_at
  });

  it('keeps the U+2028 prompt whole, and the line it sits on as one line', () => {
    const id = '6fbff944-c269-45a1-a63d-da485cda41ec';
    const first = result.events.find((e) => e.sessionId === id && e.ledger === 'transcript' && e.kind === 'user_message')!;
    expect(first.text).toBe(expected[id]!.user_prompts[0]);
    expect(first.text).toContain('\u2028');
    expect(first.lineNumber).toBe(1);
    expect(result.lines.get(`${CAFE}/${id}/transcript.jsonl`)).toMatchObject({ total: 13, bad: 0 });
  });

  it('does not count the persisted <system-reminder> message as a turn', () => {
    const id = '6fbff944-c269-45a1-a63d-da485cda41ec';
    const reminder = result.events.find((e) => e.sessionId === id && e.ledger === 'transcript' && e.lineNumber === 5)!;
    expect(reminder).toMatchObject({ kind: 'system', attrs: { systemReminder: true } });
    expect(session(id).summary.turnCount).toBe(2);
    expect(session(id).facts.attrs?.metadataTurnCount).toBe(3);
  });

  it('marks the unknown tool’s plain-string result as an error', () => {
    const id = '6fbff944-c269-45a1-a63d-da485cda41ec';
    const result8 = result.events.find((e) => e.sessionId === id && e.ledger === 'transcript' && e.lineNumber === 8)!;
    expect(result8).toMatchObject({ kind: 'tool_result', toolName: 'python_check', toolStatus: 'error' });
    const toolError = result.events.find((e) => e.sessionId === id && e.type === 'tool:error')!;
    expect(toolError).toMatchObject({ kind: 'error', toolStatus: 'error', ids: { toolCall: 'toolu_01fP9DhPbHgaOfkBcmwUyOVk' } });
  });

  it('takes repaired transcript entries without timestamps as they are: no defect, position inherited', () => {
    const id = '52db5df8-81cf-426b-adfd-e132dfb0981a';
    const rel = `${SANDBOX}/${id}/transcript.jsonl`;
    const repaired = result.events.filter((e) => e.file === rel && (e.lineNumber === 13 || e.lineNumber === 14));
    expect(repaired.length).toBeGreaterThan(0);
    expect(repaired.every((e) => e.tsMissing && e.tsKey === toTimeKey('2026-06-18T00:32:49.049+00:00'))).toBe(true);
    expect(repaired.find((e) => e.lineNumber === 13)).toMatchObject({ kind: 'tool_result', toolStatus: 'error' });
    expect(result.defects.filter((d) => d.file === rel)).toEqual([]);
  });

  it('keeps the non-ASCII project slug as written', () => {
    const cafe = [...result.sessions.values()].filter((s) => s.facts.project === '-home-zoë-projets-café-menu');
    expect(cafe).toHaveLength(7);
    expect(result.files.some((f) => f.relPath.startsWith('projects/-home-zoë-projets-café-menu/sessions/'))).toBe(true);
  });
});
