import { describe, expect, it } from 'vitest';
import {
  adjustKeepFromForToolIntegrity,
  findPairingProblems,
  isProtocolSafeCompactionBoundary,
  leadingSystemCount,
  MISSING_RESULT_TEXT,
  repairToolPairing,
  unitStarts,
} from './protocol.js';
import { ask, call, result, say, sys, user } from './test-conversations.js';

// 0 system · 1 user · 2 assistant(a,b) · 3 result a · 4 result b · 5 assistant · 6 user · 7 assistant(c) · 8 result c
const conversation = [
  sys('prompt'),
  user('fix it'),
  ask([call('a', 'read', { path: 'x.ts' }), call('b', 'bash', { command: 'ls' })]),
  result('a', 'read', 'x'),
  result('b', 'bash', 'y'),
  say('done reading'),
  user('now test'),
  ask([call('c', 'bash', { command: 'npm test' })]),
  result('c', 'bash', 'ok'),
];

describe('protocol units and boundaries', () => {
  it('groups an assistant message with its results', () => {
    expect(leadingSystemCount(conversation)).toBe(1);
    expect(unitStarts(conversation, 1)).toEqual([1, 2, 5, 6, 7]);
  });

  it('calls a boundary safe only where no call is cut from its result', () => {
    const safe = conversation.map((_, i) => isProtocolSafeCompactionBoundary(conversation, i));
    expect(safe).toEqual([true, true, true, false, false, true, true, true, false]);
    expect(isProtocolSafeCompactionBoundary(conversation, conversation.length)).toBe(true);
  });

  it('moves a boundary inside tool results back to their assistant message', () => {
    expect(adjustKeepFromForToolIntegrity(conversation, 3)).toBe(2);
    expect(adjustKeepFromForToolIntegrity(conversation, 4)).toBe(2);
    expect(adjustKeepFromForToolIntegrity(conversation, 8)).toBe(7);
    expect(adjustKeepFromForToolIntegrity(conversation, 5)).toBe(5);
    expect(adjustKeepFromForToolIntegrity(conversation, 0)).toBe(1);
  });

  it('skips forward past a tool result that has no call before it', () => {
    const broken = [sys('p'), result('zz', 'bash', 'orphan'), user('u'), say('a')];
    expect(adjustKeepFromForToolIntegrity(broken, 1)).toBe(2);
  });
});

describe('pairing problems and repair', () => {
  it('finds nothing wrong in a conversation that keeps the protocol', () => {
    expect(findPairingProblems(conversation)).toEqual([]);
    expect(repairToolPairing(conversation)).toBe(conversation);
  });

  it('names orphan results, missing results and results out of place', () => {
    const broken = [user('u'), result('x', 'bash', 'orphan'), ask([call('a', 'bash'), call('b', 'read')]), result('a', 'bash', 'ok'), user('steer'), result('b', 'read', 'late')];
    expect(findPairingProblems(broken)).toEqual([
      'message 1: tool result "x" does not follow the assistant message that called it',
      'message 2: tool call "b" has no result after it',
      'message 5: tool result "b" does not follow the assistant message that called it',
    ]);
  });

  it('moves a late result back, answers a missing one with an error, and drops orphans', () => {
    const broken = [user('u'), result('x', 'bash', 'orphan'), ask([call('a', 'bash'), call('b', 'read'), call('c', 'edit')]), result('a', 'bash', 'ok'), user('steer'), result('b', 'read', 'late')];
    const repaired = repairToolPairing(broken);
    expect(repaired).toEqual([
      user('u'),
      ask([call('a', 'bash'), call('b', 'read'), call('c', 'edit')]),
      result('a', 'bash', 'ok'),
      result('b', 'read', 'late'),
      { role: 'tool', toolCallId: 'c', name: 'edit', content: MISSING_RESULT_TEXT, isError: true },
      user('steer'),
    ]);
    expect(findPairingProblems(repaired)).toEqual([]);
  });

  it('answers the calls of an interrupted last step', () => {
    const repaired = repairToolPairing([user('u'), ask([call('a', 'bash')])]);
    expect(repaired[2]).toEqual({ role: 'tool', toolCallId: 'a', name: 'bash', content: MISSING_RESULT_TEXT, isError: true });
  });
});
