// Small, bounded accessors for rollout lines: a line can carry a whole tool output or an encrypted
// reasoning blob, so text is cut before any whole-string work.

export type Obj = Record<string, unknown>;

/** Longest text handed to the pipeline as a summary (it flattens and cuts to ~300 itself). */
export const SUMMARY_SOURCE_CHARS = 1000;

/** Longest message text handed over for search (the pipeline bounds it again). */
export const SEARCH_TEXT_CHARS = 16 * 1024;

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function asObj(value: unknown): Obj | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Obj) : undefined;
}

/** A string that says something (trimmed, not empty). */
export function nonEmpty(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const t = value.trim();
  return t === '' ? undefined : t;
}

/** Cut `text` to `max` characters (with an ellipsis), never splitting a surrogate pair. */
export function clip(text: string, max: number = SUMMARY_SOURCE_CHARS): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

/**
 * The text of a message's `content`: a string, or a list of `{type: input_text|output_text|text, text}`
 * parts (images and other parts are left out). Stops collecting once `max` characters are in.
 */
export function contentText(content: unknown, max = SEARCH_TEXT_CHARS): string {
  if (typeof content === 'string') return clip(content, max);
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  let size = 0;
  for (const part of content) {
    const text = asString(asObj(part)?.text);
    if (text === undefined) continue;
    parts.push(text);
    size += text.length;
    if (size >= max) break;
  }
  return clip(parts.join('\n'), max);
}

/** Tool arguments: Codex writes them as a JSON string; parse it when it is one (small ones only). */
export function parseArguments(value: unknown, maxChars = 256 * 1024): Obj | undefined {
  if (typeof value !== 'string') return asObj(value);
  if (value.length > maxChars) return undefined;
  try {
    return asObj(JSON.parse(value));
  } catch {
    return undefined;
  }
}
