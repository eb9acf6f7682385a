// Small, bounded accessors for rollout lines: a line can carry a whole tool output or an encrypted
// reasoning blob, so text is cut before any whole-string work.

import { asObj, asString, clip } from '../shared/json-values.js';

export { asObj, asString, clip, SUMMARY_SOURCE_CHARS, type Obj } from '../shared/json-values.js';

/** Longest message text handed over for search (the pipeline bounds it again). */
export const SEARCH_TEXT_CHARS = 16 * 1024;



/** A string that says something (trimmed, not empty). */
export function nonEmpty(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const t = value.trim();
  return t === '' ? undefined : t;
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
export function parseArguments(value: unknown, maxChars = 256 * 1024): Record<string, unknown> | undefined {
  if (typeof value !== 'string') return asObj(value);
  if (value.length > maxChars) return undefined;
  try {
    return asObj(JSON.parse(value));
  } catch {
    return undefined;
  }
}
