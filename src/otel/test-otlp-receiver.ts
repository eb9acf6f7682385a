// Test support: a loopback OTLP/HTTP traces receiver that decodes what it is sent, in both
// encodings. No protobuf decoder ships with the installed OpenTelemetry packages (otlp-transformer
// 0.223 writes protobuf by hand and no longer bundles protobufjs' generated root; decoding with it
// would need the `protobufjs` package), so the few OTLP trace messages are read here from the wire
// format directly: varints, fixed64 and length-delimited fields, by their field numbers in
// opentelemetry/proto/trace/v1/trace.proto and common/v1/common.proto.

import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type AttrValue = string | number | boolean | AttrValue[] | null;

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  start: bigint;
  end: bigint;
  attributes: Record<string, AttrValue>;
  status: { code: number; message: string };
  service: string | null;
}

export interface ReceivedRequest {
  contentType: string;
  headers: IncomingHttpHeaders;
  bytes: number;
  spans: ReceivedSpan[];
}

// ---- protobuf wire format -------------------------------------------------------------------------

class Reader {
  pos = 0;
  constructor(private readonly buf: Buffer) {}
  get done(): boolean {
    return this.pos >= this.buf.length;
  }
  varint(): bigint {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      const b = this.buf[this.pos++]!;
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return result;
      shift += 7n;
    }
  }
  fixed64(): bigint {
    const v = this.buf.readBigUInt64LE(this.pos);
    this.pos += 8;
    return v;
  }
  bytes(): Buffer {
    const n = Number(this.varint());
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
  /** Each field as [number, wire type, value]: varint and fixed64 as bigint, length-delimited as bytes. */
  *fields(): Generator<[number, number, bigint | Buffer]> {
    while (!this.done) {
      const tag = Number(this.varint());
      const [field, wire] = [tag >>> 3, tag & 7];
      if (wire === 0) yield [field, wire, this.varint()];
      else if (wire === 1) yield [field, wire, this.fixed64()];
      else if (wire === 2) yield [field, wire, this.bytes()];
      else if (wire === 5) {
        yield [field, wire, BigInt(this.buf.readUInt32LE(this.pos))];
        this.pos += 4;
      } else throw new Error(`unexpected wire type ${wire}`);
    }
  }
}

const fieldsOf = (buf: Buffer) => [...new Reader(buf).fields()];

function anyValue(buf: Buffer): AttrValue {
  for (const [f, , v] of fieldsOf(buf)) {
    if (f === 1) return (v as Buffer).toString('utf8');
    if (f === 2) return v === 1n;
    if (f === 3) return Number(BigInt.asIntN(64, v as bigint));
    if (f === 4) {
      const b = Buffer.alloc(8);
      b.writeBigUInt64LE(v as bigint);
      return b.readDoubleLE(0);
    }
    if (f === 5) return fieldsOf(v as Buffer).filter(([n]) => n === 1).map(([, , x]) => anyValue(x as Buffer));
  }
  return null;
}

function keyValues(list: Buffer[]): Record<string, AttrValue> {
  const out: Record<string, AttrValue> = {};
  for (const kv of list) {
    let key = '';
    let value: AttrValue = null;
    for (const [f, , v] of fieldsOf(kv)) {
      if (f === 1) key = (v as Buffer).toString('utf8');
      if (f === 2) value = anyValue(v as Buffer);
    }
    out[key] = value;
  }
  return out;
}

