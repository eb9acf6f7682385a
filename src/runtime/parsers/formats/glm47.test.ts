// GLM-4.7 cases, written from Zhipu's chat template: <tool_call>NAME<arg_key>…</arg_key>
// <arg_value>…</arg_value></tool_call> without line breaks; strings as written, other values JSON.

import { describe } from 'vitest';
import { runFormatCases } from '../case-harness.js';

const tools = [
  {
    name: 'book',
    parameters: { type: 'object', properties: { seats: { type: 'integer' }, vip: { type: 'boolean' }, code: { type: 'string' }, tags: { type: 'array' } } },
  },
];
const arg = (k: string, v: string) => `<arg_key>${k}</arg_key><arg_value>${v}</arg_value>`;

describe('glm47', () => {
  runFormatCases('glm47', [
    { name: 'no tools', text: 'I can answer that directly.', calls: [], content: 'I can answer that directly.', errors: [] },
    {
      name: 'one call',
      text: `<tool_call>get_weather${arg('city', 'Beijing')}${arg('date', '2024-06-27')}</tool_call>`,
      calls: [{ name: 'get_weather', arguments: { city: 'Beijing', date: '2024-06-27' } }],
      content: null,
      errors: [],
    },
    {
      name: 'parallel calls (the GLM-4.5 line breaks are read too)',
      text: `<tool_call>a${arg('x', 'one')}</tool_call>\n<tool_call>b\n<arg_key>y</arg_key>\n<arg_value>two</arg_value>\n</tool_call>`,
      calls: [{ name: 'a', arguments: { x: 'one' } }, { name: 'b', arguments: { y: 'two' } }],
      content: null,
    },
    {
      name: 'typed parameters from the schema',
      tools,
      text: `<tool_call>book${arg('seats', '2')}${arg('vip', 'true')}${arg('code', '007')}${arg('tags', '["a", "b"]')}</tool_call>`,
      calls: [{ name: 'book', arguments: { seats: 2, vip: true, code: '007', tags: ['a', 'b'] } }],
      content: null,
    },
    { name: 'empty arguments', text: '<tool_call>get_time</tool_call>', calls: [{ name: 'get_time', arguments: {} }], content: null },
    {
      name: 'text around calls',
      text: `Checking.<tool_call>f${arg('q', 'x')}</tool_call>Done.`,
      calls: [{ name: 'f', arguments: { q: 'x' } }],
      content: 'Checking.Done.',
    },
    {
      name: 'escaped strings are taken as written',
      text: `<tool_call>w${arg('q', 'He said "hi" & <b>')}${arg('path', 'C:\\tmp\\n')}</tool_call>`,
      calls: [{ name: 'w', arguments: { q: 'He said "hi" & <b>', path: 'C:\\tmp\\n' } }],
      content: null,
    },
    {
      name: 'malformed: a value with no key is reported, a truncated call still read',
      text: `<tool_call>f<arg_key>a</arg_key>${arg('b', '1')}</tool_call><tool_call>g${arg('c', 'x')}<arg_key>d`,
      calls: [{ name: 'f', arguments: { b: 1 } }, { name: 'g', arguments: { c: 'x' } }],
      content: null,
      errors: ['bad_call', 'bad_call'],
    },
  ]);
});
