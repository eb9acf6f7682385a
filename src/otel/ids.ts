// Trace and span ids derived from what the store knows, never drawn at random: the trace id from the
// top-level session, a span id from its session and the identity of what it stands for (an LLM
// call's usage key, a tool call's id or evidence address). Exporting twice gives the same ids, so a
// backend that de-duplicates by id sees a second push of a session as the same trace.

import { createHash } from 'node:crypto';

const hex = (parts: readonly string[], chars: number): string => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p).update('\u0000');
  const id = h.digest('hex').slice(0, chars);
  // An all-zero id is invalid in OTLP; 2^-64 unlikely, but never emitted.
  return /^0+$/.test(id) ? `${id.slice(0, -1)}1` : id;
};

/** The trace of a top-level session: 32 hex digits. */
export function traceIdOf(rootSessionId: string): string {
  return hex(['hindsight-trace', rootSessionId], 32);
}

/**
 * Span ids of one trace, each unique: a second span asking for an identity already given (two
 * records naming one tool call id) gets the identity with a counter, in the order asked.
 */
export class SpanIds {
  private readonly given = new Set<string>();
  constructor(private readonly traceId: string) {}

  /** A span's id from its session and what it stands for: 16 hex digits. */
  of(sessionId: string, what: string, identity: string): string {
    for (let n = 0; ; n++) {
      const id = hex(['hindsight-span', this.traceId, sessionId, what, identity, String(n)], 16);
      if (!this.given.has(id)) {
        this.given.add(id);
        return id;
      }
    }
  }
}
