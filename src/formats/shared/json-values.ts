// Reading a log's JSON without trusting its shape, for every format: each accessor answers
// undefined for anything unexpected, and text is cut before whole-string work (a line can carry a
// whole tool output or API request). The format folders re-export these under their own names.

export type Obj = Record<string, unknown>;

/** Longest text handed to the pipeline as a summary source (it flattens and cuts to ~300 itself). */
export const SUMMARY_SOURCE_CHARS = 1000;

export function asObj(value: unknown): Obj | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Obj) : undefined;
}

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A finite number, or numeric text; else undefined. */
export function asNumber(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return undefined;
}

/** Cut `text` to `max` characters with an ellipsis, never splitting a surrogate pair. */
export function clip(text: string, max: number = SUMMARY_SOURCE_CHARS): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

/**
 * A JSON-ish preview of `value` that stops after `max` characters, so tool arguments holding a
 * whole file never become one big string just to show their first words.
 */
export function previewJson(value: unknown, max = 200): string {
  const out: string[] = [];
  let size = 0;
  const push = (s: string): boolean => {
    out.push(s);
    size += s.length;
    return size < max;
  };
  const walk = (v: unknown, depth: number): boolean => {
    if (typeof v === 'string') return push(JSON.stringify(clip(v, Math.max(16, max - size))));
    if (v === null || typeof v !== 'object') return push(String(v));
    if (depth > 6) return push('…');
    if (Array.isArray(v)) {
      if (!push('[')) return false;
      for (let i = 0; i < v.length; i++) if ((i > 0 && !push(',')) || !walk(v[i], depth + 1)) return false;
      return push(']');
    }
    if (!push('{')) return false;
    let first = true;
    for (const [k, item] of Object.entries(v as Obj)) {
      if (!first && !push(',')) return false;
      first = false;
      if (!push(`${JSON.stringify(k)}:`) || !walk(item, depth + 1)) return false;
    }
    return push('}');
  };
  walk(value, 0);
  return clip(out.join(''), max);
}
