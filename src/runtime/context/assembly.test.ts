import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../model/chat.js';
import { assembleModelMessages, capToTokens } from './assembly.js';
import { TokenLedger } from './budget.js';
import { estimateTokens } from '../metrics/estimate.js';
import { findPairingProblems, MISSING_RESULT_TEXT } from './protocol.js';
import { prepareModelMessages } from './request.js';
import { ask, call, result, say, sys, textOf, toolStep, user } from './test-conversations.js';

/** Six read steps (files a.ts … f.ts) of about 300 tokens each, then a final answer. */
function sixReads(): ChatMessage[] {
  const out: ChatMessage[] = [sys('agent'), user('read many different files')];
  for (const name of ['a', 'b', 'c', 'd', 'e', 'f']) out.push(...toolStep(name, [{ name: 'read', args: { path: `${name}.ts` }, content: textOf(300, name) }]));
  out.push(say('done'));
  return out;
}

const always = { assemblyCompactionThreshold: 0 };

describe('assembleModelMessages', () => {
  it('summarises the results of tool turns older than the last three in one structured line each', () => {
    const messages = sixReads();
    const { messages: out, stats } = assembleModelMessages(messages, always);
    const content = (id: string) => out.find((m) => m.role === 'tool' && m.toolCallId === id)!.content!;
    expect(JSON.parse(content('a-0'))).toEqual({
      compacted: true,
      tool: 'read',
      args: { path: 'a.ts' },
      chars: textOf(300, 'a').length,
      lines: textOf(300, 'a').split('\n').length,
      status: 'ok',
      note: 'old result left out to save context; call the tool again to see it',
    });
    expect(content('c-0')).toMatch(/^\{"compacted":true/);
    for (const recent of ['d-0', 'e-0', 'f-0']) expect(content(recent)).toBe(messages.find((m) => m.role === 'tool' && m.toolCallId === recent)!.content);
    expect(stats).toMatchObject({ compactedResults: 3, cappedResults: 0, compactedPaths: ['a.ts', 'b.ts', 'c.ts'], nearBudget: true, repaired: false });
    expect(stats.tokens).toBeLessThan(stats.tokensIn);
    expect(out).toHaveLength(messages.length);
    expect(findPairingProblems(out)).toEqual([]);
  });

  it('says an old failed call failed, with the first words of its error', () => {
    const messages = [user('go'), ...toolStep('x', [{ name: 'bash', args: { command: 'npm test', timeout: 60 }, content: `Error: 3 tests failed\n${textOf(200)}`, isError: true }]), say('ok')];
    const { messages: out } = assembleModelMessages(messages, { ...always, keepRecentToolTurns: 0 });
    const line = JSON.parse(out[2]!.content!);
    expect(line).toMatchObject({ tool: 'bash', args: { command: 'npm test' }, error: expect.stringMatching(/^Error: 3 tests failed x line 0/) });
    expect(out[2]).toMatchObject({ role: 'tool', toolCallId: 'x-0', isError: true });
  });

  it('leaves old results alone below the threshold, and compacts them past it', () => {
    const messages = sixReads();
    const tokens = new TokenLedger().total(messages);
    const roomy = { contextWindowTokens: tokens * 2, reservedOutputTokens: 0 };
    expect(assembleModelMessages(messages, roomy).messages).toBe(messages);
    expect(assembleModelMessages(messages, { ...roomy, assemblyCompactionThreshold: 0.4 }).stats.compactedResults).toBe(3);
    // Light mode waits until the window is nearly full, whatever the threshold says.
    expect(assembleModelMessages(messages, { ...roomy, assemblyCompactionThreshold: 0.4 }, { mode: 'light' }).stats.compactedResults).toBe(0);
    // With context management off, messages go out as they are.
    expect(assembleModelMessages(messages, always, { mode: 'off' }).messages).toBe(messages);
  });

  it('cuts a file read past maxSingleReadResultTokens even in a recent turn, and says how to see the rest', () => {
    const big = textOf(5_000);
    const messages = [user('read it'), ...toolStep('r', [{ name: 'read', args: { path: 'big.ts' }, content: big }])];
    const { messages: out, stats } = assembleModelMessages(messages, { maxSingleReadResultTokens: 1_000 });
    const content = out[2]!.content!;
    expect(estimateTokens(content)).toBeLessThanOrEqual(1_000);
    expect(big.startsWith(content.slice(0, content.indexOf('…[cut ')))).toBe(true);
    expect(content).toMatch(/…\[cut [\d,]+ chars\]\n\[read result cut to about 1,000 tokens: read a narrower range to see the rest\]$/);
    expect(stats).toMatchObject({ cappedResults: 1, compactedResults: 0, compactedPaths: ['big.ts'], nearBudget: false });
  });

  it('keeps the newest reads of a turn within maxTotalReadResultTokensPerTurn and summarises older ones', () => {
    const messages = sixReads();
    const perRead = new TokenLedger().tokensOf(messages[3]!);
    const { messages: out, stats } = assembleModelMessages(messages, { maxTotalReadResultTokensPerTurn: perRead * 2 + 1, keepRecentToolTurns: 10 });
    const compacted = out.filter((m) => m.role === 'tool' && m.content.startsWith('{"compacted":true')).map((m) => (m as { toolCallId: string }).toolCallId);
    expect(compacted).toEqual(['a-0', 'b-0', 'c-0', 'd-0']);
    expect(stats.compactedPaths).toEqual(['a.ts', 'b.ts', 'c.ts', 'd.ts']);
  });

  it('repairs a broken protocol before anything else', () => {
    const messages = [user('u'), ask([call('a', 'bash'), call('b', 'read')]), result('a', 'bash', 'ok')];
    const { messages: out, stats } = assembleModelMessages(messages, {});
    expect(out[3]).toMatchObject({ role: 'tool', toolCallId: 'b', content: MISSING_RESULT_TEXT, isError: true });
    expect(stats.repaired).toBe(true);
    expect(findPairingProblems(out)).toEqual([]);
  });

  it('returns the same rewritten objects on the next call, so nothing is estimated twice', () => {
    const messages = sixReads();
    const ledger = new TokenLedger();
    const first = assembleModelMessages(messages, always, ledger);
    const estimates = ledger.estimates;
    const grown = [...messages, user('next')];
    const second = assembleModelMessages(grown, always, { ledger });
    expect(second.messages.slice(0, messages.length)).toEqual(first.messages);
    first.messages.forEach((m, i) => expect(second.messages[i]).toBe(m));
    expect(ledger.estimates).toBe(estimates + 1);
  });

  it('keeps a result shorter than its summary as it is', () => {
    const messages = [user('u'), ...toolStep('t', [{ name: 'bash', content: 'ok' }]), say('fine')];
    const { messages: out, stats } = assembleModelMessages(messages, { ...always, keepRecentToolTurns: 0 });
    expect(out).toBe(messages);
    expect(stats.compactedResults).toBe(0);
  });
});

describe('capToTokens', () => {
  it('returns a text within the limit unchanged', () => {
    expect(capToTokens('short', 10)).toBe('short');
  });
});

describe('prepareModelMessages', () => {
  it('sends the assembled messages when they fit, compacting nothing', () => {
    const messages = sixReads();
    const r = prepareModelMessages(messages, {});
    expect(r).toMatchObject({ compaction: null, failed: false });
    expect(r.conversation).toBe(messages);
  });

  it('compacts when the assembled messages still pass the limit, and hands back the new conversation', () => {
    const messages = [sys('agent'), ...Array.from({ length: 10 }, (_, i) => [user(`task ${i}: ${textOf(400)}`), say(textOf(400))]).flat()];
    const ledger = new TokenLedger();
    const limit = Math.floor(ledger.total(messages) / 2);
    const r = prepareModelMessages(messages, { contextWindowTokens: limit, reservedOutputTokens: 0, keepRecentTokens: 1_000 }, { ledger });
    expect(r.failed).toBe(false);
    expect(r.compaction?.stage).toBe('1');
    expect(r.stats.tokens).toBeLessThanOrEqual(limit);
    expect(r.conversation).toBe(r.compaction?.messages);
  });

  it('fails when nothing fits', () => {
    const r = prepareModelMessages([sys(textOf(2_000)), user('hi')], { contextWindowTokens: 500, reservedOutputTokens: 0 });
    expect(r.failed).toBe(true);
    expect(r.compaction?.stage).toBe('4');
  });
});
