// The raw lines behind a timeline page, fetched in one store call and parsed once per line (a
// Claude Code line split into content blocks is several events of one line).

import type { StoredEvent } from '../core/events.js';
import { boundDepth } from '../core/json-depth.js';
import { HUGE_LINE_BYTES, recoverTail } from '../ingest/parse-file.js';
import type { Store } from '../store/store.js';

export type Obj = Record<string, unknown>;

/** A parsed line, or why its content cannot be shown (the row then points at raw_lines). */
export type LineValue = { obj: Obj } | { unavailable: string };

export const lineKey = (e: Pick<StoredEvent, 'fileId' | 'lineNumber'>): string => `${e.fileId}:${e.lineNumber}`;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function parseLine(raw: Buffer): LineValue {
  if (raw.length > HUGE_LINE_BYTES) {
    return { unavailable: `the line is ${raw.length} bytes, too large to return here; raw_lines returns it` };
  }
  const text = raw.toString('utf8');
  try {
    const value: unknown = boundDepth(JSON.parse(text));
    return isObj(value) ? { obj: value } : { unavailable: 'the line is not a JSON object; raw_lines shows it as written' };
  } catch {
    const tail = recoverTail(text);
    return tail ? { obj: boundDepth(tail.obj) } : { unavailable: 'the line is not valid JSON; raw_lines shows it as written' };
  }
}

/** Parsed lines of the given events, by lineKey. Lines the importer could not parse whole are not fetched. */
export async function loadLines(store: Store, events: readonly StoredEvent[]): Promise<Map<string, LineValue>> {
  const out = new Map<string, LineValue>();
  const refs: { fileId: number; lineNumber: number }[] = [];
  for (const e of events) {
    const key = lineKey(e);
    if (out.has(key)) continue;
    if (e.attrs.huge === true) {
      out.set(key, { unavailable: 'the line was too large to parse at ingest; raw_lines returns it' });
      continue;
    }
    out.set(key, { unavailable: 'the evidence line is missing from the store' });
    refs.push({ fileId: e.fileId, lineNumber: e.lineNumber });
  }
  if (refs.length === 0) return out;
  for (const row of await store.evidenceLines(refs)) out.set(lineKey(row), parseLine(row.raw));
  return out;
}
