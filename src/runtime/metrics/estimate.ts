// Token estimation without a tokenizer. The runtime needs a number before every model call (the
// context budget, compaction, the token counter when a provider sends no usage) and cannot load
// each model's vocabulary, so it counts characters and leans high where chars/4 is known to lie.
//
// The rule, in one pass over the UTF-16 code units of the text:
//   - CJK characters (Han, kana, Hangul, CJK punctuation, full-width forms) count 1 token each:
//     BPE vocabularies spend about one token per such character, not a quarter of one.
//   - A run of 24 or more non-whitespace, non-CJK characters (base64, hashes, minified JSON, long
//     identifiers and paths) counts 1 token per 3 characters: such text splits into short pieces.
//   - Everything else (ordinary prose and code, whitespace) counts 1 token per 4 characters.
// The three parts are added and rounded up; any non-empty text is at least 1 token.

import type { ChatMessage } from '../model/chat.js';

/** A non-whitespace run at least this long is treated as dense text. */
export const DENSE_RUN_MIN_CHARS = 24;
const CHARS_PER_TOKEN = 4;
const DENSE_CHARS_PER_TOKEN = 3;
/** Role markers and separators every chat template adds around a message. */
export const MESSAGE_OVERHEAD_TOKENS = 4;

function isCjk(code: number): boolean {
  return (
    (code >= 0x3000 && code <= 0x30ff) || // CJK punctuation, hiragana, katakana
    (code >= 0x3400 && code <= 0x4dbf) || // Han extension A
    (code >= 0x4e00 && code <= 0x9fff) || // Han unified ideographs
    (code >= 0xac00 && code <= 0xd7af) || // Hangul syllables
    (code >= 0x1100 && code <= 0x11ff) || // Hangul jamo
    (code >= 0xf900 && code <= 0xfaff) || // Han compatibility ideographs
    (code >= 0xff00 && code <= 0xffef) // half- and full-width forms
  );
}

function isWhitespace(code: number): boolean {
  return code === 0x20 || (code >= 0x09 && code <= 0x0d) || code === 0xa0 || code === 0x2028 || code === 0x2029;
}

/** Estimated tokens of `text` (see the rule at the top of this file). */
export function estimateTokens(text: string): number {
  if (text.length === 0) return 0;
  let cjk = 0;
  let dense = 0;
  let plain = 0;
  let runStart = 0; // where the current non-whitespace, non-CJK run began
  for (let i = 0; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : 0x20; // a blank past the end closes the last run
    const cjkChar = code >= 0x1100 && isCjk(code);
    if (!cjkChar && !isWhitespace(code)) continue;
    const run = i - runStart;
    if (run >= DENSE_RUN_MIN_CHARS) dense += run;
    else plain += run;
    runStart = i + 1;
    if (i === text.length) break;
    if (cjkChar) cjk++;
    else plain++;
  }
  const tokens = cjk + dense / DENSE_CHARS_PER_TOKEN + plain / CHARS_PER_TOKEN;
  return Math.max(1, Math.ceil(tokens));
}

/** The JSON text a tool call costs: its name and its arguments as the provider would send them. */
function toolCallText(call: { name: string; arguments: Record<string, unknown> | string }): string {
  const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
  return `${call.name}${args}`;
}

/** Estimated tokens of one chat message: its text, reasoning, tool calls, plus a fixed overhead. */
export function estimateMessageTokens(message: ChatMessage): number {
  let tokens = MESSAGE_OVERHEAD_TOKENS;
  switch (message.role) {
    case 'system':
    case 'user':
      tokens += estimateTokens(message.content);
      break;
    case 'assistant':
      tokens += estimateTokens(message.content ?? '');
      tokens += estimateTokens(message.reasoning ?? '');
      for (const call of message.toolCalls ?? []) tokens += estimateTokens(toolCallText(call));
      break;
    case 'tool':
      tokens += estimateTokens(message.name) + estimateTokens(message.content);
      break;
  }
  return tokens;
}

/** Estimated tokens of a whole conversation. */
export function estimateMessagesTokens(messages: readonly ChatMessage[]): number {
  let total = 0;
  for (const message of messages) total += estimateMessageTokens(message);
  return total;
}
