// export_session's otlp output: the session as one OpenTelemetry trace in OTLP/JSON (src/otel/),
// a single line, so a file of several exports is the OTLP file exporter's JSON Lines.

import { otlpJson } from '../../otel/document.js';
import { descendantRows, sessionTrace } from '../../otel/session-trace.js';
import type { SessionRow, Store } from '../../store/store.js';

export async function otlpDocument(
  store: Store,
  session: SessionRow,
  options: { includeSubagents: boolean; redact: boolean; includeContent: boolean },
): Promise<string> {
  const below = options.includeSubagents ? await descendantRows(store, session.id) : [];
  return otlpJson(await sessionTrace(store, session, below, options));
}
