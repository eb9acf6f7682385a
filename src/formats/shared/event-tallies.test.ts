import { describe, expect, it } from 'vitest';
import type { StoredEvent } from '../../core/events.js';
import { eventTallies } from './event-tallies.js';

function ev(kind: StoredEvent['kind'], toolStatus: StoredEvent['toolStatus'] = null): StoredEvent {
  return {
    seq: 0, sessionId: 's', fileId: 0, ledger: 'l', file: 'f', lineNumber: 1, part: 0, tsKey: null, type: kind, kind,
    actor: null, turn: null, ids: {}, tiebreak: '', ledgerRank: 0, usage: null, toolName: null, toolStatus, summary: '', attrs: {},
  } as StoredEvent;
}

describe('eventTallies', () => {
  it('counts calls, failed results, errors, warnings and compactions, and every event', () => {
    const events = [
      ev('tool_call'), ev('tool_call'), ev('tool_result', 'ok'), ev('tool_result', 'error'),
      ev('error'), ev('warning'), ev('warning'), ev('compaction'), ev('user_message'),
    ];
    expect(eventTallies(events)).toEqual({ eventCount: 9, toolCalls: 2, toolErrors: 1, errors: 1, warnings: 2, compactions: 1 });
    expect(eventTallies([])).toEqual({ eventCount: 0, toolCalls: 0, toolErrors: 0, errors: 0, warnings: 0, compactions: 0 });
  });
});
