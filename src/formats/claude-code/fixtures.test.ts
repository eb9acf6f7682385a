// The importer over the real transcripts in ../shared/fixtures/claude-code, checked against the
// fixture manifest (expected.json): files, lines, line types, sessions, and ccusage's token totals.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TokenCounts } from '../../core/model.js';
import { runImporter, type HarnessResult } from '../harness.js';
import { claudeCode } from './index.js';
import { withProgressOnlyCalls } from '../../../test/progress-only-calls.js';
import { FIXTURES as SHARED_FIXTURES } from '../../../test/helpers.js';

const FIXTURES = join(SHARED_FIXTURES, 'claude-code');

interface ExpectedFile {
  path: string;
  lines: number;
  types: Record<string, number>;
  sidechain_lines: number;
}
interface ExpectedSession {
  project_folder: string;
  files: ExpectedFile[];
  ccusage20: {
    inputTokens: number;
    outputTokens: number;
    cacheCreationTokens: number;
    cacheReadTokens: number;
    totalTokens: number;
    modelsUsed: string[];
  };
}
const expected = JSON.parse(readFileSync(join(FIXTURES, 'expected.json'), 'utf8')) as {
  sessions: Record<string, ExpectedSession>;
};
const SESSION_IDS = Object.keys(expected.sessions);

let result: HarnessResult;
beforeAll(async () => {
  result = await runImporter(claudeCode, FIXTURES);
});

/** Own tokens plus every descendant's, as ccusage folds sub-agents into their parent. */
function totalTokens(id: string): TokenCounts {
  const s = result.sessions.get(id)!;
  const t = { ...s.summary.tokens };
  for (const child of result.sessions.values()) {
    if (child.facts.parentId !== id) continue;
    const c = totalTokens(child.facts.id);
    t.input += c.input;
    t.output += c.output;
    t.cacheWrite += c.cacheWrite;
    t.cacheRead += c.cacheRead;
  }
  return t;
}

function modelsWithChildren(id: string): string[] {
  const out = new Set(result.sessions.get(id)!.summary.models);
  for (const child of result.sessions.values()) {
    if (child.facts.parentId === id) for (const m of modelsWithChildren(child.facts.id)) out.add(m);
  }
  return [...out].sort();
}

