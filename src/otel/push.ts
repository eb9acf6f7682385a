// `hindsight otel push`: the store's sessions as traces to an OTLP/HTTP endpoint, through the
// OpenTelemetry JS exporters (they read OTEL_EXPORTER_OTLP_ENDPOINT / _TRACES_ENDPOINT / _HEADERS /
// _TIMEOUT themselves, and retry 429, 502, 503 and 504 with backoff and Retry-After, as the OTLP
// specification asks). Sessions are sent in requests of at most `batchSpans` spans; after each
// accepted batch its sessions are recorded (push-state.ts), so a second push sends only sessions
// that are new or changed since, and an interrupted one resumes.

import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { toTimeKey } from '../core/time.js';
import type { SessionRow, Store } from '../store/store.js';
import { SpanConverter } from './document.js';
import { otlpTarget, type OtlpTarget } from './endpoint.js';
import { readPushRecord, recordSent, treeFingerprint } from './push-state.js';
import { sessionTrace } from './session-trace.js';
import type { TraceSpan } from './trace-span.js';

export interface PushOptions {
  /** Only sessions active at or after this time (YYYY-MM-DD or an ISO time). */
  since?: string;
  format?: string;
  project?: string;
  includeContent?: boolean;
  redact?: boolean;
  /** Spans per request (default 1,000). */
  batchSpans?: number;
  onProgress?(p: PushProgress): void;
  /** The variables to read the endpoint from (default process.env; the exporters read process.env too). */
  env?: NodeJS.ProcessEnv;
}

export interface PushProgress {
  sessionsDone: number;
  sessionsTotal: number;
  spansSent: number;
}

export interface PushSummary {
  endpoint: string;
  protocol: OtlpTarget['protocol'];
  sessions: number;
  sent: number;
  unchanged: number;
  spans: number;
  requests: number;
  seconds: number;
}

/** A push that stopped: what failed, where, and what was already recorded as sent. */
export class OtelPushError extends Error {
  constructor(message: string, readonly summary: PushSummary) {
    super(message);
    this.name = 'OtelPushError';
  }
}

/** `since` as a time key: a day is its midnight UTC. */
function sinceKey(since: string): string {
  const key = toTimeKey(/^\d{4}-\d{2}-\d{2}$/.test(since) ? `${since}T00:00:00Z` : since);
  if (key === null) throw new Error(`--since takes a day (YYYY-MM-DD) or an ISO time; got "${since}"`);
  return key;
}

async function exporterFor(target: OtlpTarget): Promise<SpanExporter> {
  // The exporters read the endpoint, headers and timeout from the environment; url is passed so the
  // endpoint is the one this push names (and records) even when only the base variable is set.
  if (target.protocol === 'http/json') {
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
    return new OTLPTraceExporter({ url: target.url });
  }
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-proto');
  return new OTLPTraceExporter({ url: target.url });
}

const send = (exporter: SpanExporter, spans: ReadableSpan[]): Promise<ExportResult> =>
  new Promise((resolve) => exporter.export(spans, resolve));

/** Every session row, in pages. */
async function allSessions(store: Store, query: { format?: string; project?: string; topLevelOnly?: boolean } = {}): Promise<SessionRow[]> {
  const rows: SessionRow[] = [];
  for (let offset = 0; ; offset += 1000) {
    const page = await store.listSessions({ ...query, limit: 1000, offset });
    rows.push(...page.sessions);
    if (page.sessions.length < 1000) return rows;
  }
}

/**
 * Push the store's top-level sessions (with their sub-agents) as traces; sessions whose trace was
 * already accepted by this endpoint and has not changed are skipped. Throws OtelPushError when the
 * endpoint refuses a batch (what went before it stays recorded).
 */
export async function pushTraces(store: Store, options: PushOptions = {}): Promise<PushSummary> {
  const started = process.hrtime.bigint();
  const target = otlpTarget(options.env);
  const batchSpans = Math.max(1, options.batchSpans ?? 1000);
  const optionsKey = JSON.stringify({ content: options.includeContent ?? false, redact: options.redact ?? true });
  const all = await allSessions(store);
  const byId = new Map(all.map((s) => [s.id, s]));
  const below = new Map<string, SessionRow[]>();
  for (const s of all) if (s.parentId !== null && byId.has(s.parentId)) (below.get(s.parentId) ?? below.set(s.parentId, []).get(s.parentId)!).push(s);
  const tree = (s: SessionRow): SessionRow[] => (below.get(s.id) ?? []).flatMap((c) => [c, ...tree(c)]);
  const from = options.since === undefined ? null : sinceKey(options.since);
  // Top-level: no parent, or a parent this store does not hold (as usage_report folds them).
  const tops = (await allSessions(store, { format: options.format, project: options.project }))
    .filter((s) => s.parentId === null || !byId.has(s.parentId))
    .filter((s) => from === null || [s, ...tree(s)].some((t) => (toTimeKey(t.endedAt ?? t.startedAt) ?? '') >= from))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

  const record = await readPushRecord(store, target.url);
  const summary: PushSummary = { endpoint: target.url, protocol: target.protocol, sessions: tops.length, sent: 0, unchanged: 0, spans: 0, requests: 0, seconds: 0 };
  const exporter = await exporterFor(target);
  const converter = new SpanConverter();
  let pending: TraceSpan[] = [];
  let pendingSessions: Record<string, string> = {};
  let done = 0;
  const progress = () => options.onProgress?.({ sessionsDone: done, sessionsTotal: tops.length, spansSent: summary.spans });

  const flush = async () => {
    for (let i = 0; i < pending.length; i += batchSpans) {
      const chunk = pending.slice(i, i + batchSpans);
      const result = await send(exporter, chunk.map((s) => converter.readable(s)));
      summary.requests++;
      if (result.code !== ExportResultCode.SUCCESS) {
        summary.seconds = Number(process.hrtime.bigint() - started) / 1e9;
        await exporter.shutdown().catch(() => undefined);
        throw new OtelPushError(`The OTLP endpoint ${target.url} did not accept the traces (${result.error?.message ?? 'export failed'}); ${summary.sent} sessions sent before it are recorded, so the next push resumes from there.`, summary);
      }
      summary.spans += chunk.length;
      progress();
    }
    const ids = Object.keys(pendingSessions);
    if (ids.length) await recordSent(store, target.url, pendingSessions, new Date().toISOString());
    summary.sent += ids.length;
    pending = [];
    pendingSessions = {};
  };

  try {
    for (const top of tops) {
      const descendants = tree(top);
      const fingerprint = treeFingerprint([top, ...descendants], optionsKey);
      if (record.sent[top.id] === fingerprint) {
        summary.unchanged++;
      } else {
        pending.push(...(await sessionTrace(store, top, descendants, { includeContent: options.includeContent, redact: options.redact })));
        pendingSessions[top.id] = fingerprint;
        if (pending.length >= batchSpans) await flush();
      }
      done++;
      progress();
    }
    await flush();
  } finally {
    await exporter.shutdown().catch(() => undefined);
  }
  summary.seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return summary;
}
