// Stage 0 of compaction (seed §7): shrink tool output without a model and without losing what
// the output says. Five pure text techniques, run in the seed's priority order — terminal escapes,
// library stack frames, repeated lines, repeated compiler and linter messages, whitespace — each
// returning its input unchanged (the same string) when it finds nothing to do.
//
// Only command output is rewritten: the results of tools other than file reads. Terminal noise
// lives there. A file read is the text the model will quote in an edit, byte for byte (three `}`
// lines in a row, its indentation); the assistant's own text is its prose and the code it wrote;
// the user's words are theirs. Rewriting any of those would make the model misquote them.

import { stripControl } from '../../core/control-chars.js';
import type { ChatMessage } from '../model/chat.js';
import { isFileReadTool } from './tool-facts.js';

/**
 * Terminal escapes (colours, cursor moves, titles) and other control characters removed. A line
 * redrawn with carriage returns (a progress bar) keeps only what the terminal showed last.
 *
 * @example stripAnsiCodes('\u001b[31merror\u001b[0m') // 'error'
 * @example stripAnsiCodes('10%\r50%\r100%\n') // '100%\n'
 */
export function stripAnsiCodes(text: string): string {
  if (!/[\u0000-\u0008\u000b-\u001f\u007f]/.test(text)) return text;
  let out = text.replace(/\r+\n/g, '\n');
  if (out.includes('\r')) {
    out = out
      .split('\n')
      .map((line) => {
        if (!line.includes('\r')) return line;
        const parts = line.split('\r').filter((p) => p !== '');
        return parts[parts.length - 1] ?? '';
      })
      .join('\n');
  }
  out = stripControl(out);
  return out === text ? text : out;
}

// A stack frame inside a dependency or the runtime itself: `at f (/app/node_modules/x/y.js:1:2)`,
// `at node:internal/…`, `at async Promise.all (index 0)`.
const LIBRARY_FRAME = /^\s*at\s.*(?:[\\/]node_modules[\\/]|\bnode:internal[\\/]|\(internal[\\/]|\(index \d+\)$)/;

/**
 * Runs of two or more stack frames in node_modules (or Node's internals) collapsed to one line
 * saying how many were left out; the application's own frames stay as they were.
 *
 * @example stripStackTraces('Error: x\n    at a (/app/src/a.ts:1:1)\n    at b (/app/node_modules/m/i.js:2:3)\n    at c (/app/node_modules/m/j.js:4:5)')
 * // 'Error: x\n    at a (/app/src/a.ts:1:1)\n    … 2 node_modules frames'
 */
export function stripStackTraces(text: string): string {
  if (!text.includes('at ')) return text;
  const lines = text.split('\n');
  const out: string[] = [];
  let changed = false;
  for (let i = 0; i < lines.length; ) {
    if (!LIBRARY_FRAME.test(lines[i]!)) {
      out.push(lines[i]!);
      i++;
      continue;
    }
    let j = i;
    while (j < lines.length && LIBRARY_FRAME.test(lines[j]!)) j++;
    if (j - i >= 2) {
      const indent = /^\s*/.exec(lines[i]!)![0];
      out.push(`${indent}… ${j - i} node_modules frames`);
      changed = true;
    } else {
      out.push(lines[i]!);
    }
    i = j;
  }
  return changed ? out.join('\n') : text;
}

const repeatedNote = (n: number) => `[previous line repeated ${n} more times]`;

/**
 * A line repeated in a row kept once, with a note of how many copies were dropped, when the note
 * is shorter than the copies (so `}` needs many repeats, a long log line two). Blank lines are left
 * to collapseWhitespace.
 *
 * @example stripDuplicateLines('retrying the request to the server\n'.repeat(3)) // 'retrying the request to the server\n[previous line repeated 2 more times]\n'
 */
export function stripDuplicateLines(text: string): string {
  const lines = text.split('\n');
  if (lines.length < 2) return text;
  const out: string[] = [];
  let changed = false;
  for (let i = 0; i < lines.length; ) {
    const line = lines[i]!;
    let j = i + 1;
    while (j < lines.length && lines[j] === line) j++;
    out.push(line);
    const copies = j - i - 1;
    if (copies > 0 && line.trim() !== '' && copies * (line.length + 1) > repeatedNote(copies).length + 1) {
      // Indented like the line, so that collapseWhitespace still sees the shared indentation.
      out.push(`${/^[ \t]*/.exec(line)![0]}${repeatedNote(copies)}`);
      changed = true;
    } else {
      for (let k = i + 1; k < j; k++) out.push(line);
    }
    i = j;
  }
  return changed ? out.join('\n') : text;
}

// Where a diagnostic points: `src/a.ts(10,5): `, `src/a.ts:10:5: `, `src/a.ts:10: `, or a linter's
// leading `  10:5  `. Captured so that the same message at many places can be told once.
const LOCATION_PREFIX = /^(\s*)((?:[^\s:()]+(?:\(\d+,\d+\)|:\d+(?::\d+)?)|\d+:\d+))(:?\s+)/;
// What makes a line a compiler or linter message rather than output whose order matters.
const DIAGNOSTIC_WORD = /\b(?:error|warning|warn|note|hint|info)\b|\bTS\d{3,5}\b|\bE\d{3,4}\b/i;
const MAX_LISTED_LOCATIONS = 5;

/**
 * Compiler and linter messages that say the same thing at different places merged into the first,
 * with the count and the first few other places: `src/a.ts(3,1): error TS2304: Cannot find name 'x'.`
 * twelve times becomes one line ending `[×12; also at src/b.ts(4,2), …]`. Lines that are not
 * diagnostics (no location, no error/warning word) are never touched.
 *
 * @example dedupRepeatedPatterns("a.ts:1:1: error: bad\nb.ts:2:2: error: bad")
 * // 'a.ts:1:1: error: bad [×2; also at b.ts:2:2]'
 */
export function dedupRepeatedPatterns(text: string): string {
  const lines = text.split('\n');
  if (lines.length < 2) return text;
  const groups = new Map<string, { first: number; locations: string[] }>();
  const keys: (string | null)[] = lines.map((line, i) => {
    const m = LOCATION_PREFIX.exec(line);
    if (!m) return null;
    const message = line.slice(m[0].length);
    if (!DIAGNOSTIC_WORD.test(message)) return null;
    const key = `${m[1]}\u0000${message}`;
    const g = groups.get(key);
    if (g) g.locations.push(m[2]!);
    else groups.set(key, { first: i, locations: [m[2]!] });
    return key;
  });
  let merged = false;
  for (const g of groups.values()) if (g.locations.length > 1) merged = true;
  if (!merged) return text;
  const out: string[] = [];
  lines.forEach((line, i) => {
    const key = keys[i];
    const g = key === null || key === undefined ? undefined : groups.get(key);
    if (!g || g.locations.length === 1) {
      out.push(line);
      return;
    }
    if (g.first !== i) return;
    const others = g.locations.slice(1, 1 + MAX_LISTED_LOCATIONS);
    const more = g.locations.length - 1 - others.length;
    out.push(`${line} [×${g.locations.length}; also at ${others.join(', ')}${more > 0 ? `, and ${more} more` : ''}]`);
  });
  return out.join('\n');
}

/**
 * Trailing spaces removed, runs of blank lines merged into one, blank lines at the ends dropped,
 * and the indentation every line shares taken off (relative indentation, which code needs, stays).
 *
 * @example collapseWhitespace('    a\n\n\n\n      b   \n') // 'a\n\n  b'
 */
export function collapseWhitespace(text: string): string {
  let out = text.replace(/[ \t]+$/gm, '').replace(/\n{3,}/g, '\n\n').replace(/^\n+|\n+$/g, '');
  const indents = out
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => /^[ \t]*/.exec(l)![0]);
  if (indents.length > 0) {
    let common = indents[0]!;
    for (const ind of indents) {
      let n = 0;
      while (n < common.length && n < ind.length && common[n] === ind[n]) n++;
      common = common.slice(0, n);
      if (common === '') break;
    }
    if (common !== '') out = out.split('\n').map((l) => l.slice(Math.min(common.length, /^[ \t]*/.exec(l)![0].length))).join('\n');
  }
  return out === text ? text : out;
}

