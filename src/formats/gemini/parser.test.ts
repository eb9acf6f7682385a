import { describe, expect, it } from 'vitest';
import { runImporter } from '../harness.js';
import { gemini } from './index.js';
import { replyUsage } from './tokens.js';
import { call, geminiHome, header, PROJECT_ROOT, reply, SESSION, tokens, user, writeChat, writeDocument } from './test-chats.js';

async function one(records: Parameters<typeof writeChat>[2]) {
  const { home, chats } = geminiHome();
  writeChat(chats, 'session-2026-03-01T10-00-11111111.jsonl', records);
  const r = await runImporter(gemini, home);
  const s = r.sessions.get(SESSION)!;
  return { r, s, kinds: s.events.map((e) => e.kind) };
}

const stamp = (at: string) => ({ $set: { lastUpdated: at } });

describe('Gemini tokens, as ccusage 20 reads them', () => {
  it('takes cached input out of input, adds tool-use prompt tokens to it, and keeps thoughts apart as reasoning', () => {
    const u = replyUsage({ input: 15327, output: 23, cached: 11526, thoughts: 919, tool: 7, total: 16276 }, 'k', 'gemini-3-flash-preview')!;
    // ccusage's own unit test of these figures: input 3,808 (15,327 − 11,526 + 7), cache read 11,526, output 23, 919 beside it.
    expect(u.usage).toEqual({ key: 'k', model: 'gemini-3-flash-preview', input: 3808, output: 23, cacheRead: 11526, cacheWrite: 0, reasoning: 919 });
    expect(u.attrs).toEqual({ thoughts: 919, toolTokens: 7, candidates: 23, totalTokens: 16276 });
  });

  it('keeps input whole when the total shows it already excludes the cached tokens', () => {
    const u = replyUsage({ input: 100, output: 10, cached: 50, thoughts: 0, tool: 0, total: 160 }, 'k', null)!;
    expect(u.usage).toEqual({ key: 'k', model: null, input: 100, cacheRead: 50, cacheWrite: 0, output: 10 });
  });

  // Each case as ccusage 20.0.24 printed it for a one-reply chat (inputTokens, outputTokens, totalTokens):
  // a remainder of the total goes to output when the reply has none, else beside output with the thoughts.
  it('puts what the total holds beyond the named fields where ccusage does', () => {
    const kinds = (t: Record<string, number>) => {
      const u = replyUsage(t, 'k', 'm')!.usage;
      return [u.input, u.output, u.cacheRead, u.reasoning ?? 0];
    };
    expect(kinds({ input: 100, output: 10, cached: 0, thoughts: 0, tool: 0, total: 125 })).toEqual([100, 10, 0, 15]); // ccusage: 100, 10, 125
    expect(kinds({ input: 100, output: 10, cached: 0, thoughts: 5, tool: 0, total: 135 })).toEqual([100, 10, 0, 25]); // 100, 10, 135
    expect(kinds({ input: 100, output: 0, cached: 0, thoughts: 0, tool: 0, total: 130 })).toEqual([100, 30, 0, 0]); // 100, 30, 130
    expect(kinds({ input: 100, output: 0, cached: 0, thoughts: 7, tool: 0, total: 130 })).toEqual([100, 23, 0, 7]); // 100, 23, 130
    expect(kinds({ input: 100, output: 10, cached: 40, thoughts: 7, tool: 3, total: 120 })).toEqual([63, 10, 40, 7]); // 63, 10, 120
    expect(kinds({ input: 100, output: 10, cached: 0, thoughts: 7, tool: 0 })).toEqual([100, 10, 0, 7]); // no total: 100, 10, 117
    expect(kinds({ input: 0, output: 0, cached: 0, thoughts: 7, tool: 0, total: 7 })).toEqual([0, 0, 0, 7]); // 0, 0, 7
  });

  it('bills a total no field explains as output, and counts no call for an empty record', () => {
    expect(replyUsage({ total: 654 }, 'k', 'm')!.usage).toEqual({ key: 'k', model: 'm', input: 0, output: 654, cacheRead: 0, cacheWrite: 0 });
    expect(replyUsage({ input: 0, output: 0, cached: 0, thoughts: 0, tool: 0, total: 0 }, 'k', 'm')).toBeNull();
    expect(replyUsage('lots', 'k', 'm')).toBeNull();
  });
});