describe('claude-code importer on the real fixtures', () => {
  it('discovers exactly the manifest files, transcripts and sub-agent ledgers', () => {
    const want = SESSION_IDS.flatMap((id) => expected.sessions[id]!.files.map((f) => f.path)).sort();
    expect(result.files.map((f) => f.relPath).sort()).toEqual(want);
    const sub = result.files.find((f) => f.relPath.endsWith('agent-a7be2f0.jsonl'))!;
    expect(sub).toMatchObject({ ledger: 'agent-a7be2f0', ledgerRank: 1, sessionId: '8463c716-a2ea-4c14-9efa-87158ebd9f20:a7be2f0' });
    const main = result.files.find((f) => f.relPath.endsWith('8463c716-a2ea-4c14-9efa-87158ebd9f20.jsonl'))!;
    expect(main).toMatchObject({ ledger: 'transcript', ledgerRank: 0, sessionId: '8463c716-a2ea-4c14-9efa-87158ebd9f20' });
  });

  it('keeps every line with the manifest line counts and no bad lines', () => {
    for (const id of SESSION_IDS) {
      for (const f of expected.sessions[id]!.files) {
        expect(result.lines.get(f.path), f.path).toEqual({ total: f.lines, bad: 0, blank: 0, incomplete: 0 });
      }
    }
    expect(result.defects.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('turns every line into events, counted by native type as in the manifest', () => {
    for (const id of SESSION_IDS) {
      for (const f of expected.sessions[id]!.files) {
        const typeOfLine = new Map<number, string>();
        for (const e of result.events) if (e.file === f.path) typeOfLine.set(e.lineNumber, e.type);
        const counts: Record<string, number> = {};
        for (const t of typeOfLine.values()) counts[t] = (counts[t] ?? 0) + 1;
        expect(typeOfLine.size, f.path).toBe(f.lines);
        expect(counts, f.path).toEqual(f.types);
      }
    }
  });

  it('makes sub-agent files child sessions with the right ids, kinds and parent', () => {
    const parent = '8463c716-a2ea-4c14-9efa-87158ebd9f20';
    const agent = result.sessions.get(`${parent}:a7be2f0`)!;
    const compact = result.sessions.get(`${parent}:acompact-f46190`)!;
    expect(agent.facts).toMatchObject({ kind: 'subagent', parentId: parent, project: expected.sessions[parent]!.project_folder });
    expect(compact.facts).toMatchObject({ kind: 'compaction', parentId: parent });
    expect(agent.events).toHaveLength(
      result.events.filter((e) => e.file.endsWith('agent-a7be2f0.jsonl')).length,
    );
    expect(agent.summary.models).toEqual(['claude-haiku-4-5-20251001']);
    expect(result.sessions.get(parent)!.facts).toMatchObject({
      kind: 'root',
      project: '-home-USER-projects-spotter-worktrees-spotter-fum',
      projectPath: '/home/USER/projects/spotter-worktrees/spotter-fum',
      mainLedger: 'transcript',
    });
  });

  it.each(SESSION_IDS)('token totals of %s (own + children) equal ccusage 20 exactly (its daily rule: progress-only calls count)', (id) => {
    const want = withProgressOnlyCalls(id, expected.sessions[id]!.ccusage20);
    expect(totalTokens(id)).toEqual({
      input: want.inputTokens,
      output: want.outputTokens,
      cacheWrite: want.cacheCreationTokens,
      cacheRead: want.cacheReadTokens,
    });
    expect(modelsWithChildren(id)).toEqual([...want.modelsUsed].sort());
  });

  it('groups the inline sidechain lines of 5c0375b4 into two children linked by Task prompt', () => {
    const parent = '5c0375b4-57a5-4f26-b12d-d022ee4e51b7';
    const children = [...result.sessions.values()].filter((s) => s.facts.parentId === parent);
    expect(children.map((c) => c.facts.id).sort()).toEqual([
      `${parent}:sidechain-6340ddef-f656-4b72-a065-82390f637678`,
      `${parent}:sidechain-83e2917c-8940-4df6-a5a5-f2514f0d08c5`,
    ]);
    // Exactly the file's isSidechain lines (22) went to the children, none to the parent.
    const path = join(FIXTURES, expected.sessions[parent]!.files[0]!.path);
    const sidechainLines = readFileSync(path, 'utf8')
      .split('\n')
      .flatMap((l, i) => (l !== '' && (JSON.parse(l) as { isSidechain?: boolean }).isSidechain === true ? [i + 1] : []));
    expect(sidechainLines).toHaveLength(expected.sessions[parent]!.files[0]!.sidechain_lines);
    const childLines = new Set<number>();
    for (const c of children) {
      expect(c.facts.kind).toBe('sidechain');
      for (const e of c.events) childLines.add(e.lineNumber);
    }
    expect([...childLines].sort((a, b) => a - b)).toEqual(sidechainLines);
    expect(result.sessions.get(parent)!.events.filter((e) => childLines.has(e.lineNumber))).toEqual([]);
    const first = result.sessions.get(`${parent}:sidechain-6340ddef-f656-4b72-a065-82390f637678`)!;
    // The Task right before it (line 12) had no prompt and failed; the prompt matches line 13's Task.
    expect(first.facts.attrs).toMatchObject({ linked: true, toolUseId: 'toolu_014YF9TXhDRR7BnpasNJ7gjC', linkedBy: 'prompt' });
    const second = result.sessions.get(`${parent}:sidechain-83e2917c-8940-4df6-a5a5-f2514f0d08c5`)!;
    expect(second.facts.attrs).toMatchObject({ linked: true, toolUseId: 'toolu_01LKfUwrsnof18CpWZQcJH44' });
    expect(second.summary.firstUserMessage).toMatch(/^Analyze the current project structure/);
    // The parent's Task results point at the children.
    const links = result.sessions.get(parent)!.summary.attrs?.subagents as { childSessionId: string }[];
    expect(links.map((l) => l.childSessionId).sort()).toEqual(children.map((c) => c.facts.id).sort());
  });

  it('links the Task result of 491e126e to its sub-agent by agentId', () => {
    const s = result.sessions.get('491e126e-1e71-469c-ade2-fcc8af567c74')!;
    const task = s.events.find((e) => e.kind === 'tool_result' && e.attrs.agentId === 'afb92ff')!;
    expect(task).toMatchObject({ toolName: 'Task', ids: { toolCall: 'toolu_01Cz2Pnv7qNcnK1ZiocxWhQX' } });
    expect(task.attrs).toMatchObject({ childSessionId: '491e126e-1e71-469c-ade2-fcc8af567c74:afb92ff', totalTokens: 33894 });
    const starts = s.events.filter((e) => e.kind === 'subagent_start');
    expect(starts).toHaveLength(1);
    expect(starts[0]!.ids).toMatchObject({ agent: 'afb92ff', toolCall: 'toolu_01Cz2Pnv7qNcnK1ZiocxWhQX' });
    // agent_progress lines mirror the sub-agent's usage; its file is absent here, so the mirrors are
    // the only record of its calls and keep their usage (nine lines, five calls).
    const mirrors = s.events.filter((e) => e.type === 'progress' && e.usage !== null);
    expect(mirrors).toHaveLength(9);
    expect(new Set(mirrors.map((e) => e.usage!.key)).size).toBe(5);
    // 8463c716's sub-agents have their own files: its mirrors of their calls lose their usage.
    const parent = result.sessions.get('8463c716-a2ea-4c14-9efa-87158ebd9f20')!;
    expect(parent.events.filter((e) => e.type === 'progress' && e.usage !== null)).toEqual([]);
  });

  it('derives status from how each transcript ends', () => {
    const status = (id: string) => result.sessions.get(id)!.summary.status;
    // Ends "[Request interrupted by user for tool use]" then local /model output.
    expect(status('55604662-cf2a-4331-851a-ec234028f8ca')).toBe('interrupted');
    // Ends "[Request interrupted by user]".
    expect(status('d6e0bada-1959-4eec-a9d2-0bfade768d8f')).toBe('interrupted');
    // Ends with assistant text (stop_reason null), then Stop hooks.
    expect(status('491e126e-1e71-469c-ade2-fcc8af567c74')).toBe('completed');
    expect(status('8463c716-a2ea-4c14-9efa-87158ebd9f20')).toBe('completed');
    expect(status('5c0375b4-57a5-4f26-b12d-d022ee4e51b7')).toBe('completed');
    // Ends with stop_reason end_turn.
    expect(status('1af7fc5e-8455-4414-9ccd-011d40f70b2a')).toBe('completed');
    expect(status('8463c716-a2ea-4c14-9efa-87158ebd9f20:a7be2f0')).toBe('completed');
  });

  it('takes the first human prompt, not wrappers, as first user message and counts turns', () => {
    const short = result.sessions.get('55604662-cf2a-4331-851a-ec234028f8ca')!;
    expect(short.summary.firstUserMessage).toBe('mix phx.server doesnt seem to start');
    expect(short.summary.turnCount).toBe(1);
    expect(short.facts.title).toBe('mix phx.server doesnt seem to start');
    // d6e0bada: two prompts; the local /mcp command (after a caveat) is not a turn.
    const heavy = result.sessions.get('d6e0bada-1959-4eec-a9d2-0bfade768d8f')!;
    expect(heavy.summary.turnCount).toBe(2);
    expect(heavy.summary.firstUserMessage).toBe('start phoenix in background');
    // A slash command the model answers carries the human's request.
    expect(result.sessions.get('491e126e-1e71-469c-ade2-fcc8af567c74')!.summary.turnCount).toBe(2);
    const init = result.sessions.get('5c0375b4-57a5-4f26-b12d-d022ee4e51b7')!;
    expect(init.summary.firstUserMessage).toBe('/orchestrator @CLAUDE.md を最新の状態にアップデートしてください');
  });

  it('summarises counts, compactions and previews of the long session', () => {
    const s = result.sessions.get('8463c716-a2ea-4c14-9efa-87158ebd9f20')!.summary;
    expect(s.compactions).toBe(1);
    // 157 distinct responses in the family (expected.json's files): 143 here, 13 + 1 in the sub-agents.
    expect(s.llmCalls).toBe(143);
    expect(result.sessions.get('8463c716-a2ea-4c14-9efa-87158ebd9f20:a7be2f0')!.summary.llmCalls).toBe(13);
    expect(s.toolCalls).toBe(177);
    expect(s.lastResponsePreview).toMatch(/^That's a notification from a background task/);
    expect(s.startedAt).toBe('2026-02-11T21:41:40.277Z');
    expect(s.endedAt).toBe('2026-02-11T22:54:29.983Z');
  });
});
