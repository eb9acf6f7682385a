// The usage pass's calls of a Claude Code session (Importer.usageCalls) are the summariser's:
// each response once (its largest record), a mirror a child records first-hand dropped, another
// mirror kept as one.

import { describe, expect, it } from 'vitest';
import type { StoredEvent } from '../../core/events.js';
import { claudeCodeUsageCalls, summarizeClaudeCode } from './summarize.js';

let seq = 0;
function usageEvent(type: 'assistant' | 'progress', key: string, output: number, second: number): StoredEvent {
  seq++;
  return {
    seq,
    sessionId: 'parent',
    fileId: 0,
    ledger: 'main',
    file: 'parent.jsonl',
    lineNumber: seq,
    part: 0,
    tsKey: `2026-03-01T10:00:${String(second).padStart(2, '0')}.000000000Z`,
    type,
    kind: type === 'assistant' ? 'llm_call' : 'system',
    actor: 'assistant',
    turn: null,
    ids: {},
    tiebreak: '',
    ledgerRank: 0,
    usage: { key, model: 'claude-sonnet-4-5', input: 10, output, cacheWrite: 0, cacheRead: 0 },
    toolName: null,
    toolStatus: null,
    summary: '',
    attrs: { cacheWrite1h: 2 },
  };
}

describe('claudeCodeUsageCalls', () => {
  it('gives the calls and dropped mirrors the summariser gives', () => {
    const events = [
      usageEvent('assistant', 'msg_1:req_1', 5, 1),
      usageEvent('assistant', 'msg_1:req_1', 40, 2),
      usageEvent('progress', 'msg_2:req_2', 7, 3),
      usageEvent('progress', 'msg_3:req_3', 9, 4),
    ];
    const input = { facts: { id: 'parent', format: 'claude-code' }, events, childCalls: new Set(['msg_2:req_2']) };
    const alone = claudeCodeUsageCalls(input);
    const whole = summarizeClaudeCode(input);
    expect(alone).toEqual({ calls: whole.calls, dropUsage: whole.dropUsage });
    expect(alone.calls!.map((c) => [c.key, c.output, c.mirror, c.cacheWrite1h])).toEqual([
      ['msg_1:req_1', 40, false, 2],
      ['msg_3:req_3', 9, true, 2],
    ]);
    expect(alone.dropUsage).toEqual([events[2]!.seq]);
  });
});
