// chat --resume reads a recorded session back from its file: bad and cut lines are skipped, and a
// tool call the record never answered (a kill mid-step) gets an "interrupted" result, so the
// conversation sent to the provider always pairs each call with its result.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers.js';
import { findSessionFiles, readRecordedConversation } from './resume.js';

const base = { session_id: 's-1', ts: '2026-11-26T10:00:00.000Z' };
const line = (seq: number, rec: Record<string, unknown>) => JSON.stringify({ ...base, seq, ...rec });

describe('readRecordedConversation', () => {
  it('skips malformed and cut lines and answers a call the record never answered', () => {
    const dir = tempDir('hs-resume-');
    const path = join(dir, 's-1.jsonl');
    writeFileSync(
      path,
      [
        line(0, { type: 'session_start', mode: 'chat', provider: 'ollama', model: 'm', cwd: dir, agent: 'a', tools_allowed: [], hindsight_version: '0' }),
        line(1, { type: 'message', role: 'system', content: 'sys', turn: 0 }),
        'not json at all',
        '[1,2,3]',
        line(2, { type: 'message', role: 'user', content: 'list them', turn: 1 }),
        line(3, { type: 'message', role: 'assistant', content: null, tool_calls: [{ id: 'c1', name: 'list_sessions', arguments: {} }, { id: 'c2', name: 'get_events', arguments: {} }], turn: 1, step: 1 }),
        line(4, { type: 'tool_result', turn: 1, step: 1, call_id: 'c1', name: 'list_sessions', content: '{}', is_error: false, duration_ms: 1 }),
        '{"type":"tool_result","call_id":"c2","con', // cut by a kill
      ].join('\n'),
    );
    const r = readRecordedConversation(path);
    expect(r.sessionId).toBe('s-1');
    expect(r.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool']);
    expect(r.messages[4]).toMatchObject({ role: 'tool', toolCallId: 'c2', isError: true, content: expect.stringMatching(/not run/) });
  });

  it('finds files by id prefix, and nothing for an unknown one', () => {
    const dir = tempDir('hs-resume-find-');
    writeFileSync(join(dir, 'abc123.jsonl'), '');
    expect(findSessionFiles(dir, 'abc')).toEqual([join(dir, 'abc123.jsonl')]);
    expect(findSessionFiles(dir, 'zzz')).toEqual([]);
    expect(findSessionFiles(join(dir, 'missing'), 'abc')).toEqual([]);
  });
});
