// The promises that must hold for any conversation and any budget: no orphan tool call or result
// ever reaches a model, the system prompt stays first, and what compaction hands back fits the
// limit unless it says it failed.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../model/chat.js';
import { assembleModelMessages } from './assembly.js';
import { effectiveInputLimit, TokenLedger, type ContextManagementMode } from './budget.js';
import { compactMessagesMultiStage } from './compaction.js';
import { findPairingProblems, leadingSystemCount } from './protocol.js';
import { prepareModelMessages } from './request.js';
import { budgetArb, conversationArb, scenarioArb } from './test-conversations.js';

const RUNS = { numRuns: 300, seed: 16 };
const modeArb = fc.constantFrom<ContextManagementMode>('normal', 'normal', 'light', 'off');

function expectShape(input: readonly ChatMessage[], output: readonly ChatMessage[]): void {
  expect(findPairingProblems(output)).toEqual([]);
  const head = leadingSystemCount(input);
  for (let i = 0; i < head; i++) expect(output[i]).toBe(input[i]);
  const firstOther = output[leadingSystemCount(output)];
  if (firstOther) expect(firstOther.role).not.toBe('tool');
}

describe('properties over random conversations and budgets', () => {
  it('compactMessagesMultiStage keeps the protocol and the system prompt, and fits unless it failed', () => {
    const stages = new Set<string>();
    fc.assert(
      fc.property(scenarioArb, modeArb, ({ messages, budget }, mode) => {
        expect(findPairingProblems(messages)).toEqual([]);
        const ledger = new TokenLedger();
        const r = compactMessagesMultiStage(messages, budget, { ledger, mode });
        stages.add(r.stage);
        expectShape(messages, r.messages);
        expect(r.tokensBefore).toBe(ledger.total(messages));
        if (r.failed) {
          expect(r.stage).toBe('4');
          expect(r.messages).toBe(messages);
        } else {
          expect(r.tokensAfter).toBe(ledger.total(r.messages));
          expect(r.tokensAfter).toBeLessThanOrEqual(effectiveInputLimit(budget));
        }
      }),
      RUNS,
    );
    // Random budgets mostly fit, compact once or fail; the ladder below reaches every stage.
    expect(stages).toContain('none');
    expect(stages).toContain('1');
    expect(stages).toContain('4');
  });

  it('as the limit shrinks, the stages only go up, every output fits, and every stage is reached', () => {
    const ORDER = ['none', '0', '1', '2', '2b', '3', '4'];
    const reached = new Set<string>();
    fc.assert(
      fc.property(conversationArb, fc.integer({ min: 0, max: 6_000 }), (messages, keepRecentTokens) => {
        const ledger = new TokenLedger();
        let limit = ledger.total(messages);
        let previous = 0;
        for (;;) {
          const r = compactMessagesMultiStage(messages, { contextWindowTokens: limit, reservedOutputTokens: 0, keepRecentTokens }, { ledger });
          reached.add(r.stage);
          expectShape(messages, r.messages);
          expect(ORDER.indexOf(r.stage)).toBeGreaterThanOrEqual(previous);
          previous = ORDER.indexOf(r.stage);
          if (r.failed || limit <= 0) break;
          expect(r.tokensAfter).toBeLessThanOrEqual(limit);
          // Just under this result: the same stage cannot fit again, a later one has to.
          limit = Math.min(limit, r.tokensAfter) - 1;
        }
      }),
      { numRuns: 200, seed: 16 },
    );
    expect([...reached].sort()).toEqual(['0', '1', '2', '2b', '3', '4', 'none']);
  });

  it('assembleModelMessages keeps the protocol and the system prompt, and never adds tokens', () => {
    fc.assert(
      fc.property(scenarioArb, modeArb, ({ messages, budget }, mode) => {
        const r = assembleModelMessages(messages, budget, { mode });
        expectShape(messages, r.messages);
        expect(r.messages).toHaveLength(messages.length);
        expect(r.stats.tokens).toBeLessThanOrEqual(r.stats.tokensIn);
      }),
      RUNS,
    );
  });

  it('prepareModelMessages sends messages within the limit unless it failed', () => {
    fc.assert(
      fc.property(scenarioArb, modeArb, ({ messages, budget }, mode) => {
        const ledger = new TokenLedger();
        const r = prepareModelMessages(messages, budget, { ledger, mode });
        expectShape(messages, r.messages);
        expectShape(messages, r.conversation);
        if (!r.failed) expect(ledger.total(r.messages)).toBeLessThanOrEqual(effectiveInputLimit(budget));
      }),
      RUNS,
    );
  });

  it('assembly repairs any conversation with messages lost or moved (a crash, a bad resume)', () => {
    const broken = fc
      .tuple(conversationArb, fc.array(fc.nat(), { maxLength: 6 }), fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 3 }))
      .map(([messages, drops, moves]) => {
        const out = [...messages];
        for (const d of drops) if (out.length > 0) out.splice(d % out.length, 1);
        for (const [from, to] of moves) {
          if (out.length < 2) break;
          const [m] = out.splice(from % out.length, 1);
          out.splice(to % out.length, 0, m!);
        }
        return out;
      });
    fc.assert(
      fc.property(broken, budgetArb, (messages, budget) => {
        const r = assembleModelMessages(messages, budget);
        expect(findPairingProblems(r.messages)).toEqual([]);
        expect(r.stats.repaired).toBe(findPairingProblems(messages).length > 0);
        const c = compactMessagesMultiStage(r.messages, budget);
        expect(findPairingProblems(c.messages)).toEqual([]);
      }),
      RUNS,
    );
  });
});
