// Spans per second out of the OTLP trace export (src/otel/): building the spans of every top-level
// session from the store, encoding them (protobuf and OTLP/JSON), and a whole `otel push` to a
// loopback sink that reads and discards the requests. Run after a build: node dist/bench/otel-bench.js
// [CLAUDE_CONFIG_DIR] (default: the shared Claude Code fixtures). Prints JSON figures.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ingestPaths } from '../src/ingest/ingest.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { otlpJson, otlpProtobuf } from '../src/otel/document.js';
import { pushTraces } from '../src/otel/push.js';
import { descendantRows, sessionTrace } from '../src/otel/session-trace.js';
import type { TraceSpan } from '../src/otel/trace-span.js';
import type { Figure } from './figure.js';

const seconds = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e9;

export async function measureOtel(source: string): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'hs-otel-bench-'));
  const store = new SqliteStore(join(dir, 'store.db'));
  let bytes = 0;
  const sink = createServer((req, res) => {
    req.on('data', (c: Buffer) => (bytes += c.length));
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end());
  });
  try {
    await ingestPaths(store, [source]);
    const tops = (await store.listSessions({ limit: 100_000, offset: 0, topLevelOnly: true })).sessions;
    let t = process.hrtime.bigint();
    const spans: TraceSpan[] = [];
    for (const s of tops) spans.push(...(await sessionTrace(store, s, await descendantRows(store, s.id))));
    const build = seconds(t);
    // Baseline in the same run: JSON.stringify of the same spans, the floor of any encoding of them.
    t = process.hrtime.bigint();
    for (let i = 0; i < spans.length; i += 1000) JSON.stringify(spans.slice(i, i + 1000));
    const plain = seconds(t);
    t = process.hrtime.bigint();
    for (let i = 0; i < spans.length; i += 1000) otlpProtobuf(spans.slice(i, i + 1000));
    const proto = seconds(t);
    t = process.hrtime.bigint();
    for (let i = 0; i < spans.length; i += 1000) otlpJson(spans.slice(i, i + 1000));
    const json = seconds(t);
    await new Promise<void>((r) => sink.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(sink.address() as AddressInfo).port}/v1/traces`;
    t = process.hrtime.bigint();
    const pushed = await pushTraces(store, { env: { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: url } });
    const push = seconds(t);
    const note = `${tops.length} sessions, ${spans.length} spans`;
    const floor = (took: number) => ({
      baseline: Math.round(spans.length / plain),
      baseline_unit: 'spans/s (JSON.stringify of the span objects)',
      ratio: Math.round((plain / took) * 100) / 100,
    });
    return [
      { figure: 'otel_build_spans_per_s', value: Math.round(spans.length / build), unit: 'spans/s', note: `${note}: store → spans (timeline reads included)` },
      { figure: 'otel_protobuf_spans_per_s', value: Math.round(spans.length / proto), unit: 'spans/s', ...floor(proto), note: 'ProtobufTraceSerializer, 1,000 spans a request' },
      { figure: 'otel_json_spans_per_s', value: Math.round(spans.length / json), unit: 'spans/s', ...floor(json), note: 'JsonTraceSerializer, 1,000 spans a request' },
      { figure: 'otel_push_spans_per_s', value: Math.round(pushed.spans / push), unit: 'spans/s', note: `otel push end to end to a loopback sink: ${pushed.requests} requests, ${(bytes / 1e6).toFixed(1)} MB http/protobuf` },
    ];
  } finally {
    sink.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && /otel-bench\.[jt]s$/.test(resolve(process.argv[1]))) {
  const source = process.argv[2] ?? resolve(import.meta.dirname, '..', '..', '..', 'shared', 'fixtures', 'claude-code');
  console.log(JSON.stringify(await measureOtel(source), null, 2));
}
