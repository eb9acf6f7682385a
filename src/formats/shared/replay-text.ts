// Text helpers of the replay mappings (one per format, in the format folders) and of the failure
// texts: byte-bounded cuts that say how much was left out, a tool result's text, system notes.

import { asObj, type Obj } from './tool-summary.js';

/**
 * `{m}` with `text` cut to `limit` UTF-8 bytes (on a character boundary) and `cut` the number of
 * bytes left out, so a reader knows the message went on.
 */
export function cutText(text: string, limit: number, key = 'm'): Obj {
  const bytes = Buffer.byteLength(text);
  if (bytes <= limit) return { [key]: text };
  let kept = Buffer.from(text).subarray(0, limit).toString('utf8');
  // A split character decodes as U+FFFD at the end: drop it so the text stays a true prefix.
  if (kept.endsWith('\uFFFD') && !text.startsWith(kept)) kept = kept.slice(0, -1);
  return { [key]: kept, cut: bytes - Buffer.byteLength(kept) };
}

/** The text of a tool result content: a string, or its text blocks joined (images as markers). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((b) => {
        const o = asObj(b);
        if (o?.type === 'text' && typeof o.text === 'string') return o.text;
        if (o?.type === 'image') return '[image]';
        return typeof b === 'string' ? b : '';
      })
      .join('\n');
  }
  if (content === undefined || content === null) return '';
  return JSON.stringify(content) ?? '';
}

/** A system note: something that happened that is neither said by someone nor a tool call. */
export function note(msg: string, error = false): Obj {
  return error ? { r: 'system', msg, status: 'error' } : { r: 'system', msg };
}

/** A message content's text: a string as it is, else its text blocks joined by newlines; null when it has none. */
export function textBlocks(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return null;
  const parts = content.map((b) => asObj(b)).filter((b): b is Obj => b !== undefined && typeof b.text === 'string').map((b) => b.text as string);
  return parts.length > 0 ? parts.join('\n') : null;
}
