// granite-20b-functioncalling cases, written from IBM's model card: `<function_call> {JSON}` per call.

import { describe } from 'vitest';
import { runFormatCases } from '../case-harness.js';

const tools = [{ name: 'book', parameters: { type: 'object', properties: { seats: { type: 'integer' } } } }];

describe('granite-20b-fc', () => {
  runFormatCases('granite-20b-fc', [
    { name: 'no tools', text: 'This is a regular response without any tool calls.', calls: [], content: 'This is a regular response without any tool calls.', errors: [] },
    {
      name: 'one call',
      text: '<function_call> {"name": "get_weather", "arguments": {"city": "Tokyo"}}',
      calls: [{ name: 'get_weather', arguments: { city: 'Tokyo' } }],
      content: null,
      errors: [],
    },
    {
      name: 'parallel calls',
      text: '<function_call> {"name": "get_weather", "arguments": {"city": "Tokyo"}}\n<function_call> {"name": "get_time", "arguments": {"timezone": "Asia/Tokyo"}}',
      calls: [{ name: 'get_weather', arguments: { city: 'Tokyo' } }, { name: 'get_time', arguments: { timezone: 'Asia/Tokyo' } }],
      content: null,
    },
    {
      name: 'typed parameters',
      tools,
      text: '<function_call> {\n  "name": "book",\n  "arguments": {\n    "seats": 42,\n    "f": 3.14,\n    "b": true,\n    "n": null,\n    "e": [],\n    "o": {}\n  }\n}',
      calls: [{ name: 'book', arguments: { seats: 42, f: 3.14, b: true, n: null, e: [], o: {} } }],
      content: null,
    },
    { name: 'empty arguments', text: '<function_call> {"name": "refresh", "arguments": {}}', calls: [{ name: 'refresh', arguments: {} }], content: null },
    {
      name: 'text around calls',
      text: 'Let me check the weather for you.\n<function_call> {"name": "get_weather", "arguments": {"city": "Tokyo"}}\nOne moment.',
      calls: [{ name: 'get_weather', arguments: { city: 'Tokyo' } }],
      content: 'Let me check the weather for you.\n\nOne moment.',
    },
    {
      name: 'escaped strings',
      text: '<function_call> {"name": "t", "arguments": {"quoted": "He said \\"hello\\" {", "path": "C:\\\\Users", "newline": "line1\\nline2"}}',
      calls: [{ name: 't', arguments: { quoted: 'He said "hello" {', path: 'C:\\Users', newline: 'line1\nline2' } }],
      content: null,
    },
    {
      name: 'malformed: a name that is not a string is no call; text after the marker stays text',
      text: '<function_call> {"name": 123}\n<function_call> hello',
      calls: [],
      content: '<function_call> {"name": 123}\n<function_call> hello',
      errors: ['bad_call', 'no_call_in_region', 'no_call_in_region'],
    },
    {
      name: 'malformed: truncated arguments are repaired and flagged',
      text: '<function_call> {"name": "func", "arguments": {',
      calls: [{ name: 'func', arguments: {} }],
      content: null,
      errors: ['repaired_json'],
    },
  ]);
});
