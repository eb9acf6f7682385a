// Nested timing spans for a runtime session (seed §9): a turn, and within it each model call, the
// tool-call parsing step and each tool execution. Completed spans go to an onEnd sink (the
// recorder writes them as `span` lines); getSpanTree rebuilds the nesting for inspection.
//
// Span ids are 16 hex characters, the OpenTelemetry span id size, so spans can be exported as
// they are. With a seed (the session id) they are the first 16 hex digits of
// sha256("<seed>:<n>") for the n-th span of the tracer: a recording made twice has the same ids.
// Without one they are random.

import { createHash, randomBytes } from 'node:crypto';

export const SPAN_KINDS = ['turn', 'model_call', 'tool_parse', 'tool_execution'] as const;
export type SpanKind = (typeof SPAN_KINDS)[number];

export type SpanAttributes = Record<string, unknown>;
export type SpanStatus = 'ok' | 'error';

export interface SpanEvent {
  name: string;
  /** ISO time. */
  time: string;
  attributes: SpanAttributes;
}

/** A span still running: handed back to addEvent, startChildSpan and endSpan. */
export interface ActiveSpan {
  readonly spanId: string;
  readonly parentSpanId: string | null;
  readonly kind: SpanKind;
  readonly name: string;
  readonly startMs: number;
  readonly attributes: SpanAttributes;
  readonly events: SpanEvent[];
}

export interface CompletedSpan {
  spanId: string;
  parentSpanId: string | null;
  kind: SpanKind;
  name: string;
  /** ISO times. */
  start: string;
  end: string;
  durationMs: number;
  attributes: SpanAttributes;
  events: SpanEvent[];
  status: SpanStatus;
  /** Why the span failed, when status is error. */
  error?: string;
}

export interface SpanTracerOptions {
  /** Makes span ids reproducible (use the session id). */
  seed?: string;
  /** Milliseconds since the epoch; Date.now by default. */
  now?: () => number;
  /** Receives every span as it completes. */
  onEnd?: (span: CompletedSpan) => void;
  /** Told when onEnd throws; the span still completes (tracing must not break a turn). */
  onSinkError?: (error: unknown, span: CompletedSpan) => void;
}

export interface StartSpanOptions {
  kind: SpanKind;
  /** Defaults to the kind. */
  name?: string;
  attributes?: SpanAttributes;
}

export class SpanTracer {
  private readonly now: () => number;
  private counter = 0;
  private readonly completed = new WeakMap<ActiveSpan, CompletedSpan>();

  constructor(private readonly options: SpanTracerOptions = {}) {
    this.now = options.now ?? Date.now;
  }

  startSpan(options: StartSpanOptions): ActiveSpan {
    return this.open(null, options);
  }

  startChildSpan(parent: ActiveSpan, kind: SpanKind, attributes: SpanAttributes = {}, name?: string): ActiveSpan {
    return this.open(parent.spanId, { kind, attributes, ...(name !== undefined ? { name } : {}) });
  }

  addEvent(span: ActiveSpan, name: string, attributes: SpanAttributes = {}): void {
    if (this.completed.has(span)) return;
    span.events.push({ name, time: new Date(this.now()).toISOString(), attributes: { ...attributes } });
  }

  /**
   * Close `span` and hand it to the sink. Ending a span twice returns the first result and does not
   * reach the sink again (error paths may end what a finally block ends too).
   */
  endSpan(span: ActiveSpan, status: SpanStatus = 'ok', error?: string): CompletedSpan {
    const done = this.completed.get(span);
    if (done) return done;
    const endMs = Math.max(this.now(), span.startMs);
    const result: CompletedSpan = {
      spanId: span.spanId,
      parentSpanId: span.parentSpanId,
      kind: span.kind,
      name: span.name,
      start: new Date(span.startMs).toISOString(),
      end: new Date(endMs).toISOString(),
      durationMs: endMs - span.startMs,
      attributes: { ...span.attributes },
      events: span.events.map((e) => ({ ...e })),
      status,
      ...(error !== undefined ? { error } : {}),
    };
    this.completed.set(span, result);
    if (this.options.onEnd) {
      try {
        this.options.onEnd(result);
      } catch (sinkError) {
        this.options.onSinkError?.(sinkError, result);
      }
    }
    return result;
  }

  private open(parentSpanId: string | null, options: StartSpanOptions): ActiveSpan {
    return {
      spanId: this.nextId(),
      parentSpanId,
      kind: options.kind,
      name: options.name ?? options.kind,
      startMs: this.now(),
      attributes: { ...options.attributes },
      events: [],
    };
  }

  private nextId(): string {
    const n = this.counter++;
    if (this.options.seed === undefined) return randomBytes(8).toString('hex');
    return createHash('sha256').update(`${this.options.seed}:${n}`).digest('hex').slice(0, 16);
  }
}

export interface SpanTreeNode {
  span: CompletedSpan;
  children: SpanTreeNode[];
}

/**
 * Nest completed spans under their parents. A span whose parent is not among `spans` is a root.
 * Siblings are ordered by start time, then by their order in `spans`.
 */
export function getSpanTree(spans: readonly CompletedSpan[]): SpanTreeNode[] {
  const nodes = new Map<string, SpanTreeNode>();
  for (const span of spans) if (!nodes.has(span.spanId)) nodes.set(span.spanId, { span, children: [] });
  const roots: SpanTreeNode[] = [];
  for (const node of nodes.values()) {
    const parentId = node.span.parentSpanId;
    const parent = parentId !== null && parentId !== node.span.spanId ? nodes.get(parentId) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  const order = (list: SpanTreeNode[]): SpanTreeNode[] => {
    list.sort((a, b) => (a.span.start < b.span.start ? -1 : a.span.start > b.span.start ? 1 : 0));
    for (const n of list) order(n.children);
    return list;
  };
  return order(roots);
}