describe('the JSONL chat', () => {
  it('reads a reply written three times under one id as one text, one call, one result and one LLM call', async () => {
    const first = reply('r1', '2026-03-01T10:00:04.000Z', { thoughts: [{ subject: 'Plan', description: 'read the file', timestamp: '2026-03-01T10:00:03.000Z' }], tokens: tokens(1000, 20, 400, 30) });
    const { s, kinds } = await one([
      header(),
      user('u1', 'read the config', '2026-03-01T10:00:01.000Z'),
      stamp('2026-03-01T10:00:01.000Z'),
      first,
      stamp('2026-03-01T10:00:04.000Z'),
      { ...first, toolCalls: [call('c1', 'read_file', { file_path: `${PROJECT_ROOT}/config.json` }, 'executing')] },
      { ...first, toolCalls: [call('c1', 'read_file', { file_path: `${PROJECT_ROOT}/config.json` }, 'success', '{"port": 80}')] },
      reply('r2', '2026-03-01T10:00:09.000Z', { content: 'The port is 80.', tokens: tokens(1100, 8, 1000) }),
    ]);
    expect(kinds).toEqual(['session_start', 'user_message', 'thinking', 'llm_call', 'tool_call', 'tool_result', 'assistant_message', 'llm_call']);
    expect(s.summary).toMatchObject({
      status: 'completed',
      turnCount: 1,
      firstUserMessage: 'read the config',
      lastResponsePreview: 'The port is 80.',
      llmCalls: 2,
      toolCalls: 1,
      toolErrors: 0,
      models: ['gemini-2.5-pro'],
      tokens: { input: 600 + 100, output: 20 + 8, cacheRead: 1400, cacheWrite: 0, reasoning: 30 },
      startedAt: '2026-03-01T10:00:00.000Z',
      endedAt: '2026-03-01T10:00:09.000Z',
    });
    const result = s.events.find((e) => e.kind === 'tool_result')!;
    expect(result).toMatchObject({ toolName: 'read_file', toolStatus: 'ok', ids: { toolCall: 'c1', message: 'r1' } });
  });

  it('proves the project path from a tool argument whose sha256 is the projectHash', async () => {
    const { s } = await one([
      header(),
      user('u1', 'list', '2026-03-01T10:00:01.000Z'),
      reply('r1', '2026-03-01T10:00:02.000Z', { toolCalls: [call('c1', 'list_directory', { dir_path: `${PROJECT_ROOT}/src/deep` })] }),
    ]);
    expect(s.facts.projectPath).toBe(PROJECT_ROOT);
  });

  it('takes the title from $set summary, marks compactions and rewinds, and keeps every line as evidence', async () => {
    const { r, s, kinds } = await one([
      header(),
      user('u1', 'first', '2026-03-01T10:00:01.000Z'),
      reply('r1', '2026-03-01T10:00:02.000Z', { content: 'one', tokens: tokens(100, 5) }),
      user('u2', 'second', '2026-03-01T10:00:03.000Z'),
      { $rewindTo: 'u2' },
      { $set: { messages: [user('u1', 'first', '2026-03-01T10:00:01.000Z')], lastUpdated: '2026-03-01T10:00:04.000Z' } },
      { $set: { summary: 'Fix the login page' } },
    ]);
    expect(s.facts.title).toBe('Fix the login page');
    expect(kinds).toEqual(['session_start', 'user_message', 'assistant_message', 'llm_call', 'user_message', 'system', 'compaction']);
    expect(s.events.find((e) => e.type === '$rewindTo')!.attrs).toEqual({ rewindTo: 'u2' });
    expect(s.summary.compactions).toBe(1);
    expect(s.summary.attrs).toMatchObject({ rewinds: 1 });
    expect([...r.lines.values()][0]).toMatchObject({ total: 7, bad: 0 });
  });

  it('counts a slash command as typed, and a function-response turn as nobody\'s', async () => {
    const { s, kinds } = await one([
      header(),
      user('u1', 'You are an AI agent … generate GEMINI.md', '2026-03-01T10:00:01.000Z', { displayContent: [{ text: '/init' }] }),
      reply('r1', '2026-03-01T10:00:02.000Z', { content: 'Done.', tokens: tokens(100, 5) }),
      user('u2', 'System: Please continue.', '2026-03-01T10:00:03.000Z', { displayContent: [{ functionResponse: { id: 'x', name: 'update_topic', response: { output: 'ok' } } }] }),
      reply('r2', '2026-03-01T10:00:04.000Z', { content: 'Continuing.', tokens: tokens(120, 5) }),
    ]);
    expect(kinds.filter((k) => k === 'user_message')).toHaveLength(2);
    expect(s.summary.turnCount).toBe(1);
    expect(s.summary.firstUserMessage).toBe('/init');
    const [typed, synthetic] = s.events.filter((e) => e.kind === 'user_message');
    expect(typed!.attrs).toMatchObject({ expanded: true, command: '/init' });
    expect(synthetic!.attrs).toMatchObject({ nonHuman: true });
  });

  it('gives a reply without a model the last model named, as ccusage does for JSONL', async () => {
    const { s } = await one([
      header(),
      user('u1', 'hi', '2026-03-01T10:00:01.000Z'),
      reply('r1', '2026-03-01T10:00:02.000Z', { content: 'a', model: 'gemini-3-flash-preview', tokens: tokens(100, 5) }),
      { id: 'r2', timestamp: '2026-03-01T10:00:03.000Z', type: 'gemini', content: 'b', tokens: tokens(100, 5) },
    ]);
    expect(s.events.filter((e) => e.usage).map((e) => e.usage!.model)).toEqual(['gemini-3-flash-preview', 'gemini-3-flash-preview']);
  });

  it.each([
    ['a cancellation notice', 'interrupted', [user('u1', 'go', '2026-03-01T10:00:01.000Z'), { id: 'i1', timestamp: '2026-03-01T10:00:02.000Z', type: 'info', content: 'Request cancelled.' }]],
    ['an error message', 'errored', [user('u1', 'go', '2026-03-01T10:00:01.000Z'), { id: 'e1', timestamp: '2026-03-01T10:00:02.000Z', type: 'error', content: 'API error: quota exceeded' }]],
    ['a tool call still running', 'interrupted', [user('u1', 'go', '2026-03-01T10:00:01.000Z'), reply('r1', '2026-03-01T10:00:02.000Z', { toolCalls: [call('c1', 'run_shell_command', { command: 'npm test' }, 'executing')] })]],
    ['a prompt with no answer yet', 'active', [user('u1', 'go', '2026-03-01T10:00:01.000Z')]],
    ['tool results the model has not answered', 'active', [user('u1', 'go', '2026-03-01T10:00:01.000Z'), reply('r1', '2026-03-01T10:00:02.000Z', { toolCalls: [call('c1', 'read_file', { file_path: '/a' })] })]],
  ])('ends with %s → %s', async (_what, status, records) => {
    const { s } = await one([header(), ...records]);
    expect(s.summary.status).toBe(status);
  });

  it('reports a tool call that never got a result as an orphan with its file and line', async () => {
    const { s } = await one([header(), user('u1', 'go', '2026-03-01T10:00:01.000Z'), reply('r1', '2026-03-01T10:00:02.000Z', { toolCalls: [call('c1', 'run_shell_command', { command: 'npm test' }, 'executing')] })]);
    expect(s.derivedDefects).toEqual([
      expect.objectContaining({ severity: 'warning', kind: 'orphan_tool_call', line: 3, message: expect.stringContaining('run_shell_command call c1 has no result') }),
    ]);
  });
});

