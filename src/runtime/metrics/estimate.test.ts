import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../model/chat.js';
import { DENSE_RUN_MIN_CHARS, estimateMessagesTokens, estimateMessageTokens, estimateTokens, MESSAGE_OVERHEAD_TOKENS } from './estimate.js';

describe('estimateTokens', () => {
  it('counts ordinary text at 4 characters a token, rounded up; empty is 0, anything else at least 1', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('a')).toBe(1);
    expect(estimateTokens('abcd')).toBe(1);
    expect(estimateTokens('hello world')).toBe(3);
    const prose = 'The quick brown fox jumps over the lazy dog. '.repeat(20);
    expect(estimateTokens(prose)).toBe(Math.ceil(prose.length / 4));
  });

  it('counts a long run without whitespace (base64, hashes, minified JSON) at 3 characters a token', () => {
    expect(DENSE_RUN_MIN_CHARS).toBe(24);
    expect(estimateTokens('a'.repeat(23))).toBe(6); // below the threshold: 23 / 4
    expect(estimateTokens('a'.repeat(24))).toBe(8); // at the threshold: 24 / 3
    const base64 = Buffer.from('x'.repeat(225)).toString('base64'); // 300 characters
    expect(base64).toHaveLength(300);
    expect(estimateTokens(base64)).toBe(100);
    // Mixed: the dense run at 3, the rest at 4.
    const sha = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'; // 64 chars
    expect(estimateTokens(`commit ${sha} done`)).toBe(Math.ceil(64 / 3 + 'commit  done'.length / 4));
  });

  it('counts CJK characters one token each', () => {
    expect(estimateTokens('你好世界')).toBe(4);
    expect(estimateTokens('カタカナ')).toBe(4);
    expect(estimateTokens('안녕하세요')).toBe(5);
    expect(estimateTokens('你好 world')).toBe(4); // 2 + 6/4 = 3.5
    // A CJK character ends a dense run: each side is judged on its own length.
    expect(estimateTokens(`${'a'.repeat(20)}中${'b'.repeat(20)}`)).toBe(Math.ceil(1 + 40 / 4));
    const chinese = '这是一个用来测试令牌估算的中文句子。'.repeat(10);
    expect(estimateTokens(chinese)).toBe(chinese.length);
    expect(estimateTokens(chinese)).toBeGreaterThan(Math.ceil(chinese.length / 4));
  });
});

describe('estimateMessageTokens', () => {
  it('adds the per-message overhead to the content', () => {
    expect(MESSAGE_OVERHEAD_TOKENS).toBe(4);
    expect(estimateMessageTokens({ role: 'user', content: 'abcd' })).toBe(5);
    expect(estimateMessageTokens({ role: 'system', content: '' })).toBe(4);
  });

  it('counts an assistant message\'s reasoning and tool calls as JSON', () => {
    const msg: ChatMessage = {
      role: 'assistant',
      content: null,
      reasoning: 'think',
      toolCalls: [{ id: 'c1', name: 'bash', arguments: { command: 'ls' } }],
    };
    // 'bash{"command":"ls"}' is 20 characters → 5; 'think' → 2.
    expect(estimateMessageTokens(msg)).toBe(4 + 2 + 5);
    const raw: ChatMessage = { role: 'assistant', content: 'ok', toolCalls: [{ id: 'c1', name: 'bash', arguments: '{"command":"ls"}' }] };
    expect(estimateMessageTokens(raw)).toBe(4 + 1 + 5);
  });

  it('counts a tool result\'s name and content, and sums a conversation', () => {
    const tool: ChatMessage = { role: 'tool', toolCallId: 'c1', name: 'bash', content: 'file.txt' };
    expect(estimateMessageTokens(tool)).toBe(4 + 1 + 2);
    const conversation: ChatMessage[] = [{ role: 'user', content: 'abcd' }, tool];
    expect(estimateMessagesTokens(conversation)).toBe(5 + 7);
    expect(estimateMessagesTokens([])).toBe(0);
  });
});
