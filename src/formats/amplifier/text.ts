// Small, bounded text helpers: Amplifier lines carry whole API requests and tool outputs, so
// summaries are cut before any whole-string work (the pipeline's own bound runs a regex first).

/** Longest string we hand the pipeline as a summary; it flattens and cuts to ~300 itself. */
export const SUMMARY_SOURCE_CHARS = 1000;

/** Cut `text` to `max` characters (with an ellipsis), never splitting a surrogate pair. */
export function clip(text: string, max: number = SUMMARY_SOURCE_CHARS): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

export function asNumber(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return undefined;
}

/**
 * A JSON-ish preview of `value` that stops after `max` characters, so a tool input holding a
 * whole file never becomes one big string just to show its first words.
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
      for (let i = 0; i < v.length; i++) {
        if (i > 0 && !push(',')) return false;
        if (!walk(v[i], depth + 1)) return false;
      }
      return push(']');
    }
    if (!push('{')) return false;
    let first = true;
    for (const [k, item] of Object.entries(v as Record<string, unknown>)) {
      if (!first && !push(',')) return false;
      first = false;
      if (!push(`${JSON.stringify(k)}:`)) return false;
      if (!walk(item, depth + 1)) return false;
    }
    return push('}');
  };
  walk(value, 0);
  return clip(out.join(''), max);
}

/** Text of a message content that is a string or a list of `{type:'text', text}` blocks. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  let size = 0;
  for (const block of content) {
    const text = asString(asRecord(block)?.text);
    if (text === undefined) continue;
    parts.push(text);
    size += text.length;
    if (size > 64 * 1024) break; // enough for a summary and the 8 KB search text
  }
  return parts.join('\n');
}
