// The real rollouts in ../shared/fixtures/other-agents/codex, read by the importer in memory:
// sessions, turns, tool calls, status, models, usage, and what a rollout without token_count says.

import { describe, expect, it } from 'vitest';
import { runImporter } from '../harness.js';
import { codex } from './index.js';

const HOME = '../shared/fixtures/other-agents/codex';
const TUI = '019e1625-789d-76c0-80ab-3724b5ddb799';
const DESKTOP = '019e1695-0522-7c83-8b39-0dd379793f80';
const VSCODE = '01996135-afde-7911-97f0-d863511eca56';

describe('codex fixtures', async () => {
  const r = await runImporter(codex, HOME);
  const s = (id: string) => r.sessions.get(id)!;

  it('finds the three rollouts, the loose one noted', () => {
    expect([...r.sessions.keys()].sort()).toEqual([VSCODE, TUI, DESKTOP].sort());
    expect(r.files.map((f) => f.relPath)).toEqual([
      'sessions/2026/05/11/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl',
      'sessions/2026/05/11/rollout-2026-05-11T13-28-45-019e1695-0522-7c83-8b39-0dd379793f80.jsonl',
      'rollout-sample.jsonl',
    ]);
    expect(r.defects.filter((d) => d.kind === 'loose_rollout').map((d) => d.file)).toEqual(['rollout-sample.jsonl']);
    // Nothing else is wrong with these files.
    expect(r.defects.filter((d) => d.kind !== 'loose_rollout')).toEqual([]);
  });

  it('reads the TUI session: two prompts, 102 tool calls plus 3 searches, gpt-5.5, completed', () => {
    const t = s(TUI);
    expect(t.summary.firstUserMessage).toBe('show tools');
    expect(t.summary.turnCount).toBe(2);
    expect(t.summary.toolCalls).toBe(105);
    expect(t.summary.models).toEqual(['gpt-5.5']);
    expect(t.summary.status).toBe('completed');
    expect(t.summary.startedAt).toBe('2026-05-11T08:27:17.490Z');
    expect(t.summary.endedAt).toBe('2026-05-11T08:44:58.544Z');
    // ccusage 20.0.24: input 1,126,300, output 9,118 (reasoning 1,759 inside), cache read 4,929,536.
    expect(t.summary.tokens).toEqual({ input: 1_126_300, output: 9_118, cacheRead: 4_929_536, cacheWrite: 0 });
    expect(t.summary.llmCalls).toBe(66);
    expect(t.summary.attrs?.usage).toBe('recorded');
    expect(t.summary.attrs?.reasoningTokens).toBe(1_759);
    expect(t.facts).toMatchObject({ kind: 'root', parentId: null, projectPath: '/Users/Sample_User/repos/codemie-ai/codemie-code', project: '-Users-Sample-User-repos-codemie-ai-codemie-code' });
    expect(t.facts.attrs).toMatchObject({ version: '0.125.0', originator: 'codex-tui', gitBranch: 'feat/codex-agent-plugin' });
  });

  it('counts each prompt and answer once (event_msg and response_item copies)', () => {
    const t = s(TUI);
    const prompts = t.events.filter((e) => e.kind === 'user_message');
    expect(prompts.map((e) => e.summary)).toEqual(['show tools', 'let\'s update the defailt context compart to 90 in env var']);
    expect(t.events.filter((e) => e.attrs.mirrorOf === 'user_message')).toHaveLength(2);
    // 13 assistant messages as response items; the 13 agent_message copies are mirrors.
    expect(t.events.filter((e) => e.kind === 'assistant_message')).toHaveLength(13);
    expect(t.events.filter((e) => e.attrs.mirrorOf === 'assistant_message')).toHaveLength(13);
  });

  it('says usage is unknown for the Desktop rollout that records no token_count', () => {
    const d = s(DESKTOP);
    expect(d.summary.llmCalls).toBe(0);
    expect(d.summary.attrs?.usage).toBe('unknown');
    expect(d.summary.models).toEqual([]);
    expect(d.summary.turnCount).toBe(3);
    expect(d.summary.firstUserMessage).toContain('Files mentioned by the user');
    expect(d.summary.toolCalls).toBe(38);
    expect(d.summary.status).toBe('completed');
    expect(d.facts.attrs).toMatchObject({ originator: 'Codex Desktop', version: '0.128.0-alpha.1', source: 'vscode' });
    const js = d.events.find((e) => e.kind === 'tool_call' && e.toolName === 'mcp__node_repl__js');
    expect(js).toBeDefined();
  });

  it('reads the 0.39 VS Code rollout: its custom model name, 19 token counts, patches', () => {
    const v = s(VSCODE);
    expect(v.summary.models).toEqual(['aide-gpt-5']);
    expect(v.summary.tokens).toEqual({ input: 133_698, output: 12_551, cacheRead: 136_832, cacheWrite: 0 });
    expect(v.summary.llmCalls).toBe(19);
    expect(v.summary.turnCount).toBe(1);
    expect(v.summary.toolCalls).toBe(19);
    expect(v.summary.firstUserMessage).toContain('go.mod');
    expect(v.facts.attrs).toMatchObject({ version: '0.39.0', originator: 'codex_vscode' });
  });
});
