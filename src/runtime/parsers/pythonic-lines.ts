// Calls written one per line (Olmo 3 inside <function_calls>): `f(a='x')\ng(n=1)`. Each line is
// read on its own, so one call that cannot be read does not take its siblings down with it.

import { parsePythonCalls, PythonSyntaxError } from './python-literal.js';
import type { RegionParse } from './types.js';

/** Split at line breaks that are outside strings and brackets (a call may span lines inside them). */
export function topLevelLines(text: string): string[] {
  const lines: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let escaped = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote !== null) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === quote) quote = null;
      continue;
    }
    if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if ((ch === ')' || ch === ']' || ch === '}') && depth > 0) depth--;
    else if (ch === '\n' && depth === 0) {
      lines.push(text.slice(start, i));
      start = i + 1;
    }
  }
  lines.push(text.slice(start));
  return lines.filter((l) => l.trim() !== '');
}

export function parsePythonicLines(body: string, parserId: string): RegionParse {
  const out: RegionParse = { calls: [], errors: [] };
  for (const line of topLevelLines(body)) {
    try {
      out.calls.push(...parsePythonCalls(line.trim()));
    } catch (err) {
      if (!(err instanceof PythonSyntaxError)) throw err;
      const shown = line.trim().length > 60 ? `${line.trim().slice(0, 57)}...` : line.trim();
      out.errors.push({ code: 'bad_call', message: `${parserId}: "${shown}" is not a call (${err.message}); left out` });
    }
  }
  return out;
}
