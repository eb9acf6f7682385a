// Spans as the OTLP wire formats carry them, through the OpenTelemetry JS serializers (never a
// hand-written encoding): OTLP/JSON for `export --format otlp` and http/json pushes, protobuf for
// http/protobuf ones. A TraceSpan becomes the SDK's ReadableSpan with its ids and times as they
// are; one Resource per agent (`service.name`), one instrumentation scope (hindsight, version).

import { SpanKind, SpanStatusCode, type HrTime } from '@opentelemetry/api';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes, type Resource } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { PACKAGE_NAME, packageVersion } from '../core/package-info.js';
import { keyToParts } from '../core/time.js';
import { GENERAL } from './semconv.js';
import type { TraceSpan } from './trace-span.js';

/** A time key as OpenTelemetry's [seconds, nanoseconds]; no time is the epoch. */
function hrTime(key: string | null): HrTime {
  if (key === null) return [0, 0];
  const [ms, ns] = keyToParts(key);
  if (!Number.isFinite(ms)) return [0, 0];
  const seconds = Math.floor(ms / 1000);
  return [seconds, (ms - seconds * 1000) * 1_000_000 + (Number.isFinite(ns) ? ns : 0)];
}

function minus(a: HrTime, b: HrTime): HrTime {
  let s = a[0] - b[0];
  let n = a[1] - b[1];
  if (n < 0) {
    s -= 1;
    n += 1e9;
  }
  return s < 0 ? [0, 0] : [s, n];
}

/** Converts spans to the SDK's shape, one Resource per service. */
export class SpanConverter {
  private readonly resources = new Map<string, Resource>();
  private readonly scope = { name: PACKAGE_NAME, version: packageVersion() };

  private resource(service: string): Resource {
    let r = this.resources.get(service);
    if (!r) {
      r = resourceFromAttributes({ [GENERAL.serviceName]: service });
      this.resources.set(service, r);
    }
    return r;
  }

  readable(span: TraceSpan): ReadableSpan {
    const startTime = hrTime(span.start);
    const endTime = hrTime(span.end ?? span.start);
    const context = { traceId: span.traceId, spanId: span.spanId, traceFlags: 1 };
    return {
      name: span.name,
      kind: span.kind === 'client' ? SpanKind.CLIENT : SpanKind.INTERNAL,
      spanContext: () => context,
      ...(span.parentSpanId !== null && { parentSpanContext: { traceId: span.traceId, spanId: span.parentSpanId, traceFlags: 1 } }),
      startTime,
      endTime,
      duration: minus(endTime, startTime),
      status: span.error ? { code: SpanStatusCode.ERROR, ...(span.error.message ? { message: span.error.message } : {}) } : { code: SpanStatusCode.UNSET },
      attributes: span.attributes,
      links: [],
      events: [],
      ended: true,
      resource: this.resource(span.service),
      instrumentationScope: this.scope,
      droppedAttributesCount: 0,
      droppedEventsCount: 0,
      droppedLinksCount: 0,
    };
  }
}

/** One ExportTraceServiceRequest as OTLP/JSON text (one line: the OTLP file format's JSON Lines). */
export function otlpJson(spans: readonly TraceSpan[], converter = new SpanConverter()): string {
  const bytes = JsonTraceSerializer.serializeRequest(spans.map((s) => converter.readable(s)));
  return Buffer.from(bytes ?? new Uint8Array()).toString('utf8');
}

/** The same request as protobuf bytes. */
export function otlpProtobuf(spans: readonly TraceSpan[], converter = new SpanConverter()): Uint8Array {
  return ProtobufTraceSerializer.serializeRequest(spans.map((s) => converter.readable(s))) ?? new Uint8Array();
}
