// gpt-oss (Harmony) cases, written from OpenAI's harmony format guide: messages with channels; a
// message to functions.NAME is a call, analysis is reasoning, final is content.

import { describe } from 'vitest';
import { runFormatCases } from '../case-harness.js';

const tools = [{ name: 'calculate_area', parameters: { type: 'object', properties: { precision: { type: 'integer' } } } }];
const analysis = (t: string) => `<|channel|>analysis<|message|>${t}<|end|>`;
const fn = (name: string, json: string) => `<|start|>assistant<|channel|>commentary to=functions.${name} <|constrain|>json<|message|>${json}<|call|>`;

describe('openai (harmony)', () => {
  runFormatCases('openai', [
    {
      name: 'no tools: the final channel is the content, an echoed prompt is dropped',
      text: '<|start|>system<|message|>You are ChatGPT.<|end|><|start|>user<|message|>Arrr?<|end|><|start|>assistant<|channel|>final<|message|>This is a test<|return|>',
      calls: [],
      content: 'This is a test',
      reasoning: null,
      errors: [],
    },
    {
      name: 'one call after analysis (the completion starts at <|channel|>)',
      text: `${analysis('User asks for the weather. Use get_current_weather.')}${fn('get_current_weather', '{"location": "Tokyo"}')}`,
      calls: [{ name: 'get_current_weather', arguments: { location: 'Tokyo' } }],
      content: null,
      reasoning: 'User asks for the weather. Use get_current_weather.',
      errors: [],
    },
    {
      name: 'parallel calls, with the recipient in the role part too',
      text: `${fn('a', '{"x": 1}')}<|start|>assistant to=functions.b<|channel|>commentary json<|message|>{\n"y": 2\n}<|call|>`,
      calls: [{ name: 'a', arguments: { x: 1 } }, { name: 'b', arguments: { y: 2 } }],
      content: null,
    },
    {
      name: 'typed parameters',
      tools,
      text: fn('calculate_area', '{"shape": "rect", "dimensions": {"w": 2, "h": 3.5}, "precision": 2, "exact": false}'),
      calls: [{ name: 'calculate_area', arguments: { shape: 'rect', dimensions: { w: 2, h: 3.5 }, precision: 2, exact: false } }],
      content: null,
    },
    {
      name: 'empty arguments: {} and no text at all',
      text: `${fn('empty_args', '{}')}${fn('no_args', '')}`,
      calls: [{ name: 'empty_args', arguments: {} }, { name: 'no_args', arguments: {} }],
      content: null,
    },
    {
      name: 'text around calls: a commentary preamble and a final answer',
      text: `${analysis('plan')}<|start|>assistant<|channel|>commentary<|message|>Checking the weather.<|end|>${fn('w', '{"c": "Oslo"}')}<|start|>functions.w to=assistant<|channel|>commentary<|message|>{"t": 5}<|end|><|start|>assistant<|channel|>final<|message|>It is 5 degrees.<|return|>`,
      calls: [{ name: 'w', arguments: { c: 'Oslo' } }],
      content: 'Checking the weather.It is 5 degrees.',
      reasoning: 'plan',
    },
    {
      name: 'escaped strings',
      text: fn('say', '{"q": "He said \\"hi\\" <|x", "p": "C:\\\\d", "nl": "a\\nb"}'),
      calls: [{ name: 'say', arguments: { q: 'He said "hi" <|x', p: 'C:\\d', nl: 'a\nb' } }],
      content: null,
    },
    {
      name: 'malformed: arguments that are not JSON stay raw; a message cut off runs to the end',
      text: `<|channel|>commentary to=functions.not_json<|message|>foo<|call|><|channel|>final<|message|>Partial answ`,
      calls: [{ name: 'not_json', arguments: 'foo' }],
      content: 'Partial answ',
      errors: ['unrepairable_json'],
    },
    {
      name: 'malformed: a missing end marker splits at the next <|start|>; stray end markers are dropped',
      text: `<|end|><|channel|>analysis<|message|>think<|start|>assistant<|channel|>final<|message|>Hi<|return|>`,
      calls: [],
      content: 'Hi',
      reasoning: 'think',
      errors: [],
    },
  ]);
});
