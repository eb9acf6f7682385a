// Jamba cases, written from AI21's chat template: one JSON list of calls in <tool_calls>.

import { describe } from 'vitest';
import { runFormatCases } from '../case-harness.js';

const tools = [{ name: 'book', parameters: { type: 'object', properties: { seats: { type: 'integer' } } } }];

describe('jamba', () => {
  runFormatCases('jamba', [
    { name: 'no tools', text: 'Plain answer, no calls.', calls: [], content: 'Plain answer, no calls.', errors: [] },
    {
      name: 'one call',
      text: '<tool_calls>[{"name": "get_weather", "arguments": {"city": "Tokyo"}}]</tool_calls>',
      calls: [{ name: 'get_weather', arguments: { city: 'Tokyo' } }],
      content: null,
      errors: [],
    },
    {
      name: 'parallel calls',
      text: '<tool_calls>[\n  {"name": "a", "arguments": {"x": 1}},\n  {"name": "b", "arguments": {"y": 2}}\n]</tool_calls>',
      calls: [{ name: 'a', arguments: { x: 1 } }, { name: 'b', arguments: { y: 2 } }],
      content: null,
    },
    {
      name: 'typed parameters',
      tools,
      text: '<tool_calls>[{"name": "book", "arguments": {"seats": 3, "ok": false, "price": 9.5, "who": {"n": "x"}}}]</tool_calls>',
      calls: [{ name: 'book', arguments: { seats: 3, ok: false, price: 9.5, who: { n: 'x' } } }],
      content: null,
    },
    { name: 'empty arguments', text: '<tool_calls>[{"name": "refresh", "arguments": {}}]</tool_calls>', calls: [{ name: 'refresh', arguments: {} }], content: null },
    {
      name: 'text around calls',
      text: 'Checking now.\n<tool_calls>[{"name": "f", "arguments": {"a": 1}}]</tool_calls>\nThanks!',
      calls: [{ name: 'f', arguments: { a: 1 } }],
      content: 'Checking now.\n\nThanks!',
    },
    {
      name: 'escaped strings',
      text: '<tool_calls>[{"name": "w", "arguments": {"q": "say \\"x\\" ]}", "p": "C:\\\\Users", "nl": "1\\n2"}}]</tool_calls>',
      calls: [{ name: 'w', arguments: { q: 'say "x" ]}', p: 'C:\\Users', nl: '1\n2' } }],
      content: null,
    },
    {
      name: 'malformed: an item without a name is reported, the good call kept',
      text: '<tool_calls>[{"arguments": {}}, {"name": "ok", "arguments": {"v": 1}}]</tool_calls>',
      calls: [{ name: 'ok', arguments: { v: 1 } }],
      content: null,
      errors: ['bad_call'],
    },
    {
      name: 'malformed: a cut-off list is repaired and flagged',
      text: '<tool_calls>[{"name": "f", "arguments": {"city": "Ber',
      calls: [{ name: 'f', arguments: { city: 'Ber' } }],
      content: null,
      errors: ['repaired_json'],
    },
  ]);
});
