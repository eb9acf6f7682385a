// Projecting dotted paths (`message.usage.input_tokens`, `data.usage.input_tokens`,
// `message.content.0.text`) out of an event's raw line, each value bounded, the whole event
// bounded too: whatever a line holds, a projected event stays a few kilobytes.

import type { LineValue } from '../../analysis/evidence-lines.js';
import { capValue } from '../../analysis/text-cap.js';

/** Characters one projected value may take. */
export const VALUE_CHARS = 1_000;
/** Characters all projected values of one event may take together. */
export const EVENT_CHARS = 4_000;

const MISSING = Symbol('missing');

/** The value at a dotted path; numeric segments index arrays. */
export function valueAt(root: unknown, path: string): unknown {
  let v: unknown = root;
  for (const seg of path.split('.')) {
    if (Array.isArray(v) && /^\d+$/u.test(seg)) v = v[Number(seg)];
    else if (v !== null && typeof v === 'object' && !Array.isArray(v) && Object.prototype.hasOwnProperty.call(v, seg)) v = (v as Record<string, unknown>)[seg];
    else return MISSING;
    if (v === undefined) return MISSING;
  }
  return v;
}

export interface Projection {
  fields?: Record<string, unknown>;
  missing_fields?: string[];
  /** Why the line's content cannot be projected (too large, not JSON, missing). */
  fields_unavailable?: string;
}

/** The requested paths of one line, bounded; paths the line does not have are listed as missing. */
export function project(line: LineValue | undefined, paths: readonly string[], redact: boolean): Projection {
  if (!line || !('obj' in line)) return { fields_unavailable: line?.unavailable ?? 'the evidence line is missing from the store' };
  const fields: Record<string, unknown> = {};
  const missing: string[] = [];
  let budget = EVENT_CHARS;
  for (const path of paths) {
    const v = valueAt(line.obj, path);
    if (v === MISSING) {
      missing.push(path);
      continue;
    }
    const { value } = capValue(v, Math.min(VALUE_CHARS, budget), redact);
    fields[path] = value;
    budget = Math.max(0, budget - (typeof value === 'string' ? value.length : (JSON.stringify(value) ?? '').length));
  }
  const out: Projection = { fields };
  if (missing.length > 0) out.missing_fields = missing;
  return out;
}