function decodeSpan(buf: Buffer, service: string | null): ReceivedSpan {
  const span: ReceivedSpan = { traceId: '', spanId: '', parentSpanId: '', name: '', kind: 0, start: 0n, end: 0n, attributes: {}, status: { code: 0, message: '' }, service };
  const attrs: Buffer[] = [];
  for (const [f, , v] of fieldsOf(buf)) {
    if (f === 1) span.traceId = (v as Buffer).toString('hex');
    else if (f === 2) span.spanId = (v as Buffer).toString('hex');
    else if (f === 4) span.parentSpanId = (v as Buffer).toString('hex');
    else if (f === 5) span.name = (v as Buffer).toString('utf8');
    else if (f === 6) span.kind = Number(v);
    else if (f === 7) span.start = v as bigint;
    else if (f === 8) span.end = v as bigint;
    else if (f === 9) attrs.push(v as Buffer);
    else if (f === 15) {
      for (const [sf, , sv] of fieldsOf(v as Buffer)) {
        if (sf === 2) span.status.message = (sv as Buffer).toString('utf8');
        if (sf === 3) span.status.code = Number(sv);
      }
    }
  }
  span.attributes = keyValues(attrs);
  return span;
}

/** An ExportTraceServiceRequest in protobuf, as spans. */
export function decodeProtobufRequest(buf: Buffer): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const [f, , rs] of fieldsOf(buf)) {
    if (f !== 1) continue;
    let service: string | null = null;
    const scopes: Buffer[] = [];
    for (const [rf, , rv] of fieldsOf(rs as Buffer)) {
      if (rf === 1) {
        const attrs = fieldsOf(rv as Buffer).filter(([n]) => n === 1).map(([, , x]) => x as Buffer);
        service = (keyValues(attrs)['service.name'] as string | undefined) ?? null;
      }
      if (rf === 2) scopes.push(rv as Buffer);
    }
    for (const scope of scopes) for (const [sf, , sv] of fieldsOf(scope)) if (sf === 2) spans.push(decodeSpan(sv as Buffer, service));
  }
  return spans;
}

// ---- OTLP/JSON ---------------------------------------------------------------------------------------

type J = Record<string, any>;

function jsonValue(v: J): AttrValue {
  if ('stringValue' in v) return v.stringValue as string;
  if ('boolValue' in v) return v.boolValue as boolean;
  if ('intValue' in v) return Number(v.intValue);
  if ('doubleValue' in v) return Number(v.doubleValue);
  if ('arrayValue' in v) return ((v.arrayValue.values ?? []) as J[]).map(jsonValue);
  return null;
}

const jsonAttrs = (list: J[] | undefined) => Object.fromEntries((list ?? []).map((kv) => [kv.key as string, jsonValue(kv.value as J)]));

/** An ExportTraceServiceRequest in OTLP/JSON, as spans. */
export function decodeJsonRequest(doc: J): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const rs of (doc.resourceSpans ?? []) as J[]) {
    const service = (jsonAttrs(rs.resource?.attributes)['service.name'] as string | undefined) ?? null;
    for (const ss of (rs.scopeSpans ?? []) as J[]) {
      for (const s of (ss.spans ?? []) as J[]) {
        spans.push({
          traceId: s.traceId,
          spanId: s.spanId,
          parentSpanId: s.parentSpanId ?? '',
          name: s.name,
          kind: s.kind,
          start: BigInt(s.startTimeUnixNano),
          end: BigInt(s.endTimeUnixNano),
          attributes: jsonAttrs(s.attributes),
          status: { code: s.status?.code ?? 0, message: s.status?.message ?? '' },
          service,
        });
      }
    }
  }
  return spans;
}

// ---- the receiver --------------------------------------------------------------------------------------

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  /** Status codes to answer the next requests with (then 200). */
  failNext: number[];
  close(): Promise<void>;
}

/** Listen on 127.0.0.1 (any free port) at /v1/traces. */
export async function startReceiver(): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const failNext: number[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const failure = failNext.shift();
      if (failure !== undefined) {
        // Retry-After: 0 lets the exporter retry at once.
        res.writeHead(failure, { 'content-type': 'text/plain', 'retry-after': '0' }).end('busy');
        return;
      }
      const contentType = String(req.headers['content-type'] ?? '');
      const spans = contentType.includes('json') ? decodeJsonRequest(JSON.parse(body.toString('utf8')) as J) : decodeProtobufRequest(body);
      requests.push({ contentType, headers: req.headers, bytes: body.length, spans });
      if (contentType.includes('json')) res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      else res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/traces`,
    requests,
    failNext,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
