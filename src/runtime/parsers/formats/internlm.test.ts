// InternLM2 cases, written from its chat template: <|action_start|><|plugin|> + JSON + <|action_end|>.

import { describe } from 'vitest';
import { runFormatCases } from '../case-harness.js';

const tools = [{ name: 'book', parameters: { type: 'object', properties: { seats: { type: 'integer' } } } }];
const call = (json: string) => `<|action_start|><|plugin|>\n${json}<|action_end|>`;

describe('internlm', () => {
  runFormatCases('internlm', [
    { name: 'no tools', text: 'This is a regular response.', calls: [], content: 'This is a regular response.', errors: [] },
    {
      name: 'one call ("parameters")',
      text: call('{"name": "get_weather", "parameters": {"city": "Tokyo"}}'),
      calls: [{ name: 'get_weather', arguments: { city: 'Tokyo' } }],
      content: null,
      errors: [],
    },
    {
      name: 'parallel calls (one action each), "arguments" read too',
      text: `${call('{"name": "a", "parameters": {"x": 1}}')}\n${call('{"name": "b", "arguments": {"y": 2}}')}`,
      calls: [{ name: 'a', arguments: { x: 1 } }, { name: 'b', arguments: { y: 2 } }],
      content: null,
    },
    {
      name: 'typed parameters',
      tools,
      text: call('{\n  "name": "book",\n  "parameters": {"seats": 42, "f": 3.14, "b": true, "n": null, "arr": ["a"], "o": {"k": "v"}}\n}'),
      calls: [{ name: 'book', arguments: { seats: 42, f: 3.14, b: true, n: null, arr: ['a'], o: { k: 'v' } } }],
      content: null,
    },
    { name: 'empty arguments', text: call('{"name": "refresh", "parameters": {}}'), calls: [{ name: 'refresh', arguments: {} }], content: null },
    {
      name: 'text around calls',
      text: `Let me check the weather for you. ${call('{"name": "f", "parameters": {}}')} Back soon.`,
      calls: [{ name: 'f', arguments: {} }],
      content: 'Let me check the weather for you.  Back soon.',
    },
    {
      name: 'escaped strings',
      text: call('{"name": "t", "parameters": {"quoted": "He said \\"hello\\"", "path": "C:\\\\Users\\\\file.txt", "newline": "line1\\nline2", "unicode": "emoji: 🎉"}}'),
      calls: [{ name: 't', arguments: { quoted: 'He said "hello"', path: 'C:\\Users\\file.txt', newline: 'line1\nline2', unicode: 'emoji: 🎉' } }],
      content: null,
    },
    {
      name: 'malformed: not JSON stays text; a lone opener says nothing',
      text: '<|action_start|><|plugin|>not json<|action_end|> then <|action_start|><|plugin|>',
      calls: [],
      content: '<|action_start|><|plugin|>not json<|action_end|> then',
      errors: ['unrepairable_json', 'no_call_in_region'],
    },
    {
      name: 'malformed: truncated arguments are repaired and flagged',
      text: '<|action_start|><|plugin|>{"name": "func", "parameters": {',
      calls: [{ name: 'func', arguments: {} }],
      content: null,
      errors: ['repaired_json'],
    },
  ]);
});
