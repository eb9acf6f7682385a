// One span of an exported trace, before it meets the OpenTelemetry SDK's types: plain data the
// mapping builds and tests read (document.ts turns it into what the OTLP serializers take).

export type SpanValue = string | number | boolean | string[];

export interface TraceSpan {
  traceId: string;
  spanId: string;
  /** null for the trace's root (the top-level session's invoke_agent span). */
  parentSpanId: string | null;
  name: string;
  /** `client` for a call to a model provider, `internal` for the agent's own work. */
  kind: 'internal' | 'client';
  /** Time keys (core/time.ts) from the evidence; null when the log gives no time at all. */
  start: string | null;
  end: string | null;
  attributes: Record<string, SpanValue>;
  /** A failed tool call or an errored session: `error.type` and, with content, what was said. */
  error: { type: string; message: string | null } | null;
  /** The agent the trace is about (its `service.name`): the top-level session's agent. */
  service: string;
}
