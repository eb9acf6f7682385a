import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../model/chat.js';
import { TokenLedger } from './budget.js';
import { compactMessagesMultiStage } from './compaction.js';
import { findPairingProblems } from './protocol.js';
import { SUMMARY_HEADING } from './summary.js';
import { ask, call, result, say, sys, textOf, toolStep, user } from './test-conversations.js';

const tokensOf = (messages: readonly ChatMessage[]) => new TokenLedger().total(messages);
/** A budget whose input limit is exactly `limit` tokens. */
const within = (limit: number, keepRecentTokens: number) => ({ contextWindowTokens: limit, reservedOutputTokens: 0, keepRecentTokens });

/** Twelve steps of about 500 tokens each (reads, a failing test run, edits), then a short last turn. */
function longConversation(): ChatMessage[] {
  const out: ChatMessage[] = [sys('You are a careful coding agent.'), user('Make the importer handle truncated lines.')];
  for (let i = 0; i < 12; i++) {
    out.push(
      ...toolStep(`s${i}`, [
        i % 3 === 2
          ? { name: 'bash', args: { command: 'npm test' }, content: textOf(500, `test run ${i}`), isError: true }
          : { name: i % 3 === 0 ? 'read' : 'edit', args: { path: `src/ingest/file-${i}.ts` }, content: textOf(500, `file ${i}`) },
      ]),
    );
  }
  out.push(say("I'll keep the partial line as a diagnostic instead of dropping it."), user('Good. Now summarise what changed.'), say('Two files changed; tests pass.'));
  return out;
}

