// Small, bounded readers for Gemini CLI records: fields arrive as whatever JSON the writer put
// there, and message content is Gemini's PartListUnion (a string, one part, or a list of parts).

import { asObj, asString } from '../shared/json-values.js';

export { asObj, asString, clip, previewJson as preview, SUMMARY_SOURCE_CHARS, type Obj } from '../shared/json-values.js';
/** Enough text for the pipeline's 8 KB search text, without joining a whole pasted file first. */
const TEXT_BUDGET = 64 * 1024;



/** A non-empty string, else undefined (ids and model names: '' says nothing). */
export function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
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

