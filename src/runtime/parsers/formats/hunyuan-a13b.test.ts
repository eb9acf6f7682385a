// Hunyuan-A13B cases, written from Tencent's chat template: a JSON list in <tool_calls>, inside
// the reply's <answer> block.

import { describe } from 'vitest';
import { runFormatCases } from '../case-harness.js';

const tools = [{ name: 'book', parameters: { type: 'object', properties: { seats: { type: 'integer' } } } }];

describe('hunyuan_a13b', () => {
  runFormatCases('hunyuan_a13b', [
    { name: 'no tools', text: 'How can I help you today?', calls: [], content: 'How can I help you today?', errors: [] },
    {
      name: 'one call, in think and answer blocks',
      text: '<think>\nNeed weather.\n</think>\n<answer>\n<tool_calls>[{"name": "get_weather", "arguments": {"city": "北京"}}]</tool_calls>\n</answer>',
      calls: [{ name: 'get_weather', arguments: { city: '北京' } }],
      content: null,
      reasoning: '\nNeed weather.\n',
      errors: [],
    },
    {
      name: 'parallel calls',
      text: '<tool_calls>[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {"x": 42}}]</tool_calls>',
      calls: [{ name: 'a', arguments: {} }, { name: 'b', arguments: { x: 42 } }],
      content: null,
    },
    {
      name: 'typed parameters',
      tools,
      text: '<tool_calls>[{"name": "book", "arguments": {"seats": 2, "role": null, "passed": true, "aliases": ["J", "Jo"]}}]</tool_calls>',
      calls: [{ name: 'book', arguments: { seats: 2, role: null, passed: true, aliases: ['J', 'Jo'] } }],
      content: null,
    },
    { name: 'empty arguments', text: '<tool_calls>[{"name": "ping", "arguments": {}}]</tool_calls>', calls: [{ name: 'ping', arguments: {} }], content: null },
    {
      name: 'text around calls',
      text: '<answer>I will call the tool now. <tool_calls>[{"name": "f", "arguments": {"city": "Boston"}}]</tool_calls>\nThank you!</answer>',
      calls: [{ name: 'f', arguments: { city: 'Boston' } }],
      content: 'I will call the tool now. \nThank you!',
    },
    {
      name: 'escaped strings and deep nesting',
      text: '<tool_calls>[{"name": "c", "arguments": {"s": "a \\"q\\" ]} <b>", "l1": {"l2": {"l3": {"v": 123}}}}}]</tool_calls>',
      calls: [{ name: 'c', arguments: { s: 'a "q" ]} <b>', l1: { l2: { l3: { v: 123 } } } } }],
      content: null,
    },
    {
      name: 'malformed: not JSON stays text',
      text: 'x <tool_calls>get_weather(city=1)</tool_calls>',
      calls: [],
      content: 'x <tool_calls>get_weather(city=1)</tool_calls>',
      errors: ['unrepairable_json', 'no_call_in_region'],
    },
  ]);
});
