// LongCat-Flash cases, written from its chat template: Hermes JSON under <longcat_tool_call>.

import { describe } from 'vitest';
import { runFormatCases } from '../case-harness.js';

const tools = [{ name: 'book', parameters: { type: 'object', properties: { seats: { type: 'integer' }, window: { type: 'boolean' } } } }];

describe('longcat', () => {
  runFormatCases('longcat', [
    { name: 'no tools', text: 'Hello! How can I help?', calls: [], content: 'Hello! How can I help?', errors: [] },
    {
      name: 'one call',
      text: '<longcat_tool_call>\n{"name": "get_weather", "arguments": {"city": "Tokyo"}}\n</longcat_tool_call>',
      calls: [{ name: 'get_weather', arguments: { city: 'Tokyo' } }],
      content: null,
      errors: [],
    },
    {
      name: 'parallel calls',
      text: '<longcat_tool_call>{"name": "a", "arguments": {"x": 1}}</longcat_tool_call>\n<longcat_tool_call>{"name": "b", "arguments": {"y": "2"}}</longcat_tool_call>',
      calls: [{ name: 'a', arguments: { x: 1 } }, { name: 'b', arguments: { y: '2' } }],
      content: null,
    },
    {
      name: 'typed parameters',
      tools,
      text: '<longcat_tool_call>{"name": "book", "arguments": {"seats": 2, "window": true, "note": null, "tags": ["a"]}}</longcat_tool_call>',
      calls: [{ name: 'book', arguments: { seats: 2, window: true, note: null, tags: ['a'] } }],
      content: null,
    },
    { name: 'empty arguments', text: '<longcat_tool_call>{"name": "refresh", "arguments": {}}</longcat_tool_call>', calls: [{ name: 'refresh', arguments: {} }], content: null },
    {
      name: 'text around calls',
      text: 'Let me check. <longcat_tool_call>{"name": "f", "arguments": {}}</longcat_tool_call> Done.',
      calls: [{ name: 'f', arguments: {} }],
      content: 'Let me check.  Done.',
    },
    {
      name: 'escaped strings',
      text: '<longcat_tool_call>{"name": "w", "arguments": {"q": "He said \\"hi\\"", "path": "C:\\\\tmp", "nl": "a\\nb", "u": "🎉 </longcat"}}</longcat_tool_call>',
      calls: [{ name: 'w', arguments: { q: 'He said "hi"', path: 'C:\\tmp', nl: 'a\nb', u: '🎉 </longcat' } }],
      content: null,
    },
    {
      name: 'malformed: not JSON stays text, truncated JSON is repaired and flagged',
      text: 'A <longcat_tool_call>oops</longcat_tool_call> B <longcat_tool_call>{"name": "f", "arguments": {"city": "Par',
      calls: [{ name: 'f', arguments: { city: 'Par' } }],
      content: 'A <longcat_tool_call>oops</longcat_tool_call> B',
      errors: ['unrepairable_json', 'no_call_in_region', 'repaired_json'],
    },
  ]);
});
