// Each pipeline stage on its own (seed §5: each a pure function), then the registry.

import { describe, expect, it } from 'vitest';
import { classifyOutput } from './classify.js';
import { repairJson, repairJsonObject } from './json-repair.js';
import { parsePythonCalls, parsePythonLiteral, PythonSyntaxError } from './python-literal.js';
import { ReasoningSanitizer, sanitizeReasoning } from './reasoning-sanitizer.js';
import { ParserRegistry, UnknownParserError } from './registry.js';
import { coerceArguments, coerceParameter } from './schema-coerce.js';
import type { ParserDefinition } from './types.js';
import { extractElements, readAttribute } from './xml-repair.js';

describe('reasoning sanitizer', () => {
  it('moves a <think> block to reasoning and keeps the rest as content', () => {
    expect(sanitizeReasoning('<think>plan it</think>\nAnswer')).toEqual({ content: '\nAnswer', reasoning: 'plan it' });
  });
  it('drops a stray </think> whose opening tag was in the prompt', () => {
    expect(sanitizeReasoning('thinking done</think>Answer')).toEqual({ content: 'thinking doneAnswer', reasoning: null });
  });
  it('treats an unclosed block as reasoning to the end', () => {
    expect(sanitizeReasoning('Hi <think>still going')).toEqual({ content: 'Hi ', reasoning: 'still going' });
  });
  it('knows the other leaked tag styles and keeps blocks apart', () => {
    expect(sanitizeReasoning('<thinking>a</thinking>x◁think▷b◁/think▷y')).toEqual({ content: 'xy', reasoning: 'a\nb' });
  });
  it('gives the same pieces whatever the chunking, holding back only a possible tag start', () => {
    const s = new ReasoningSanitizer();
    expect(s.push('ok <thi')).toEqual([{ kind: 'content', text: 'ok ' }]);
    expect(s.push('nk>r</th')).toEqual([{ kind: 'reasoning', text: 'r' }]);
    expect(s.push('ink> done')).toEqual([{ kind: 'content', text: ' done' }]);
    expect(s.finish()).toEqual([]);
  });
});

describe('format classification', () => {
  it('tells XML/tag, JSON, pythonic, mixed and plain text apart', () => {
    expect(classifyOutput('<tool_call>\n<function=f>')).toBe('xml');
    expect(classifyOutput('{"name": "f", "arguments": {}}')).toBe('json');
    expect(classifyOutput("[get_weather(city='SF')]")).toBe('pythonic');
    expect(classifyOutput('<tool_call>{"name": "f"}</tool_call>')).toBe('mixed');
    expect(classifyOutput('just words')).toBe('text');
  });
});

describe('JSON repair', () => {
  it('passes valid JSON through unrepaired', () => {
    expect(repairJson('{"a": 1}')).toEqual({ value: { a: 1 }, repaired: false });
  });
  it('repairs truncation, trailing commas, missing brackets and unescaped quotes', () => {
    expect(repairJsonObject('{"city": "Bei')).toEqual({ city: 'Bei' });
    expect(repairJsonObject('{"a": 1, "b": [1, 2,],}')).toEqual({ a: 1, b: [1, 2] });
    expect(repairJsonObject('{"a": {"b": 1}')).toEqual({ a: { b: 1 } });
    expect(repairJsonObject('{"q": "he said "hi" ok"}')).toEqual({ q: 'he said "hi" ok' });
    expect(repairJsonObject('{"s": "line1\nline2"}')).toEqual({ s: 'line1\nline2' });
  });
  it('returns null when it cannot repair, or when the text is not an object or array', () => {
    expect(repairJson('{invalid json}')).toBeNull();
    expect(repairJson('hello')).toBeNull();
    expect(repairJson('')).toBeNull();
  });
});

