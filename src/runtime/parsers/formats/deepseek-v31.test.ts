// DeepSeek-V3.1 cases, written from its chat template: NAME<｜tool▁sep｜>{JSON} per call, no fence.

import { describe } from 'vitest';
import { runFormatCases } from '../case-harness.js';

const B = '<｜tool▁calls▁begin｜>';
const E = '<｜tool▁calls▁end｜>';
const call = (name: string, json: string) => `<｜tool▁call▁begin｜>${name}<｜tool▁sep｜>${json}<｜tool▁call▁end｜>`;
const tools = [{ name: 'book', parameters: { type: 'object', properties: { seats: { type: 'integer' } } } }];

describe('deepseek_v31', () => {
  runFormatCases('deepseek_v31', [
    { name: 'no tools', text: 'Just text.', calls: [], content: 'Just text.', errors: [] },
    { name: 'one call', text: `normal text${B}${call('foo', '{"x":1}')}${E}`, calls: [{ name: 'foo', arguments: { x: 1 } }], content: 'normal text', errors: [] },
    {
      name: 'parallel calls',
      text: `${B}${call('foo', '{"x":1}')}${call('bar', '{"y":2}')}${E}`,
      calls: [{ name: 'foo', arguments: { x: 1 } }, { name: 'bar', arguments: { y: 2 } }],
      content: null,
    },
    {
      name: 'typed parameters',
      tools,
      text: `${B}${call('book', '{"seats": 2, "ok": true, "n": null, "tags": ["a", "b"]}')}${E}`,
      calls: [{ name: 'book', arguments: { seats: 2, ok: true, n: null, tags: ['a', 'b'] } }],
      content: null,
    },
    { name: 'empty arguments', text: `${B}${call('ping', '{}')}${E}`, calls: [{ name: 'ping', arguments: {} }], content: null },
    {
      name: 'text around calls',
      text: `some prefix text${B}${call('foo', '{"x":1}')}${E} some suffix text`,
      calls: [{ name: 'foo', arguments: { x: 1 } }],
      content: 'some prefix text some suffix text',
    },
    {
      name: 'escaped strings',
      text: `${B}${call('w', '{"q": "a \\"b\\" }", "p": "C:\\\\d", "nl": "1\\n2", "u": "中文"}')}${E}`,
      calls: [{ name: 'w', arguments: { q: 'a "b" }', p: 'C:\\d', nl: '1\n2', u: '中文' } }],
      content: null,
    },
    {
      name: 'malformed: a section without call markers stays text',
      text: `${B}foo<｜tool▁sep｜>{"x":1}${E}`,
      calls: [],
      content: `${B}foo<｜tool▁sep｜>{"x":1}${E}`,
      errors: ['bad_call', 'no_call_in_region'],
    },
    {
      name: 'malformed: cut off inside the block stays text',
      text: `Let me look that up.${B}get_weather`,
      calls: [],
      content: `Let me look that up.${B}get_weather`,
      errors: ['bad_call', 'no_call_in_region'],
    },
  ]);
});
