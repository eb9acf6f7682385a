// `hindsight otel push`: the store's sessions as OpenTelemetry traces to an OTLP/HTTP endpoint
// (src/otel/push.ts; docs/otel.md). The command's spec is here beside its runner; the push itself
// loads only when the command runs.

import type { CommandFlag, CommandSpec } from '../../tools/catalogue.js';
import type { PushProgress, PushSummary } from '../../otel/push.js';

/** The command as own-commands.ts lists it (given the --db flag every store command shares). */
export const otelCommand = (dbFlag: CommandFlag): CommandSpec => ({
  command: 'otel',
  summary:
    'Send sessions as OpenTelemetry GenAI traces to an OTLP/HTTP endpoint (OTEL_EXPORTER_OTLP_ENDPOINT or _TRACES_ENDPOINT, default ' +
    'localhost:4318; OTEL_EXPORTER_OTLP_HEADERS; OTEL_EXPORTER_OTLP_TRACES_PROTOCOL http/protobuf (default) or http/json). A second push ' +
    'sends only new or changed sessions (docs/otel.md). One session as an OTLP/JSON file: hindsight export ID --format otlp.',
  positionals: [],
  synopses: ['hindsight otel push [--since DATE] [--format F] [--project P] [--include-content] [--raw] [--db FILE] [--json]'],
  flags: [
    dbFlag,
    { name: 'since', type: 'string', value: 'DATE', help: 'only sessions active on or after DATE (YYYY-MM-DD, UTC, or an ISO time)' },
    { name: 'format', type: 'string', value: 'F', help: 'only sessions of this source format' },
    { name: 'project', type: 'string', value: 'P', help: 'only this project (as list_sessions names it)' },
    { name: 'include-content', type: 'boolean', help: 'put prompts, replies and tool arguments on the spans (redacted unless --raw)' },
    { name: 'raw', type: 'boolean', help: 'with --include-content: leave secrets unredacted' },
    { name: 'json', type: 'boolean', help: 'print the summary as JSON' },
  ],
  json: false,
});

export interface OtelCommandOptions {
  sub: string | undefined;
  db?: string;
  since?: string;
  format?: string;
  project?: string;
  includeContent: boolean;
  raw: boolean;
  json: boolean;
}

/** Sessions done of all, and spans sent, redrawn at most ten times a second on a TTY. */
function progressLine(stream: NodeJS.WriteStream): { update(p: PushProgress): void; done(): void } {
  let last = 0;
  let drawn = false;
  return {
    update(p) {
      const now = Date.now();
      if (now - last < 100 && p.sessionsDone < p.sessionsTotal) return;
      last = now;
      const frac = p.sessionsTotal > 0 ? p.sessionsDone / p.sessionsTotal : 1;
      const filled = Math.round(frac * 24);
      const line = `[${'#'.repeat(filled)}${'.'.repeat(24 - filled)}] ${(frac * 100).toFixed(0).padStart(3)}%  ${p.sessionsDone}/${p.sessionsTotal} sessions  ${p.spansSent} spans sent`;
      stream.write(`\r${line.slice(0, (stream.columns || 100) - 1)}`);
      drawn = true;
    },
    done() {
      if (drawn) stream.write('\r\x1b[K');
    },
  };
}

function summaryLine(s: PushSummary): string {
  return (
    `Sent ${s.sent} of ${s.sessions} sessions as traces (${s.spans} spans in ${s.requests} requests, ${s.protocol}) to ${s.endpoint} ` +
    `in ${s.seconds.toFixed(2)} s; ${s.unchanged} unchanged since the last push were skipped.`
  );
}

/** Run `otel push`; returns the exit code (2: usage, 1: the endpoint refused or could not be reached). */
export async function runOtelCommand(options: OtelCommandOptions): Promise<number> {
  if (options.sub !== 'push') {
    process.stderr.write('hindsight: otel needs push: hindsight otel push [--since DATE] [--format F] [--project P] [--include-content] [--db FILE]\n');
    return 2;
  }
  const [{ openStore }, { pushTraces, OtelPushError }] = await Promise.all([import('../../store/open.js'), import('../../otel/push.js')]);
  const store = await openStore({ db: options.db, mustExist: true });
  const bar = process.stderr.isTTY && !options.json ? progressLine(process.stderr) : null;
  try {
    const summary = await pushTraces(store, {
      since: options.since,
      format: options.format,
      project: options.project,
      includeContent: options.includeContent,
      redact: !options.raw,
      onProgress: bar ? (p) => bar.update(p) : undefined,
    });
    bar?.done();
    if (options.json) process.stdout.write(`${JSON.stringify({ status: 'ok', ...summary }, null, 2)}\n`);
    else process.stderr.write(`${summaryLine(summary)}\n`);
    return 0;
  } catch (err) {
    bar?.done();
    if (err instanceof OtelPushError || (err instanceof Error && /OTEL_EXPORTER|--since/.test(err.message))) {
      process.stderr.write(`hindsight: ${err.message}\n`);
      return 1;
    }
    throw err;
  } finally {
    await store.close();
  }
}
