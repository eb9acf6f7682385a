// GigaChat 3 cases, written from its chat template: text<|message_sep|>, then a
// `function call<|role_sep|>` turn holding {"name", "arguments"}.

import { describe } from 'vitest';
import { runFormatCases } from '../case-harness.js';

const tools = [{ name: 'book', parameters: { type: 'object', properties: { seats: { type: 'integer' } } } }];
const turn = (json: string) => `function call<|role_sep|>\n${json}`;

describe('gigachat3', () => {
  runFormatCases('gigachat3', [
    { name: 'no tools', text: 'Привет! Чем помочь?', calls: [], content: 'Привет! Чем помочь?', errors: [] },
    {
      name: 'one call',
      text: `<|message_sep|>\n\n${turn('{"name": "manage_user_memory", "arguments": {"action": "create", "content": "Prefers short answers"}}')}`,
      calls: [{ name: 'manage_user_memory', arguments: { action: 'create', content: 'Prefers short answers' } }],
      content: null,
      errors: [],
    },
    {
      name: 'parallel calls (two call turns; the newer <|function_call|> marker too)',
      text: `${turn('{"name": "a", "arguments": {"x": 1}}')}\n<|function_call|>{"name": "b", "arguments": {}}`,
      calls: [{ name: 'a', arguments: { x: 1 } }, { name: 'b', arguments: {} }],
      content: null,
    },
    {
      name: 'typed parameters',
      tools,
      text: turn('{"name": "book", "arguments": {"seats": 4, "vip": false, "meta": {"k": [1, 2]}}}'),
      calls: [{ name: 'book', arguments: { seats: 4, vip: false, meta: { k: [1, 2] } } }],
      content: null,
    },
    { name: 'empty arguments', text: turn('{"name": "refresh", "arguments": {}}</s>'), calls: [{ name: 'refresh', arguments: {} }], content: null },
    {
      name: 'text around calls',
      text: `Сейчас проверю.<|message_sep|>\n\n${turn('{"name": "weather", "arguments": {"city": "Москва"}}')}`,
      calls: [{ name: 'weather', arguments: { city: 'Москва' } }],
      content: 'Сейчас проверю.',
    },
    {
      name: 'escaped strings',
      text: turn('{"name": "t", "arguments": {"q": "«он сказал \\"да\\"» }", "p": "C:\\\\x", "nl": "a\\nb"}}'),
      calls: [{ name: 't', arguments: { q: '«он сказал "да"» }', p: 'C:\\x', nl: 'a\nb' } }],
      content: null,
    },
    {
      name: 'malformed: arguments that are not an object make no call',
      text: turn('{"name": "f", "arguments": "city=Paris"}'),
      calls: [{ name: 'f', arguments: 'city=Paris' }],
      content: null,
      errors: ['unrepairable_json'],
    },
    {
      name: 'malformed: cut off mid-string is repaired and flagged',
      text: turn('{"name": "f", "arguments": {"city": "Pa'),
      calls: [{ name: 'f', arguments: { city: 'Pa' } }],
      content: null,
      errors: ['repaired_json'],
    },
  ]);
});
