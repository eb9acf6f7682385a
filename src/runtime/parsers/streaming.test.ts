// The streamer's promises: content as soon as it is certain, never text that turns out to be a
// call, calls emitted when their region ends; big and hostile outputs in linear time, no throws.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { earliestMarker, MarkerSearch } from './markers.js';
import { createToolCallStreamer, parseToolCallDeltas, parseToolCalls } from './pipeline.js';
import { builtInParsers } from './index.js';

describe('streaming', () => {
  it('emits content at once, holds back only a possible marker start, and emits the call at its end', () => {
    const s = createToolCallStreamer('hermes');
    expect(s.push('Sure. <tool')).toEqual([{ type: 'content', text: 'Sure. ' }]);
    expect(s.push('_call>{"name": "f", ')).toEqual([]);
    expect(s.push('"arguments": {"x": 1}}</tool_call>')).toEqual([
      { type: 'call', index: 0, name: 'f' },
      { type: 'arguments', index: 0, text: '{"x":1}' },
    ]);
    expect(s.push(' done')).toEqual([{ type: 'content', text: ' done' }]);
    expect(s.finish()).toEqual([]);
    expect(s.result()).toEqual({ calls: [{ name: 'f', arguments: { x: 1 } }], content: 'Sure.  done', reasoning: null, parse_errors: [] });
  });

  it('emits each call of a section as soon as its own end marker arrives', () => {
    const s = createToolCallStreamer('kimi_k2');
    s.push('<|tool_calls_section_begin|><|tool_call_begin|>functions.a:0<|tool_call_argument_begin|>{}');
    expect(s.push('<|tool_call_end|>')).toEqual([
      { type: 'call', index: 0, name: 'a' },
      { type: 'arguments', index: 0, text: '{}' },
    ]);
  });

  it('streams leaked reasoning as reasoning, and ignores calls made inside it', () => {
    const r = parseToolCallDeltas('hermes', ['<think>maybe <tool_call>{"name": "x", "arguments": {}}</tool_call>', '</think>Hi']);
    expect(r.calls).toEqual([]);
    expect(r.reasoning).toBe('maybe <tool_call>{"name": "x", "arguments": {}}</tool_call>');
    expect(r.content).toBe('Hi');
  });

  it('refuses deltas after finish with a clear message', () => {
    const s = createToolCallStreamer('hermes');
    s.finish();
    expect(() => s.push('x')).toThrow(/after finish/);
  });
});

describe('bad and big output', () => {
  it('gives unrepairable output back as content with a parse error, never a throw', () => {
    const r = parseToolCalls('hermes', 'Hi <tool_call>not json at all</tool_call>');
    expect(r.calls).toEqual([]);
    expect(r.content).toBe('Hi <tool_call>not json at all</tool_call>');
    expect(r.parse_errors.map((e) => e.code)).toEqual(['unrepairable_json', 'no_call_in_region']);
  });

  it('keeps arguments no repair can save as the raw string, with an error', () => {
    const r = parseToolCalls('kimi_k2', '<|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{nope}<|tool_call_end|>');
    expect(r.calls).toEqual([{ name: 'f', arguments: '{nope}' }]);
    expect(r.parse_errors[0]?.code).toBe('unrepairable_json');
  });

  it('flags repaired (e.g. truncated) arguments so a caller can check them before running the call', () => {
    const r = parseToolCalls('hermes', '<tool_call>{"name": "f", "arguments": {"city": "Bei');
    expect(r.calls).toEqual([{ name: 'f', arguments: { city: 'Bei' } }]);
    expect(r.parse_errors.map((e) => e.code)).toContain('repaired_json');
  });

  it('handles a 10 MB output, in many deltas, in linear time', () => {
    const call = '<tool_call>{"name": "f", "arguments": {"x": "' + 'y'.repeat(1000) + '"}}</tool_call>';
    const text = ('Some text between calls. '.repeat(40) + call).repeat(5000);
    expect(text.length).toBeGreaterThan(10_000_000);
    const s = createToolCallStreamer('hermes');
    for (let i = 0; i < text.length; i += 4096) s.push(text.slice(i, i + 4096));
    s.finish();
    expect(s.result().calls).toHaveLength(5000);
  });

  it('handles pathological nesting and a never-closed region without blowing up', () => {
    const deep = '<tool_call>{"name": "f", "arguments": ' + '['.repeat(200_000);
    const r = parseToolCalls('hermes', deep);
    expect(Array.isArray(r.calls)).toBe(true);
    const bare = '{' + '{"a":'.repeat(100_000);
    const r2 = parseToolCalls('llama3_json', bare);
    expect(r2.calls).toEqual([]);
    expect(r2.content).toBe(bare);
    const py = parseToolCalls('pythonic', `[f(a=${'['.repeat(50_000)}`);
    expect(py.calls).toEqual([]);
  });

  it('parses a 10 MB output given whole, with 20,000 calls and openers that never come, in linear time', () => {
    // Each call used to search the rest of the output again for the markers that never appear
    // (here <|function_call|>, <|message_sep|>, </s>): quadratic, minutes for this input.
    const call = 'function call<|role_sep|>\n{"name": "f", "arguments": {"x": "' + 'y'.repeat(400) + '"}} then ';
    const text = call.repeat(20_000);
    expect(text.length).toBeGreaterThan(9_000_000);
    const r = parseToolCalls('gigachat3', text);
    expect(r.calls).toHaveLength(20_000);
    expect(r.content?.trim()).toBe(Array(20_000).fill('then').join('  '));
  });

  it('names the valid parsers for an unknown id', () => {
    expect(() => parseToolCalls('nope', 'x')).toThrow(/unknown parser "nope"; valid parsers: .*hermes.*qwen3_coder/);
  });
});

describe('MarkerSearch', () => {
  it('finds what earliestMarker finds while text is appended and consumed', () => {
    const markers = ['<a>', '<ab>', 'b', ''];
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.string({ unit: fc.constantFrom('<', 'a', 'b', '>', 'x') }), fc.nat(6))), (steps) => {
        const search = new MarkerSearch(markers);
        let text = '';
        let base = 0;
        for (const [append, consume] of steps) {
          text += append;
          expect(search.earliest(text, base)).toEqual(earliestMarker(text, markers));
          const k = Math.min(consume, text.length);
          text = text.slice(k);
          base += k;
        }
      }),
      { seed: 15, numRuns: 300 },
    );
  });
});

describe('the built-in registry', () => {
  it('holds every parser of the seed\'s table (26 and generic) and the qwen3_coder alias', () => {
    expect(builtInParsers().ids()).toEqual([
      'deepseek_v3', 'deepseek_v31', 'functiongemma', 'generic', 'gigachat3', 'glm45', 'glm47', 'granite', 'granite-20b-fc', 'granite4',
      'hermes', 'hunyuan_a13b', 'internlm', 'jamba', 'kimi_k2', 'llama3_json', 'llama4_pythonic', 'longcat', 'minimax', 'mistral',
      'olmo3', 'openai', 'pythonic', 'qwen3_coder', 'qwen3_xml', 'step3', 'step3p5', 'xlam',
    ]);
    expect(builtInParsers().get('qwen3_coder').id).toBe('qwen3_xml');
  });
});