describe('bad input in a JSONL chat', () => {
  it('reports each malformed line and record with what and where, and reads everything else', async () => {
    const { r, s } = await one([
      header(),
      user('u1', 'go', '2026-03-01T10:00:01.000Z'),
      '{"id": "broken", "type": "gem',
      '[1, 2, 3]',
      { id: 'r1', timestamp: '2026-03-01T10:00:02.000Z', type: 'gemini', content: 'ok', model: 'gemini-2.5-pro', tokens: 'many', toolCalls: 'none' },
      reply('r2', '2026-03-01T10:00:03.000Z', { toolCalls: [{ name: 'read_file' }, call('c2', 'read_file', { file_path: '/x' })], tokens: tokens(50, 5) }),
      { id: 'm1', timestamp: '2026-03-01T10:00:04.000Z', type: 'hologram', content: 'what' },
      { id: 'm2', timestamp: '2026-03-01T10:00:05.000Z', type: 'hologram', content: 'again' },
      { weird: true },
      { $set: 'not an object' },
    ]);
    const found = r.defects.map((d) => [d.severity, d.kind, d.line]);
    expect(found).toEqual([
      ['error', 'malformed_json', 3],
      ['error', 'non_object_json', 4],
      ['warning', 'unexpected_field', 5],
      ['warning', 'unexpected_field', 5],
      ['warning', 'unexpected_field', 6],
      ['info', 'unknown_message_type', 7],
      ['info', 'unknown_record', 9],
      ['warning', 'unexpected_field', 10],
    ]);
    expect(r.defects[2]!.message).toContain('toolCalls that is not a list');
    expect(r.defects[3]!.message).toContain('tokens that is not an object');
    expect(r.defects[4]!.message).toContain('toolCalls[0] has no id');
    // Everything readable was read: the reply text, the second call and its result, one usage.
    expect(s.summary).toMatchObject({ toolCalls: 1, llmCalls: 1, lastResponsePreview: 'ok' });
    expect(s.events.filter((e) => e.kind === 'other')).toHaveLength(3);
  });
});

