// Every recorded vector of ../shared/fixtures/tool-calls, whole and streamed, compared as its
// README says; and for every vector, any chunking of its text streams to the whole-text result.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createToolCallStreamer, parseToolCalls } from './pipeline.js';
import type { ParseResult, StreamEvent } from './types.js';
import { compareWithExpected, loadVectors, vectorText, type ToolCallVector } from './vector-corpus.js';
import { KNOWN_DEVIATIONS } from './vector-deviations.js';

const vectors = loadVectors();

/** The final result as a stream consumer sees it: concatenated content, per-call name and argument text. */
function resultFromEvents(events: StreamEvent[]): Pick<ParseResult, 'calls' | 'content'> {
  let content = '';
  const calls: { name: string; text: string }[] = [];
  for (const e of events) {
    if (e.type === 'content') content += e.text;
    else if (e.type === 'call') calls[e.index] = { name: e.name, text: '' };
    else if (e.type === 'arguments') calls[e.index]!.text += e.text;
  }
  return {
    content: content || null,
    calls: calls.map((c) => {
      try {
        return { name: c.name, arguments: JSON.parse(c.text) as Record<string, unknown> };
      } catch {
        return { name: c.name, arguments: c.text };
      }
    }),
  };
}

function streamDeltas(v: ToolCallVector, deltas: readonly string[]): { events: StreamEvent[]; result: ParseResult } {
  const streamer = createToolCallStreamer(v.parser, { tools: v.tools });
  const events: StreamEvent[] = [];
  for (const d of deltas) events.push(...streamer.push(d));
  events.push(...streamer.finish());
  return { events, result: streamer.result() };
}

function argumentsAreJsonOrRecorded(result: ParseResult): boolean {
  return result.calls.every((c) => typeof c.arguments === 'object' || result.parse_errors.length > 0);
}

describe('tool-call vectors (vLLM parser tests)', () => {
  it('the corpus is all there, and every listed deviation names a vector', () => {
    expect(vectors.length).toBe(307);
    const sources = new Set(vectors.map((v) => v.source));
    expect([...KNOWN_DEVIATIONS.keys()].filter((s) => !sources.has(s))).toEqual([]);
  });

  for (const v of vectors) {
    const deviation = KNOWN_DEVIATIONS.get(v.source);
    it(`${v.parser} ${v.mode} ${v.source.split('::').slice(1).join('::')}`, () => {
      const text = vectorText(v);
      const whole = parseToolCalls(v.parser, text, { tools: v.tools });
      const streamed = v.mode === 'stream' ? streamDeltas(v, v.deltas ?? []) : null;
      const got = streamed ? resultFromEvents(streamed.events) : whole;
      if (!deviation) {
        expect(compareWithExpected(got, v.expected)).toEqual([]);
      } else if (deviation.check === 'calls') {
        // The calls must still be exactly right; only the content differs, for the reason given.
        expect(compareWithExpected({ calls: got.calls, content: v.expected.content }, v.expected)).toEqual([]);
      } else if (deviation.check === 'names') {
        expect(got.calls.map((c) => c.name)).toEqual(v.expected.calls.map((c) => c.name));
        expect(compareWithExpected({ calls: [], content: got.content }, { calls: [], content: v.expected.content })).toEqual([]);
      } else {
        // Malformed output: nothing throws and every argument is JSON or reported (README rule).
        expect(argumentsAreJsonOrRecorded(streamed?.result ?? whole)).toBe(true);
      }
      if (streamed) expect(streamed.result).toEqual(whole);
    });
  }
});

describe('any chunking streams to the whole-text result', () => {
  for (const v of vectors) {
    it(`${v.parser} ${v.source.split('::').slice(1).join('::')} (${v.mode})`, () => {
      const text = vectorText(v);
      const whole = parseToolCalls(v.parser, text, { tools: v.tools });
      const oneChar = streamDeltas(v, [...text]);
      expect(oneChar.result).toEqual(whole);
      const fromEvents = resultFromEvents(oneChar.events);
      expect(fromEvents.calls).toEqual(whole.calls);
      expect(fromEvents.content?.trim() || null).toEqual(whole.content?.trim() || null);
      fc.assert(
        fc.property(fc.array(fc.nat(text.length), { maxLength: 12 }), (cuts) => {
          const points = [...new Set(cuts)].sort((a, b) => a - b);
          const deltas: string[] = [];
          let at = 0;
          for (const p of points) {
            deltas.push(text.slice(at, p));
            at = p;
          }
          deltas.push(text.slice(at));
          expect(streamDeltas(v, deltas).result).toEqual(whole);
        }),
        { seed: 15, numRuns: 40 },
      );
    });
  }
});