describe('compactMessagesMultiStage: each stage', () => {
  it('leaves a conversation that fits alone (stage none)', () => {
    const messages = [sys('s'), user('hello')];
    const r = compactMessagesMultiStage(messages, {});
    expect(r).toMatchObject({ stage: 'none', failed: false, summary: null, droppedMessages: 0 });
    expect(r.messages).toBe(messages);
    expect(r.tokensAfter).toBe(r.tokensBefore);
  });

  it('stops at stage 0 when the deterministic pass is enough', () => {
    const noise = Array(400).fill('\u001b[32mdownloading dependency tarball from the registry mirror\u001b[0m').join('\n');
    const messages = [sys('s'), user('install'), ...toolStep('i', [{ name: 'bash', args: { command: 'npm ci' }, content: noise }])];
    const total = tokensOf(messages);
    const r = compactMessagesMultiStage(messages, within(Math.floor(total / 2), 1_000));
    expect(r.stage).toBe('0');
    expect(r.messages).toHaveLength(messages.length);
    expect(r.messages[3]).toMatchObject({ role: 'tool', content: 'downloading dependency tarball from the registry mirror\n[previous line repeated 399 more times]' });
    expect(r.tokensAfter).toBeLessThan(total / 10);
  });

  it('reaches stages 1, 2, 2b and 3 as the limit shrinks, each output smaller than the one before', () => {
    const messages = longConversation();
    const total = tokensOf(messages);
    const seen: string[] = [];
    let limit = total - 1;
    let previous = total;
    for (const expected of ['1', '2', '2b', '3'] as const) {
      const r = compactMessagesMultiStage(messages, within(limit, 3_000));
      expect(r.stage).toBe(expected);
      expect(r.failed).toBe(false);
      expect(r.tokensAfter).toBeLessThanOrEqual(limit);
      expect(r.tokensAfter).toBeLessThan(previous);
      expect(findPairingProblems(r.messages)).toEqual([]);
      expect(r.messages[0]).toBe(messages[0]);
      expect(r.messages[1]!.role).toBe('user');
      expect(r.messages[1]!.content!.startsWith(SUMMARY_HEADING)).toBe(true);
      // Kept messages are the very objects given (their token counts stay cached).
      const kept = r.messages.slice(2);
      expect(kept.every((m) => messages.includes(m))).toBe(true);
      expect(kept.at(-1)).toBe(messages.at(-1));
      seen.push(r.stage);
      previous = r.tokensAfter;
      limit = r.tokensAfter - 1;
    }
    expect(seen).toEqual(['1', '2', '2b', '3']);
  });

  it('keeps only the last turn at stage 3, with the short summary joined to its user message', () => {
    const messages = longConversation();
    let limit = tokensOf(messages) - 1;
    let r = compactMessagesMultiStage(messages, within(limit, 3_000));
    while (r.stage !== '3') {
      limit = r.tokensAfter - 1;
      r = compactMessagesMultiStage(messages, within(limit, 3_000));
    }
    expect(r.messages).toHaveLength(3);
    expect(r.messages[1]!.content).toMatch(/^## Summary of the earlier conversation\n[\s\S]*\(end of summary\)\n\nGood\. Now summarise what changed\.$/);
    expect(r.messages[1]!.content).toContain('### Tasks asked\n1. “Make the importer handle truncated lines.”');
    expect(r.messages[1]!.content).toContain('- edited: src/ingest/file-1.ts, src/ingest/file-4.ts');
    expect(r.messages[2]).toBe(messages.at(-1));
  });

  it('fails closed at stage 4 when even the newest message does not fit, returning the input', () => {
    const messages = [sys('s'), user('a'), say('b'), user(textOf(5_000))];
    const r = compactMessagesMultiStage(messages, within(1_000, 500));
    expect(r).toMatchObject({ stage: '4', failed: true, summary: null });
    expect(r.messages).toBe(messages);
    expect(r.reason).toMatch(/^even the last turn's newest messages with a short summary need about \d+ tokens, over the input limit of 1000$/);
  });

  it('fails closed at stage 4 when the system prompt alone is over the limit', () => {
    const messages = [sys(textOf(3_000)), user('hi')];
    const r = compactMessagesMultiStage(messages, within(1_000, 500));
    expect(r.stage).toBe('4');
    expect(r.reason).toMatch(/^the system prompt alone holds about \d+ tokens, over the input limit of 1000$/);
  });

  it('rewrites nothing when context management is off: over the limit it fails closed', () => {
    const noise = Array(400).fill('same progress line repeated by the installer').join('\n');
    const messages = [sys('s'), user('go'), ...toolStep('x', [{ name: 'bash', content: noise }])];
    const r = compactMessagesMultiStage(messages, within(100, 50), { mode: 'off' });
    expect(r).toMatchObject({ stage: '4', failed: true });
    expect(r.reason).toContain('context management is off');
    expect(compactMessagesMultiStage(messages, within(100, 50), { mode: 'light' }).stage).toBe('0');
  });
});

describe('compactMessagesMultiStage: the protocol', () => {
  it('keeps a tool step whole when the tail boundary would fall among its results', () => {
    const step = toolStep('big', [
      { name: 'read', args: { path: 'a.ts' }, content: textOf(800) },
      { name: 'read', args: { path: 'b.ts' }, content: textOf(800) },
    ]);
    const messages = [sys('s'), user('u'), say(textOf(3_000)), ...step];
    // The tail budget holds one result but not both: the whole step is kept, never half of it.
    const r = compactMessagesMultiStage(messages, within(tokensOf(messages) - 1, 1_000));
    expect(r.failed).toBe(false);
    expect(r.messages.slice(2)).toEqual(step);
    expect(findPairingProblems(r.messages)).toEqual([]);
  });

  it('never starts the kept tail with a tool result, and puts a standalone summary before an assistant', () => {
    const messages = [sys('s'), user(textOf(2_000)), ask([call('a', 'bash', { command: 'make' })]), result('a', 'bash', textOf(200)), say('built')];
    const r = compactMessagesMultiStage(messages, within(tokensOf(messages) - 1, 400));
    expect(r.stage).toBe('1');
    expect(r.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant']);
    expect(r.messages[1]!.content).toMatch(/^## Summary/);
  });

  it('summarises an earlier summary again instead of losing it', () => {
    const messages = longConversation();
    const once = compactMessagesMultiStage(messages, within(tokensOf(messages) - 1, 3_000));
    const grown = [...once.messages, user('And the docs?'), ...toolStep('d', [{ name: 'read', args: { path: 'docs/x.md' }, content: textOf(2_500) }]), say('Docs updated.')];
    const twice = compactMessagesMultiStage(grown, within(tokensOf(grown) - 1, 3_000));
    expect(twice.failed).toBe(false);
    expect(twice.summary).toContain('### Before that\n(');
    expect(twice.summary).toContain('Make the importer handle truncated lines.');
  });
});
