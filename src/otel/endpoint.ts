// Where an OTLP push goes and in which encoding, read from the OpenTelemetry exporter variables
// (the exporters read the same variables themselves; this copy names the endpoint in the push's
// summary and keys its record of what was sent).

export type OtlpProtocol = 'http/protobuf' | 'http/json';

export interface OtlpTarget {
  /** The traces URL the exporter posts to. */
  url: string;
  protocol: OtlpProtocol;
}

const DEFAULT_TRACES_URL = 'http://localhost:4318/v1/traces';

/**
 * The traces endpoint and protocol: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as it is, else
 * OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces, else localhost:4318; OTEL_EXPORTER_OTLP_TRACES_PROTOCOL,
 * else OTEL_EXPORTER_OTLP_PROTOCOL, else http/protobuf. A protocol it cannot send (grpc) is an error.
 */
export function otlpTarget(env: NodeJS.ProcessEnv = process.env): OtlpTarget {
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  const url = traces ? traces : base ? `${base.replace(/\/+$/, '')}/v1/traces` : DEFAULT_TRACES_URL;
  const asked = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?.trim() || env.OTEL_EXPORTER_OTLP_PROTOCOL?.trim() || 'http/protobuf').toLowerCase();
  if (asked !== 'http/protobuf' && asked !== 'http/json') {
    throw new Error(`OTEL_EXPORTER_OTLP_TRACES_PROTOCOL is "${asked}"; hindsight otel push sends http/protobuf (default) or http/json`);
  }
  return { url, protocol: asked };
}