/** The techniques in the seed's priority order; the order matters (escapes hide duplicates, frames hide patterns). */
export const DETERMINISTIC_TECHNIQUES: readonly { name: string; apply: (text: string) => string }[] = [
  { name: 'stripAnsiCodes', apply: stripAnsiCodes },
  { name: 'stripStackTraces', apply: stripStackTraces },
  { name: 'stripDuplicateLines', apply: stripDuplicateLines },
  { name: 'dedupRepeatedPatterns', apply: dedupRepeatedPatterns },
  { name: 'collapseWhitespace', apply: collapseWhitespace },
];

/** All five techniques over one text, in order. */
export function compactToolOutput(text: string): string {
  let out = text;
  for (const t of DETERMINISTIC_TECHNIQUES) out = t.apply(out);
  return out;
}

/** Each result's stage 0 form, remembered so that compacting again costs nothing for results seen before. */
const compacted = new WeakMap<ChatMessage, ChatMessage>();

/**
 * Stage 0 over a conversation: each tool result other than a file read passed through compactToolOutput. A message the
 * techniques leave unchanged is returned as the same object (token counts stay cached), and the
 * array itself is returned when nothing changed.
 */
export function applyDeterministicCompaction(messages: readonly ChatMessage[]): readonly ChatMessage[] {
  let out: ChatMessage[] | null = null;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role !== 'tool' || isFileReadTool(m.name)) continue;
    let next = compacted.get(m);
    if (next === undefined) {
      const content = compactToolOutput(m.content);
      next = content === m.content ? m : { ...m, content };
      compacted.set(m, next);
    }
    if (next === m) continue;
    out ??= messages.slice();
    out[i] = next;
  }
  return out ?? messages;
}
