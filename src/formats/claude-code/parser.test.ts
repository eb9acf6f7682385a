// Parser and summariser behaviour on small crafted transcripts: line types, usage dedup, wrappers,
// status, orphans, sidechains and sub-agent layouts.

import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { runImporter } from '../harness.js';
import { claudeCode } from './index.js';
import { assistantLine, makeConfigDir, SID, SLUG, text, toolResult, toolUse, ts, userLine } from './test-lines.js';

const dirs: string[] = [];
async function run(files: Parameters<typeof makeConfigDir>[0]) {
  const dir = makeConfigDir(files);
  dirs.push(dir);
  return runImporter(claudeCode, dir);
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const file = `${SLUG}/${SID}.jsonl`;

describe('claude-code line types', () => {
  it('keeps an unknown line type as a generic event and notes it once per type', async () => {
    const r = await run({
      [file]: [
        userLine('u1', null, 1, 'hello'),
        { type: 'custom-future-thing', sessionId: SID, timestamp: ts(2), payload: { a: 1 } },
        { type: 'custom-future-thing', sessionId: SID, timestamp: ts(3) },
        { sessionId: SID, note: 'no type at all' },
      ],
    });
    const events = r.sessions.get(SID)!.events;
    expect(events.map((e) => [e.type, e.kind])).toEqual([
      ['user', 'user_message'],
      ['custom-future-thing', 'other'],
      ['custom-future-thing', 'other'],
      ['unknown', 'other'],
    ]);
    expect(events[1]!.tsKey).toBe('2026-01-01T00:00:02.000000000Z');
    const notes = r.defects.filter((d) => d.kind === 'unknown_line_type');
    expect(notes.map((d) => [d.severity, d.line])).toEqual([['info', 2], ['info', 4]]);
  });

  it('gives summary and file-history-snapshot lines the position of the line before and takes the title from summary', async () => {
    const r = await run({
      [file]: [
        userLine('u1', null, 5, 'first prompt'),
        { type: 'file-history-snapshot', messageId: 'u1', snapshot: { messageId: 'u1', trackedFileBackups: { 'a.ts': {} }, timestamp: ts(9) }, isSnapshotUpdate: false },
        { type: 'summary', summary: 'Fixing the login bug', leafUuid: 'u1' },
      ],
    });
    const s = r.sessions.get(SID)!;
    expect(s.events.map((e) => e.tsKey)).toEqual(Array(3).fill('2026-01-01T00:00:05.000000000Z'));
    expect(s.events[1]!.attrs).toMatchObject({ trackedFiles: 1, snapshotTimestamp: ts(9) });
    expect(s.facts.title).toBe('Fixing the login bug');
    expect(s.summary.firstUserMessage).toBe('first prompt');
    expect(r.defects.filter((d) => d.kind === 'missing_timestamp')).toEqual([]);
  });

  it('reports a missing timestamp where Claude Code always writes one, keeping the event in place', async () => {
    const { timestamp: _drop, ...noTime } = userLine('u2', 'u1', 0, 'second');
    const r = await run({ [file]: [userLine('u1', null, 4, 'first'), noTime, userLine('u3', 'u2', 6, 'third')] });
    expect(r.defects.filter((d) => d.kind === 'missing_timestamp').map((d) => [d.severity, d.line, d.sessionId])).toEqual([['warning', 2, SID]]);
    expect(r.sessions.get(SID)!.events.map((e) => [e.lineNumber, e.tsKey])).toEqual([
      [1, '2026-01-01T00:00:04.000000000Z'],
      [2, '2026-01-01T00:00:04.000000000Z'],
      [3, '2026-01-01T00:00:06.000000000Z'],
    ]);
  });

  it('splits an assistant line into block events with ids, and counts a split response once with its largest usage', async () => {
    const ids = { msg: 'msg_1', req: 'req_1' };
    const r = await run({
      [file]: [
        userLine('u1', null, 1, 'do it'),
        assistantLine('a1', 'u1', 2, ids, [{ type: 'thinking', thinking: 'hmm', signature: 'x' }], { input_tokens: 3, output_tokens: 8, cache_read_input_tokens: 100 }),
        assistantLine('a2', 'a1', 3, ids, [text('Running it.'), toolUse('toolu_1', 'Bash', { command: 'ls' })], { input_tokens: 3, output_tokens: 8, cache_read_input_tokens: 100 }),
        assistantLine('a3', 'a2', 4, ids, [toolUse('toolu_2', 'Read', { file_path: '/a' })], { input_tokens: 3, output_tokens: 472, cache_read_input_tokens: 100 }),
        userLine('u2', 'a3', 5, [toolResult('toolu_2', 'file text')]),
        userLine('u3', 'a2', 6, [toolResult('toolu_1', 'boom', true)]),
        assistantLine('a4', 'u3', 7, { msg: 'msg_2', req: 'req_2' }, [text('Done.')], { input_tokens: 1, output_tokens: 5 }),
      ],
    });
    const s = r.sessions.get(SID)!;
    const a2 = s.events.filter((e) => e.lineNumber === 3);
    expect(a2.map((e) => [e.part, e.kind, e.toolName, e.usage !== null])).toEqual([
      [0, 'assistant_message', null, true],
      [1, 'tool_call', 'Bash', false],
    ]);
    expect(a2[1]!.ids).toMatchObject({ toolCall: 'toolu_1', message: 'msg_1', request: 'req_1', entry: 'a2' });
    expect(a2[1]!.summary).toBe('Bash: ls');
    // Results matched by tool_use_id, not by position: both answered, one failed.
    const results = s.events.filter((e) => e.kind === 'tool_result');
    expect(results.map((e) => [e.toolName, e.toolStatus])).toEqual([['Read', 'ok'], ['Bash', 'error']]);
    expect(s.derivedDefects).toEqual([]);
    expect(s.summary.tokens).toEqual({ input: 4, output: 477, cacheWrite: 0, cacheRead: 100 });
    expect(s.summary.llmCalls).toBe(2);
    expect(s.summary).toMatchObject({ toolCalls: 2, toolErrors: 1, status: 'completed', lastResponsePreview: 'Done.' });
  });

  it('never counts <synthetic> usage and marks a final API error as errored', async () => {
    const r = await run({
      [file]: [
        userLine('u1', null, 1, 'hi'),
        assistantLine('a1', 'u1', 2, { msg: 'msg_x', req: 'req_x' }, [text('API Error: 529 overloaded')], { input_tokens: 50, output_tokens: 50 }, {
          isApiErrorMessage: true,
          message: { model: '<synthetic>', id: 'msg_x', role: 'assistant', content: [text('API Error: 529 overloaded')], stop_reason: 'stop_sequence', usage: { input_tokens: 50, output_tokens: 50 } },
        }),
      ],
    });
    const s = r.sessions.get(SID)!.summary;
    expect(s).toMatchObject({ status: 'errored', errors: 1, llmCalls: 0, models: [] });
    expect(s.tokens).toEqual({ input: 0, output: 0, cacheWrite: 0, cacheRead: 0 });
  });

  it('reports an unanswered final tool call as an orphan and the session as interrupted', async () => {
    const r = await run({
      [file]: [
        userLine('u1', null, 1, 'go'),
        assistantLine('a1', 'u1', 2, { msg: 'm1', req: 'r1' }, [toolUse('toolu_9', 'Bash', { command: 'sleep 100' })], { output_tokens: 4 }),
        { type: 'progress', data: { type: 'hook_progress', hookEvent: 'PreToolUse', hookName: 'PreToolUse:Bash' }, parentToolUseID: 'toolu_9', sessionId: SID, timestamp: ts(3), uuid: 'p1' },
      ],
    });
    const s = r.sessions.get(SID)!;
    expect(s.summary.status).toBe('interrupted');
    expect(s.derivedDefects).toEqual([
      expect.objectContaining({ severity: 'warning', kind: 'orphan_tool_call', file: `projects/${file}`, line: 2 }),
    ]);
    expect(s.summary.warnings).toBe(1);
  });

  it('marks Claude Code wrapper text as non-human and does not count it as a turn', async () => {
    const r = await run({
      [file]: [
        userLine('u0', null, 1, '<local-command-caveat>Caveat: local commands follow.</local-command-caveat>', { isMeta: true }),
        userLine('u1', 'u0', 1, '<command-name>/model</command-name>\n<command-message>model</command-message>\n<command-args></command-args>'),
        userLine('u2', 'u1', 1, '<local-command-stdout>Set model to opus</local-command-stdout>'),
        userLine('u3', 'u2', 2, '<bash-input>ls</bash-input>'),
        userLine('u4', 'u3', 3, [text('<system-reminder>Remember the todo list.</system-reminder>')]),
        userLine('u5', 'u4', 4, 'Please <b>fix</b> the tests'),
        userLine('u6', 'u5', 5, [text('[Request interrupted by user]')]),
      ],
    });
    const s = r.sessions.get(SID)!;
    expect(s.events.map((e) => e.attrs.wrapper ?? 'human')).toEqual([
      'caveat', 'command', 'local-command-output', 'bash-input', 'system-reminder', 'human', 'interrupt',
    ]);
    expect(s.events.filter((e) => e.attrs.nonHuman === true)).toHaveLength(6);
    expect(s.summary).toMatchObject({ turnCount: 1, firstUserMessage: 'Please <b>fix</b> the tests', status: 'interrupted' });
  });
});

describe('claude-code sidechains and sub-agents', () => {
  it('keeps an inline sidechain without a Task call as an unlinked child with a note', async () => {
    const r = await run({
      [file]: [
        userLine('u1', null, 1, 'hi'),
        userLine('s1', null, 2, 'Search the repo', { isSidechain: true }),
        assistantLine('s2', 's1', 3, { msg: 'm_s', req: 'r_s' }, [text('Found it.')], { output_tokens: 7 }, { isSidechain: true }),
      ],
    });
    const child = r.sessions.get(`${SID}:sidechain-s1`)!;
    expect(child.facts).toMatchObject({ kind: 'sidechain', parentId: SID, attrs: { linked: false } });
    expect(child.events.map((e) => e.lineNumber)).toEqual([2, 3]);
    expect(child.summary.tokens.output).toBe(7);
    expect(r.sessions.get(SID)!.summary.tokens.output).toBe(0);
    expect(r.defects.find((d) => d.kind === 'unlinked_sidechain')).toMatchObject({ severity: 'info', line: 2 });
  });

  it('reads the older agent-<id>.jsonl layout, taking the parent from the lines', async () => {
    const agentLines = [
      userLine('x1', null, 2, 'Find the config', { isSidechain: true, agentId: 'a123' }),
      assistantLine('x2', 'x1', 3, { msg: 'm_a', req: 'r_a' }, [text('It is in config.ts')], { input_tokens: 2, output_tokens: 9 }, { isSidechain: true, agentId: 'a123' }),
    ];
    const r = await run({ [file]: [userLine('u1', null, 1, 'hi')], [`${SLUG}/agent-a123.jsonl`]: agentLines });
    const agentFile = r.files.find((f) => f.relPath.endsWith('agent-a123.jsonl'))!;
    expect(agentFile).toMatchObject({ ledger: 'agent-a123', ledgerRank: 1 });
    expect(agentFile.sessionId).toBeUndefined();
    const child = r.sessions.get(`${SID}:a123`)!;
    expect(child.facts).toMatchObject({ kind: 'subagent', parentId: SID, project: SLUG });
    expect(child.summary).toMatchObject({ status: 'completed', tokens: { input: 2, output: 9, cacheWrite: 0, cacheRead: 0 } });
  });

  it('folds agent-<id>.meta.json into the child session facts and keeps it as a document ledger', async () => {
    const r = await run({
      [file]: [userLine('u1', null, 1, 'hi')],
      [`${SLUG}/${SID}/subagents/agent-b7.jsonl`]: [userLine('y1', null, 2, 'Review the diff', { isSidechain: true, agentId: 'b7' })],
      [`${SLUG}/${SID}/subagents/agent-b7.meta.json`]: JSON.stringify({ agentType: 'code-reviewer', description: 'Review changes', toolUseId: 'toolu_77' }),
    });
    expect(r.files.map((f) => [f.ledger, f.kind])).toEqual([
      ['transcript', 'jsonl'],
      ['agent-b7', 'jsonl'],
      ['agent-b7.meta', 'document'],
    ]);
    expect(r.lines.get(`projects/${SLUG}/${SID}/subagents/agent-b7.meta.json`)?.total).toBe(1);
    expect(r.sessions.get(`${SID}:b7`)!.facts).toMatchObject({
      kind: 'subagent',
      parentId: SID,
      agentName: 'code-reviewer',
      title: 'Review changes',
      attrs: { toolUseId: 'toolu_77', agentType: 'code-reviewer' },
    });
  });
});