describe('XML repair', () => {
  it('ends an unclosed element at the next one, at a stop marker, or at the end', () => {
    const els = extractElements('<p=a>1\n<p=b>2</p><p=c>3</f>', '<p=', '</p>', ['</f>']);
    expect(els.map((e) => [e.head, e.value, e.closed])).toEqual([
      ['a', '1\n', false],
      ['b', '2', true],
      ['c', '3', false],
    ]);
  });
  it('marks an opening tag cut off by the end as incomplete', () => {
    expect(extractElements('<p=a>1</p><p=trunc', '<p=', '</p>').map((e) => e.headClosed)).toEqual([true, false]);
  });
  it('reads attributes quoted either way or not at all', () => {
    expect(readAttribute(' name="x"', 'name')).toBe('x');
    expect(readAttribute(" name='y'", 'name')).toBe('y');
    expect(readAttribute(' name=z', 'name')).toBe('z');
    expect(readAttribute(' other="1"', 'name')).toBeNull();
  });
  it('stays linear on many unclosed elements', () => {
    const text = '<p=a>x'.repeat(100_000);
    expect(extractElements(text, '<p=', '</p>')).toHaveLength(100_000);
  });
});

describe('schema conversion of text parameters', () => {
  it('converts to the declared type', () => {
    expect(coerceParameter('42', { type: 'integer' })).toBe(42);
    expect(coerceParameter('3.5', { type: 'number' })).toBe(3.5);
    expect(coerceParameter('True', { type: 'boolean' })).toBe(true);
    expect(coerceParameter("{'k': 'v'}", { type: 'object' })).toEqual({ k: 'v' });
    expect(coerceParameter('[1, 2]', { type: 'array' })).toEqual([1, 2]);
    expect(coerceParameter('null', { type: ['null', 'integer'] })).toBeNull();
  });
  it('keeps the text when it does not fit the type or the type is string', () => {
    expect(coerceParameter('abc', { type: 'integer' })).toBe('abc');
    expect(coerceParameter('42', { type: 'string' })).toBe('42');
    expect(coerceParameter('[1]', { type: 'object' })).toBe('[1]');
  });
  it('reads undeclared parameters as JSON only when asked', () => {
    expect(coerceArguments('f', { n: '42', s: 'x' }, undefined)).toEqual({ n: '42', s: 'x' });
    expect(coerceArguments('f', { n: '42', s: 'x' }, undefined, 'json')).toEqual({ n: 42, s: 'x' });
    expect(coerceArguments('f', { n: '42' }, [{ name: 'f', parameters: { properties: { n: { type: 'string' } } } }], 'json')).toEqual({ n: '42' });
  });
});

describe('Python literals', () => {
  it('reads a list of calls with every literal kind', () => {
    expect(parsePythonCalls("[f(a='x', b=2, c=True, d=None, e=[1, 'y'], g={'k': (1, 2)}), h()]")).toEqual([
      { name: 'f', arguments: { a: 'x', b: 2, c: true, d: null, e: [1, 'y'], g: { k: [1, 2] } } },
      { name: 'h', arguments: {} },
    ]);
    expect(parsePythonLiteral('"""tri\'ple"""')).toBe("tri'ple");
  });
  it('refuses text that is not calls, and hostile nesting, with a PythonSyntaxError', () => {
    expect(() => parsePythonCalls('hello world[A(A=\t)')).toThrow(PythonSyntaxError);
    expect(() => parsePythonCalls(`[f(a=${'['.repeat(10_000)}${']'.repeat(10_000)})]`)).toThrow(/nesting deeper/);
  });
});

describe('parser registry', () => {
  const def = (id: string, format: string, aliases: string[] = []): ParserDefinition => ({
    id,
    aliases,
    family: 'json',
    format,
    regions: [],
    parseRegion: () => ({ calls: [], errors: [] }),
  });
  it('finds parsers by id and alias; the first registration of an id wins', () => {
    const r = new ParserRegistry();
    r.register(def('a', 'first', ['alias_a']));
    expect(r.register(def('a', 'second', ['alias_b']))).toEqual(['alias_b']);
    expect(r.get('a').format).toBe('first');
    expect(r.get('alias_a').format).toBe('first');
    expect(r.get('alias_b').format).toBe('second');
    expect(r.ids()).toEqual(['a', 'alias_a', 'alias_b']);
  });
  it('names the valid ids for an unknown one', () => {
    const r = new ParserRegistry();
    r.register(def('hermes', 'x'));
    expect(() => r.get('nope')).toThrow(UnknownParserError);
    expect(() => r.get('nope')).toThrow('unknown parser "nope"; valid parsers: hermes');
  });
});
