// Olmo 3 cases, written from AllenAI's chat template: Python-style calls, one per line, in
// <function_calls> tags.

import { describe } from 'vitest';
import { runFormatCases } from '../case-harness.js';

const tools = [{ name: 'register_user', parameters: { type: 'object', properties: { age: { type: 'integer' } } } }];
const wrap = (calls: string) => `<function_calls>${calls}</function_calls>`;

describe('olmo3', () => {
  runFormatCases('olmo3', [
    { name: 'no tools', text: 'How can I help you today?', calls: [], content: 'How can I help you today?', errors: [] },
    {
      name: 'one call',
      text: wrap("get_weather(city='San Francisco', metric='celsius')"),
      calls: [{ name: 'get_weather', arguments: { city: 'San Francisco', metric: 'celsius' } }],
      content: null,
      errors: [],
    },
    {
      name: 'parallel calls, one per line',
      text: wrap("\nget_weather(city='SF')\nget_time()\ndo_something(steps=[])\n"),
      calls: [{ name: 'get_weather', arguments: { city: 'SF' } }, { name: 'get_time', arguments: {} }, { name: 'do_something', arguments: { steps: [] } }],
      content: null,
    },
    {
      name: 'typed parameters, Python and JSON literals alike',
      tools,
      text: wrap("register_user(name='John Doe', age=37, address={'city': 'SF'}, role=None, passed=True, r2=null, p2=true, aliases=['J', \"Jo\"])"),
      calls: [{ name: 'register_user', arguments: { name: 'John Doe', age: 37, address: { city: 'SF' }, role: null, passed: true, r2: null, p2: true, aliases: ['J', 'Jo'] } }],
      content: null,
    },
    { name: 'empty arguments', text: wrap('get_weather()'), calls: [{ name: 'get_weather', arguments: {} }], content: null },
    {
      name: 'text around calls',
      text: `Let me look.\n${wrap("f(a=1)")}\nDone.`,
      calls: [{ name: 'f', arguments: { a: 1 } }],
      content: 'Let me look.\n\nDone.',
    },
    {
      name: 'escaped strings, and a line break inside a string argument',
      text: wrap("get_weather(city='Martha\\'s Vineyard', metric='\\\"cool units\\\"', note='a\nb (c)')"),
      calls: [{ name: 'get_weather', arguments: { city: "Martha's Vineyard", metric: '"cool units"', note: 'a\nb (c)' } }],
      content: null,
    },
    {
      name: 'malformed: a call that cannot be read is left out, its siblings kept',
      text: wrap("bad(x=b'z')\ncalc(x=1e999)\nget_weather(city='SF')"),
      calls: [{ name: 'get_weather', arguments: { city: 'SF' } }],
      content: null,
      errors: ['bad_call', 'bad_call'],
    },
    {
      name: 'malformed: mismatched brackets give no call and stay text',
      text: wrap('foo(x=1])'),
      calls: [],
      content: wrap('foo(x=1])'),
      errors: ['bad_call', 'no_call_in_region'],
    },
  ]);
});