describe('a huge line', () => {
  it('keeps a 9 MB message as evidence and still places it in the conversation', async () => {
    const big = 'x'.repeat(9 * 1024 * 1024);
    const { r, s } = await one([header(), user('u1', big, '2026-03-01T10:00:01.000Z'), reply('r1', '2026-03-01T10:00:02.000Z', { content: 'read it', tokens: tokens(10, 2) })]);
    expect(r.defects).toEqual([expect.objectContaining({ severity: 'info', kind: 'oversized_line', line: 2 })]);
    const huge = s.events.find((e) => e.attrs.huge === true)!;
    expect(huge).toMatchObject({ kind: 'user_message', type: 'user', ids: { message: 'u1' }, tsKey: '2026-03-01T10:00:01.000000000Z' });
    expect(s.summary).toMatchObject({ turnCount: 1, llmCalls: 1, status: 'completed' });
  });
});

describe('the legacy JSON document', () => {
  it('reads each message once, in order, with its place in messages[]', async () => {
    const { home, chats } = geminiHome();
    writeDocument(chats, 'session-2026-03-01T10-00-11111111.json', [
      user('u1', 'hi', '2026-03-01T10:00:01.000Z'),
      reply('r1', '2026-03-01T10:00:02.000Z', { content: 'hello', tokens: tokens(100, 5, 0, 7) }),
      reply('r2', '2026-03-01T10:00:03.000Z', { content: 'no model', model: undefined, tokens: tokens(100, 5) }),
    ]);
    const r = await runImporter(gemini, home);
    const s = r.sessions.get(SESSION)!;
    expect(r.files[0]).toMatchObject({ ledger: 'chat.json', kind: 'document' });
    expect(s.events.map((e) => [e.kind, e.attrs.messageIndex])).toEqual([
      ['session_start', undefined],
      ['user_message', 0],
      ['assistant_message', 1],
      ['llm_call', 1],
      ['assistant_message', 2],
      ['llm_call', 2],
    ]);
    // ccusage gives a document's reply no model hint; the call is kept, unpriced.
    expect(s.events.filter((e) => e.usage).map((e) => e.usage!.model)).toEqual(['gemini-2.5-pro', null]);
    expect(s.summary).toMatchObject({ status: 'completed', turnCount: 1, firstUserMessage: 'hi', tokens: { input: 200, output: 10, cacheRead: 0, cacheWrite: 0, reasoning: 7 } });
  });

  it('reports a document that is not a conversation, and messages that are not messages', async () => {
    const { home, chats } = geminiHome();
    writeChat(chats, 'session-2026-03-01T10-00-aaaaaaaa.json', ['{"sessionId": "a", "projectHash": "h", "messages": ']);
    writeDocument(chats, 'session-2026-03-01T10-00-11111111.json', [user('u1', 'hi', '2026-03-01T10:00:01.000Z'), 'text' as never, { type: 'user' }]);
    const r = await runImporter(gemini, home);
    expect(r.defects.map((d) => [d.severity, d.kind, d.file.split('/').pop()])).toEqual([
      ['warning', 'not_a_message', 'session-2026-03-01T10-00-11111111.json'],
      ['warning', 'not_a_message', 'session-2026-03-01T10-00-11111111.json'],
      ['error', 'invalid_document_json', 'session-2026-03-01T10-00-aaaaaaaa.json'],
    ]);
    expect(r.defects[0]!.message).toBe('messages[1] is not an object; it was skipped');
    expect(r.defects[1]!.message).toBe('messages[2] is an object without a string id; it was skipped');
    expect(r.sessions.get(SESSION)!.summary.turnCount).toBe(1);
  });
});
