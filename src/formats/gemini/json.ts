// Small, bounded readers for Gemini CLI records: fields arrive as whatever JSON the writer put
// there, and message content is Gemini's PartListUnion (a string, one part, or a list of parts).

export type Obj = Record<string, unknown>;

/** Longest text handed to the pipeline as a summary source (it flattens and cuts further itself). */
export const SUMMARY_SOURCE_CHARS = 1000;
/** Enough text for the pipeline's 8 KB search text, without joining a whole pasted file first. */
const TEXT_BUDGET = 64 * 1024;

export function asObj(value: unknown): Obj | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Obj) : undefined;
}

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A non-empty string, else undefined (ids and model names: '' says nothing). */
export function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** Cut `text` to `max` characters with an ellipsis, never splitting a surrogate pair. */
export function clip(text: string, max: number = SUMMARY_SOURCE_CHARS): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

/** The parts of a PartListUnion as a list (a string is one text part). */
export function partsOf(content: unknown): unknown[] {
  if (content === undefined || content === null) return [];
  if (typeof content === 'string') return [{ text: content }];
  if (Array.isArray(content)) return content.map((p) => (typeof p === 'string' ? { text: p } : p));
  return [content];
}

/** The text parts of a PartListUnion joined (thought parts left out), bounded. */
export function partsText(content: unknown): string {
  const out: string[] = [];
  let size = 0;
  for (const part of partsOf(content)) {
    const p = asObj(part);
    const text = asString(p?.text);
    if (text === undefined || p?.thought === true) continue;
    out.push(text);
    size += text.length;
    if (size > TEXT_BUDGET) break;
  }
  return out.join('');
}

/** True when every part is a function response (a tool result fed back, not something a person typed). */
export function onlyFunctionResponses(content: unknown): boolean {
  const parts = partsOf(content);
  return parts.length > 0 && parts.every((p) => asObj(asObj(p)?.functionResponse) !== undefined);
}

/**
 * A JSON-ish preview of `value` that stops after `max` characters, so tool arguments holding a
 * whole file never become one big string just to show their first words.
 */
export function preview(value: unknown, max = 200): string {
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
