// The generic fallback's cases: JSON, XML-tag and pythonic calls wherever they appear.

import { describe } from 'vitest';
import { runFormatCases } from '../case-harness.js';

const tools = [{ name: 'book', parameters: { type: 'object', properties: { seats: { type: 'integer' }, vip: { type: 'boolean' } } } }];

describe('generic', () => {
  runFormatCases('generic', [
    { name: 'no tools (braces in prose stay text)', text: 'Use {braces} or [brackets] freely.', calls: [], content: 'Use {braces} or [brackets] freely.', errors: [] },
    {
      name: 'one call: a bare JSON object',
      text: '{"name": "get_weather", "arguments": {"city": "Tokyo"}}',
      calls: [{ name: 'get_weather', arguments: { city: 'Tokyo' } }],
      content: null,
      errors: [],
    },
    {
      name: 'parallel calls in mixed shapes',
      text: '<tool_call>{"name": "a", "arguments": {"x": 1}}</tool_call>\n<tool_call>\n<function=b>\n<parameter=y>\ntwo\n</parameter>\n</function>\n</tool_call>\n<invoke name="c"><parameter name="z">3</parameter></invoke>\n<tool_calls>[{"name": "d", "parameters": {}}]</tool_calls>',
      calls: [{ name: 'a', arguments: { x: 1 } }, { name: 'b', arguments: { y: 'two' } }, { name: 'c', arguments: { z: 3 } }, { name: 'd', arguments: {} }],
      content: null,
    },
    {
      name: 'typed parameters: XML text converted by the schema',
      tools,
      text: '<function=book><parameter=seats>2</parameter><parameter=vip>true</parameter></function>',
      calls: [{ name: 'book', arguments: { seats: 2, vip: true } }],
      content: null,
    },
    {
      name: 'empty arguments: pythonic list at the start, and a GLM-style bare name',
      text: '[get_time(), ping(host="a")] <tool_call>refresh</tool_call>',
      calls: [{ name: 'get_time', arguments: {} }, { name: 'ping', arguments: { host: 'a' } }, { name: 'refresh', arguments: {} }],
      content: null,
    },
    {
      name: 'text around calls',
      text: 'Sure, checking. {"name": "f", "parameters": {"a": 1}}; {"name": "g", "arguments": {}} Then <function_calls>\nh(q=\'x\')\n</function_calls> done.',
      calls: [{ name: 'f', arguments: { a: 1 } }, { name: 'g', arguments: {} }, { name: 'h', arguments: { q: 'x' } }],
      content: 'Sure, checking.  Then  done.',
    },
    {
      name: 'escaped strings',
      text: 'Run: [TOOL_CALLS][{"name": "w", "arguments": {"q": "He said \\"}\\"", "p": "C:\\\\d"}}] ok',
      calls: [{ name: 'w', arguments: { q: 'He said "}"', p: 'C:\\d' } }],
      content: 'Run:  ok',
    },
    {
      name: 'malformed: tags that hold no call stay text; truncated JSON is repaired and flagged',
      text: 'x <tool_call>???</tool_call> y <function_call> {"name": "f", "arguments": {"c": "Pa',
      calls: [{ name: 'f', arguments: { c: 'Pa' } }],
      content: 'x <tool_call>???</tool_call> y',
      errors: ['bad_call', 'no_call_in_region', 'repaired_json'],
    },
  ]);
});
