// FunctionGemma: <start_function_call>call:NAME{key:<escape>text<escape>,n:42}<end_function_call>.
// Strings are wrapped in <escape>; numbers, booleans, nested {…} and […] are written bare.

import { MAX_LITERAL_DEPTH } from '../python-literal.js';
import type { ParserDefinition, RegionParse } from '../types.js';

const ESC = '<escape>';
/** A bare value runs to the next ",", "}" or "]" (sticky: matched in place, no copying). */
const BARE = /[^,}\]]*/y;

class GemmaReader {
  pos = 0;
  constructor(readonly text: string) {}
  fail(what: string): never {
    throw new Error(`${what} at offset ${this.pos}`);
  }
  skip(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos]!)) this.pos++;
  }
  value(depth: number): unknown {
    if (depth > MAX_LITERAL_DEPTH) this.fail('nesting too deep');
    this.skip();
    if (this.text.startsWith(ESC, this.pos)) {
      const end = this.text.indexOf(ESC, this.pos + ESC.length);
      if (end < 0) this.fail('unterminated <escape> string');
      const s = this.text.slice(this.pos + ESC.length, end);
      this.pos = end + ESC.length;
      return s;
    }
    const ch = this.text[this.pos];
    if (ch === '{') return this.object(depth);
    if (ch === '[') {
      this.pos++;
      const items: unknown[] = [];
      for (;;) {
        this.skip();
        if (this.text[this.pos] === ']') break;
        if (this.pos >= this.text.length) this.fail('missing "]"');
        items.push(this.value(depth + 1));
        this.skip();
        if (this.text[this.pos] === ',') this.pos++;
      }
      this.pos++;
      return items;
    }
    BARE.lastIndex = this.pos;
    const m = BARE.exec(this.text)!;
    this.pos += m[0].length;
    const raw = m[0].trim();
    if (raw === 'true' || raw === 'false') return raw === 'true';
    if (raw === 'null') return null;
    if (raw !== '' && Number.isFinite(Number(raw))) return Number(raw);
    return raw;
  }
  object(depth: number): Record<string, unknown> {
    this.pos++;
    const out: Record<string, unknown> = {};
    for (;;) {
      this.skip();
      if (this.text[this.pos] === '}') break;
      if (this.pos >= this.text.length) this.fail('missing "}"');
      const colon = this.text.indexOf(':', this.pos);
      if (colon < 0) this.fail('expected "key:"');
      const key = this.text.slice(this.pos, colon).trim();
      this.pos = colon + 1;
      out[key] = this.value(depth + 1);
      this.skip();
      if (this.text[this.pos] === ',') this.pos++;
    }
    this.pos++;
    return out;
  }
}

function parseGemmaCall(body: string): RegionParse {
  const text = body.trim().replace(/^call:/, '');
  const brace = text.indexOf('{');
  const name = (brace < 0 ? text : text.slice(0, brace)).trim();
  if (!name) return { calls: [], errors: [{ code: 'bad_call', message: 'functiongemma: a call has no name' }] };
  if (brace < 0) return { calls: [{ name, arguments: {} }], errors: [] };
  try {
    return { calls: [{ name, arguments: new GemmaReader(text.slice(brace)).object(0) }], errors: [] };
  } catch (err) {
    return { calls: [{ name, arguments: text.slice(brace) }], errors: [{ code: 'unrepairable_arguments', message: `functiongemma: the arguments of "${name}" are malformed (${(err as Error).message}); kept as raw text` }] };
  }
}

export const functiongemma: ParserDefinition = {
  id: 'functiongemma',
  family: 'xml',
  format: '<start_function_call>call:NAME{key:<escape>text<escape>,n:1}<end_function_call>',
  regions: [{ open: '<start_function_call>', close: '<end_function_call>' }],
  parseRegion: (body) => parseGemmaCall(body),
};
