// The harness for a parser's own cases (formats/<id>.test.ts): each case is checked whole, then
// streamed one character at a time and at random cut points (fast-check, fixed seed 15), and every
// streaming must give the whole-text result — both the final result and what the events add up to.

import fc from 'fast-check';
import { expect, it } from 'vitest';
import { createToolCallStreamer, parseToolCalls } from './pipeline.js';
import type { ParseResult, StreamEvent, ToolCall, ToolSchema } from './types.js';

export interface FormatCase {
  name: string;
  text: string;
  tools?: ToolSchema[];
  calls: ToolCall[];
  content: string | null;
  reasoning?: string | null;
  /** The parse_errors codes, in order; [] when given means none. */
  errors?: string[];
}

function stream(parser: string, deltas: readonly string[], tools?: ToolSchema[]): { events: StreamEvent[]; result: ParseResult } {
  const s = createToolCallStreamer(parser, { tools });
  const events: StreamEvent[] = [];
  for (const d of deltas) events.push(...s.push(d));
  events.push(...s.finish());
  return { events, result: s.result() };
}

/** What a stream consumer rebuilds from the events: content, and per call its name and arguments. */
function fromEvents(events: StreamEvent[]): { content: string | null; calls: ToolCall[] } {
  let content = '';
  const calls: { name: string; text: string }[] = [];
  for (const e of events) {
    if (e.type === 'content') content += e.text;
    else if (e.type === 'call') calls[e.index] = { name: e.name, text: '' };
    else if (e.type === 'arguments') calls[e.index]!.text += e.text;
  }
  return {
    content: content.trim() ? content : null,
    calls: calls.map((c) => {
      try {
        const args: unknown = JSON.parse(c.text);
        return { name: c.name, arguments: typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : c.text };
      } catch {
        return { name: c.name, arguments: c.text };
      }
    }),
  };
}

function cutAt(text: string, cuts: number[]): string[] {
  const points = [...new Set(cuts)].sort((a, b) => a - b);
  const out: string[] = [];
  let at = 0;
  for (const p of points) {
    out.push(text.slice(at, p));
    at = p;
  }
  out.push(text.slice(at));
  return out;
}

export function runFormatCases(parser: string, cases: readonly FormatCase[]): void {
  for (const c of cases) {
    it(`${parser}: ${c.name}`, () => {
      const whole = parseToolCalls(parser, c.text, { tools: c.tools });
      expect(whole.calls).toEqual(c.calls);
      expect(whole.content?.trim() ?? null).toEqual(c.content);
      if (c.reasoning !== undefined) expect(whole.reasoning).toEqual(c.reasoning);
      if (c.errors !== undefined) expect(whole.parse_errors.map((e) => e.code)).toEqual(c.errors);

      const oneChar = stream(parser, [...c.text], c.tools);
      expect(oneChar.result).toEqual(whole);
      const rebuilt = fromEvents(oneChar.events);
      expect(rebuilt.calls).toEqual(whole.calls);
      expect(rebuilt.content?.trim() ?? null).toEqual(whole.content?.trim() ?? null);

      fc.assert(
        fc.property(fc.array(fc.nat(c.text.length), { maxLength: 12 }), (cuts) => {
          expect(stream(parser, cutAt(c.text, cuts), c.tools).result).toEqual(whole);
        }),
        { seed: 15, numRuns: 60 },
      );
    });
  }
}
