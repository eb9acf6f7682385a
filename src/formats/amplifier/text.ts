// Small, bounded text helpers: Amplifier lines carry whole API requests and tool outputs, so
// summaries are cut before any whole-string work (the pipeline's own bound runs a regex first).

import { asObj as asRecord, asString } from '../shared/json-values.js';

export { asObj as asRecord, asNumber, asString, clip, previewJson, SUMMARY_SOURCE_CHARS } from '../shared/json-values.js';






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
