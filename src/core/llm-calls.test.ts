// The one call rule: per usage key the largest record, ties to the earlier one; mirrors marked only
// when the session never records the call itself; children summarised before their parents.

import { describe, expect, it } from 'vitest';
import type { StoredEvent } from './events.js';
import { firstHandKeys, llmCalls, recordedNumber } from './llm-calls.js';
import { childrenFirst, depths } from './session-tree.js';

function event(seq: number, key: string | null, output: number, tsKey: string | null, extra: Partial<StoredEvent> = {}): StoredEvent {
  return {
    seq,
    sessionId: 's',
    fileId: 1,
    ledger: 'transcript',
    file: 'a.jsonl',
    lineNumber: seq,
    part: 0,
    tsKey,
    type: 'assistant',
    kind: 'assistant_message',
    actor: 'assistant',
    turn: null,
    ids: {},
    tiebreak: '',
    ledgerRank: 0,
    usage: key === null ? null : { key, model: 'm', input: 1, output, cacheWrite: 2, cacheRead: 3 },
    toolName: null,
    toolStatus: null,
    summary: '',
    attrs: {},
    ...extra,
  };
}

const T1 = '2026-03-01T10:00:01.000000000Z';
const T2 = '2026-03-01T10:00:02.000000000Z';

describe('llmCalls', () => {
  it('keeps the largest record of each key, in sequence order', () => {
    const calls = llmCalls([event(1, 'a', 3, T1), event(2, 'a', 30, T1), event(3, null, 9, T1), event(4, 'b', 1, T2)]);
    expect(calls.map((c) => [c.seq, c.key, c.output])).toEqual([
      [2, 'a', 30],
      [4, 'b', 1],
    ]);
    expect(calls[0]).toMatchObject({ input: 1, cacheWrite: 2, cacheRead: 3, cacheWrite1h: 0, costUsd: null, tsKey: T1, model: 'm', mirror: false });
  });

  it('carries reasoning tokens (0 when a format has none) and counts them in the size that picks a record', () => {
    const thinking = (seq: number, output: number, reasoning: number) =>
      event(seq, 'g', output, T1, { usage: { key: 'g', model: 'm', input: 1, output, cacheWrite: 0, cacheRead: 0, reasoning } });
    // The second record is larger only by its reasoning: it stands for the call.
    expect(llmCalls([thinking(1, 5, 0), thinking(2, 5, 9)]).map((c) => [c.seq, c.output, c.reasoning])).toEqual([[2, 5, 9]]);
    expect(llmCalls([event(1, 'a', 5, T1)])[0]!.reasoning).toBe(0);
  });

  it('breaks a tie toward a record without a time, then the earlier time, then the lower sequence', () => {
    expect(llmCalls([event(1, 'a', 5, T1), event(2, 'a', 5, null)])[0]!.seq).toBe(2);
    expect(llmCalls([event(1, 'a', 5, T2), event(2, 'a', 5, T1)])[0]!.seq).toBe(2);
    expect(llmCalls([event(2, 'a', 5, T1), event(1, 'a', 5, T1)])[0]!.seq).toBe(1);
  });

  it('reads the one-hour cache writes and a recorded cost as numbers', () => {
    const [c] = llmCalls([event(1, 'a', 5, T1, { attrs: { cacheWrite1h: 7, costUsd: '0.0123' } })]);
    expect([c!.cacheWrite1h, c!.costUsd]).toEqual([7, 0.0123]);
    expect([recordedNumber(' 7.5 '), recordedNumber('1.2.3'), recordedNumber('abc'), recordedNumber(true), recordedNumber(null), recordedNumber([1])]).toEqual([
      7.5,
      null,
      null,
      1,
      null,
      null,
    ]);
  });

  it('marks a call a mirror only when every record of it is one', () => {
    const isMirror = (e: StoredEvent) => e.type === 'progress';
    const calls = llmCalls(
      [event(1, 'copied', 9, T1, { type: 'progress' }), event(2, 'own', 9, T1, { type: 'progress' }), event(3, 'own', 1, T2)],
      isMirror,
    );
    expect(calls.map((c) => [c.key, c.mirror])).toEqual([
      ['copied', true],
      ['own', false],
    ]);
    expect(firstHandKeys(calls)).toEqual(['own']);
  });
});

describe('session tree', () => {
  it('orders children before parents, and survives a cycle of parent links', () => {
    const d = depths([
      { id: 'p', parentId: null },
      { id: 'p:a', parentId: 'p' },
      { id: 'p:a:b', parentId: 'p:a' },
      { id: 'x', parentId: 'y' },
      { id: 'y', parentId: 'x' },
      { id: 'orphan', parentId: 'gone' },
    ]);
    expect(d.get('p:a:b')).toBe(2);
    expect(d.get('orphan')).toBe(0);
    expect(childrenFirst(['p', 'p:a:b', 'orphan', 'p:a'], d)).toEqual(['p:a:b', 'p:a', 'orphan', 'p']);
    expect([d.get('x'), d.get('y')]).toEqual([1, 1]);
  });
});
