import { describe, expect, it } from 'vitest';
import { runTool } from '../tool.js';
import { MAX_PARSE_INPUT_CHARS, parseToolCallsTool, runParseRequest } from './index.js';

const ctx = { store: undefined as never };

describe('parse_tool_calls', () => {
  it('parses whole output and streamed deltas to the same answer', async () => {
    const text = 'Checking.<tool_call>{"name": "get_weather", "arguments": {"city": "Oslo"}}</tool_call>';
    const whole = await runTool(parseToolCallsTool, { parser: 'hermes', text }, ctx);
    expect(whole).toEqual({
      status: 'ok',
      parser: 'hermes',
      calls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }],
      content: 'Checking.',
      reasoning: null,
      parse_errors: [],
    });
    const deltas = text.match(/.{1,7}/gs)!;
    expect(await runTool(parseToolCallsTool, { parser: 'hermes', deltas }, ctx)).toEqual(whole);
  });

  it('converts XML parameters with the given tool schemas', async () => {
    const text = '<tool_call>\n<function=f>\n<parameter=n>\n7\n</parameter>\n</function>\n</tool_call>';
    const typed = await runTool(parseToolCallsTool, { parser: 'qwen3_coder', text, tools: [{ name: 'f', parameters: { properties: { n: { type: 'string' } } } }] }, ctx);
    expect(typed.calls).toEqual([{ name: 'f', arguments: { n: '7' } }]);
  });

  it('answers an unknown parser with an error naming the valid ones', async () => {
    const res = await runTool(parseToolCallsTool, { parser: 'gpt5', text: 'x' }, ctx);
    expect(res).toMatchObject({ status: 'error', code: 'UNKNOWN_PARSER' });
    expect(res.error).toContain('Valid parsers: deepseek_v3, deepseek_v31, functiongemma');
  });

  it('refuses both or neither of text and deltas, and oversized input, with clear errors', async () => {
    expect(await runTool(parseToolCallsTool, { parser: 'hermes' }, ctx)).toMatchObject({ status: 'error', code: 'INVALID_ARGUMENTS', error: expect.stringContaining('exactly one of text and deltas') });
    expect(await runTool(parseToolCallsTool, { parser: 'hermes', text: 'a', deltas: ['a'] }, ctx)).toMatchObject({ code: 'INVALID_ARGUMENTS' });
    const big = await runTool(parseToolCallsTool, { parser: 'hermes', text: 'x'.repeat(MAX_PARSE_INPUT_CHARS + 1) }, ctx);
    expect(big).toMatchObject({ status: 'error', code: 'INPUT_TOO_LARGE' });
  });

  it('is the function the CLI uses', () => {
    expect(runParseRequest({ parser: 'pythonic', text: "[f(a='x')]" }).calls).toEqual([{ name: 'f', arguments: { a: 'x' } }]);
  });
});
