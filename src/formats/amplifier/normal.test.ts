// The normal fixture set against the generator's ground truth (expected.json), session by session.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { keyToIso, toTimeKey } from '../../core/time.js';
import { runImporter, type HarnessResult } from '../harness.js';
import { amplifier } from './index.js';

const ROOT = join(import.meta.dirname, '../../../../shared/fixtures/amplifier/normal');

interface Expected {
  kind: string;
  parent_id: string | null;
  project: string;
  agent_name: string | null;
  turn_count: number;
  user_prompts: string[];
  prompts_submitted_in_events: number;
  transcript_user_messages: number;
  tool_calls: { total: number; failed: number; unfinished: number; by_tool: Record<string, number> };
  llm_responses: number;
  input_tokens: number;
  output_tokens: number;
  first_ts: string | null;
  last_ts: string | null;
  event_count: number;
  ended: boolean;
  error_count: number;
  forked_from_turn?: number;
}

const expected = JSON.parse(readFileSync(join(ROOT, 'expected.json'), 'utf8')).sessions as Record<string, Expected>;
const manifest = JSON.parse(readFileSync(join(ROOT, 'manifest.json'), 'utf8')) as { counts: Record<string, number>; projects: string[] };

let result: HarnessResult;
beforeAll(async () => {
  result = await runImporter(amplifier, ROOT);
});

describe('amplifier importer on the normal set', () => {
  it('finds every session with the manifest’s count per kind and project', () => {
    expect([...result.sessions.keys()].sort()).toEqual(Object.keys(expected).sort());
    const kinds: Record<string, number> = {};
    for (const s of result.sessions.values()) kinds[s.facts.kind ?? 'none'] = (kinds[s.facts.kind ?? 'none'] ?? 0) + 1;
    expect(kinds).toEqual(manifest.counts);
    expect([...new Set([...result.sessions.values()].map((s) => s.facts.project))].sort()).toEqual(manifest.projects);
  });

  for (const [id, want] of Object.entries(expected)) {
    it(`matches expected.json for ${want.kind} ${id}`, () => {
      const s = result.sessions.get(id)!;
      expect(s.facts.kind).toBe(want.kind);
      expect(s.facts.parentId ?? null).toBe(want.parent_id);
      expect(s.facts.project).toBe(want.project);
      if (want.agent_name) expect(s.facts.agentName).toBe(want.agent_name);
      if (want.forked_from_turn !== undefined) expect(s.facts.attrs?.forkedFromTurn).toBe(want.forked_from_turn);

      const sum = s.summary;
      expect(sum.turnCount).toBe(want.turn_count);
      expect(sum.firstUserMessage).toBe(want.user_prompts[0]!.replace(/\s+/g, ' ').trim());
      expect(sum.toolCalls).toBe(want.tool_calls.total);
      expect(sum.toolErrors).toBe(want.tool_calls.failed);
      expect(sum.attrs?.unfinishedToolCalls).toBe(want.tool_calls.unfinished);
      expect(sum.llmCalls).toBe(want.llm_responses);
      // expected input_tokens = Σ data.usage.input_tokens = raw input + cache reads; our four kinds
      // split that into input and cacheRead, and keep the writer's sum as attrs.rawInputTokens.
      expect(sum.tokens.input + sum.tokens.cacheRead).toBe(want.input_tokens);
      expect(sum.attrs?.rawInputTokens).toBe(want.input_tokens);
      expect(sum.tokens.output).toBe(want.output_tokens);
      expect(sum.errors).toBe(want.error_count);
      expect(sum.attrs?.eventsLogRecords).toBe(want.event_count);
      expect(sum.attrs?.promptsSubmitted).toBe(want.prompts_submitted_in_events);
      expect(sum.attrs?.transcriptUserMessages).toBe(want.transcript_user_messages);
      expect(sum.attrs?.sessionEnded).toBe(want.ended);
      expect(sum.startedAt).toBe(keyToIso(toTimeKey(want.first_ts)));
      expect(sum.endedAt).toBe(keyToIso(toTimeKey(want.last_ts)));

      // Full precision survives in the time keys (nanoseconds), first and last of events.jsonl.
      const log = s.events.filter((e) => e.ledger === 'events');
      expect(log[0]!.tsKey).toBe(toTimeKey(want.first_ts));
      expect(log[log.length - 1]!.tsKey).toBe(toTimeKey(want.last_ts));

      const byTool: Record<string, number> = {};
      for (const e of log) if (e.kind === 'tool_call') byTool[e.toolName!] = (byTool[e.toolName!] ?? 0) + 1;
      expect(byTool).toEqual(want.tool_calls.by_tool);

      // Prompts exactly as typed (transcript text, not the redacted events copy).
      const prompts = result.events
        .filter((e) => e.sessionId === id && e.ledger === 'transcript' && e.kind === 'user_message')
        .map((e) => e.text);
      expect(prompts).toEqual(want.user_prompts);
    });
  }

  it('gives each session a status from its data: ended sessions completed, the running one interrupted', () => {
    for (const [id, want] of Object.entries(expected)) {
      const status = result.sessions.get(id)!.summary.status;
      expect(status).toBe(want.ended ? 'completed' : 'interrupted');
    }
  });

  it('reports the running session’s pending tool calls as orphans at their transcript line', () => {
    const running = result.sessions.get('2e8f787d-d943-450c-a4e5-66879c192e69')!;
    expect(running.derivedDefects.map((d) => [d.severity, d.kind, d.line])).toEqual([
      ['warning', 'orphan_tool_call', 8],
      ['warning', 'orphan_tool_call', 8],
    ]);
    expect(running.derivedDefects[0]!.file).toBe(
      'projects/-home-maya-src-acme-billing/sessions/2e8f787d-d943-450c-a4e5-66879c192e69/transcript.jsonl',
    );
  });

  it('reads titles, working dirs and metadata attrs, and notes routine .backup files as info only', () => {
    const root = result.sessions.get('f31d2334-3e59-4fd1-8a90-ee46c04cd0c2')!.facts;
    expect(root.title).toBe('¿Puedes Revisar El Manejo De Errores');
    expect(root.projectPath).toBe('/home/maya/src/acme-billing');
    expect(root.attrs).toMatchObject({ bundle: 'bundle:anchors', model: 'claude-opus-4-8', metadataTurnCount: 3 });
    const backups = result.defects.filter((d) => d.kind === 'backup_file');
    expect(backups.length).toBeGreaterThan(0);
    expect(backups.every((d) => d.severity === 'info' && d.file.endsWith('.backup'))).toBe(true);
    expect(result.defects.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('keeps every line of every file as evidence, none bad', () => {
    for (const file of result.files) {
      const text = readFileSync(file.path, 'utf8');
      const newlines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
      expect(result.lines.get(file.relPath)).toMatchObject({ total: newlines, bad: 0, incomplete: 0 });
    }
  });

  it('does not carry whole API requests in summaries (the 211 KB llm:request line)', () => {
    const big = result.events.find((e) => e.sessionId === '9c9b15fe-b7bb-481b-a53f-924dcacdbb82' && e.type === 'llm:request')!;
    expect(big.kind).toBe('system');
    expect(big.summary.length).toBeLessThan(100);
    expect(big.text).toBeNull();
  });
});
