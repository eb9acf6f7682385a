import { describe, expect, it } from 'vitest';
import { getSpanTree, SpanTracer, type CompletedSpan } from './span-tracer.js';

/** A clock that advances by `step` ms on every reading. */
function steppingClock(start = Date.UTC(2026, 0, 2, 3, 4, 5), step = 10): () => number {
  let t = start - step;
  return () => (t += step);
}

function traceOneTurn(tracer: SpanTracer) {
  const turn = tracer.startSpan({ kind: 'turn', attributes: { task: 'list files' } });
  const model = tracer.startChildSpan(turn, 'model_call', { step: 1 });
  tracer.addEvent(model, 'response_received', { toolCallCount: 1 });
  tracer.endSpan(model);
  const parse = tracer.startChildSpan(turn, 'tool_parse', { parser: 'hermes' });
  tracer.endSpan(parse);
  const tool = tracer.startChildSpan(turn, 'tool_execution', { tool: 'bash' }, 'bash');
  tracer.endSpan(tool, 'error', 'exit 2');
  return tracer.endSpan(turn);
}

describe('SpanTracer', () => {
  it('records completed spans with times, attributes, events and status, through the sink', () => {
    const sunk: CompletedSpan[] = [];
    const tracer = new SpanTracer({ seed: 'session-1', now: steppingClock(), onEnd: (s) => sunk.push(s) });
    const turn = traceOneTurn(tracer);
    expect(sunk.map((s) => s.kind)).toEqual(['model_call', 'tool_parse', 'tool_execution', 'turn']);
    const [model, , tool] = sunk;
    expect(model).toMatchObject({
      parentSpanId: turn.spanId,
      name: 'model_call',
      start: '2026-01-02T03:04:05.010Z',
      end: '2026-01-02T03:04:05.030Z',
      durationMs: 20,
      attributes: { step: 1 },
      status: 'ok',
      events: [{ name: 'response_received', time: '2026-01-02T03:04:05.020Z', attributes: { toolCallCount: 1 } }],
    });
    expect(tool).toMatchObject({ name: 'bash', status: 'error', error: 'exit 2' });
    expect(turn).toMatchObject({ parentSpanId: null, kind: 'turn', attributes: { task: 'list files' }, start: '2026-01-02T03:04:05.000Z' });
    expect(turn.durationMs).toBe(80);
    for (const s of sunk) expect(s.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(new Set(sunk.map((s) => s.spanId)).size).toBe(4);
  });

  it('makes the same ids for the same seed, other ids for another seed, random ids without one', () => {
    const ids = (seed?: string) => {
      const out: CompletedSpan[] = [];
      traceOneTurn(new SpanTracer({ ...(seed !== undefined ? { seed } : {}), onEnd: (s) => out.push(s) }));
      return out.map((s) => s.spanId);
    };
    expect(ids('session-1')).toEqual(ids('session-1'));
    expect(ids('session-2')).not.toEqual(ids('session-1'));
    expect(ids()).not.toEqual(ids());
  });

  it('ends a span once; a failing sink does not break tracing', () => {
    const errors: string[] = [];
    let calls = 0;
    const tracer = new SpanTracer({
      now: steppingClock(),
      onEnd: () => {
        calls++;
        throw new Error('disk full');
      },
      onSinkError: (e, span) => errors.push(`${span.kind}: ${(e as Error).message}`),
    });
    const span = tracer.startSpan({ kind: 'turn' });
    const first = tracer.endSpan(span);
    const second = tracer.endSpan(span, 'error', 'late');
    expect(second).toBe(first);
    expect(calls).toBe(1);
    expect(errors).toEqual(['turn: disk full']);
    // Events after the end are ignored.
    tracer.addEvent(span, 'late');
    expect(first.events).toEqual([]);
  });

  it('never reports a negative duration when the clock steps back', () => {
    const times = [1000, 900];
    const tracer = new SpanTracer({ now: () => times.shift()! });
    expect(tracer.endSpan(tracer.startSpan({ kind: 'turn' })).durationMs).toBe(0);
  });
});

describe('getSpanTree', () => {
  it('nests spans under their parents, siblings by start time, whatever the input order', () => {
    const spans: CompletedSpan[] = [];
    const tracer = new SpanTracer({ seed: 's', now: steppingClock(), onEnd: (s) => spans.push(s) });
    traceOneTurn(tracer);
    traceOneTurn(tracer);
    const tree = getSpanTree([...spans].reverse());
    expect(tree).toHaveLength(2);
    expect(tree.map((n) => n.span.kind)).toEqual(['turn', 'turn']);
    expect(tree[0]!.span.start < tree[1]!.span.start).toBe(true);
    expect(tree[0]!.children.map((n) => n.span.kind)).toEqual(['model_call', 'tool_parse', 'tool_execution']);
    expect(tree[0]!.children.every((n) => n.children.length === 0)).toBe(true);
  });

  it('treats a span whose parent is missing as a root, and nests grandchildren', () => {
    const spans: CompletedSpan[] = [];
    const tracer = new SpanTracer({ seed: 's', now: steppingClock(), onEnd: (s) => spans.push(s) });
    const turn = tracer.startSpan({ kind: 'turn' });
    const tool = tracer.startChildSpan(turn, 'tool_execution');
    const inner = tracer.startChildSpan(tool, 'model_call');
    tracer.endSpan(inner);
    tracer.endSpan(tool);
    tracer.endSpan(turn);
    const full = getSpanTree(spans);
    expect(full).toHaveLength(1);
    expect(full[0]!.children[0]!.children[0]!.span.spanId).toBe(inner.spanId);
    const orphaned = getSpanTree(spans.filter((s) => s.kind !== 'turn'));
    expect(orphaned.map((n) => n.span.kind)).toEqual(['tool_execution']);
  });
});
