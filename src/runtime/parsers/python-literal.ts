// A reader for the Python subset pythonic tool calls are written in: `[f(a=1, b='x'), g()]`,
// with strings (' " and triple quotes, escapes), numbers, True/False/None, lists, tuples, dicts
// and nested calls as values. Depth is bounded so hostile nesting is an error, not a stack overflow.

import type { ToolCall } from './types.js';

export const MAX_LITERAL_DEPTH = 256;

export class PythonSyntaxError extends Error {}

class Reader {
  pos = 0;
  constructor(readonly text: string) {}

  fail(what: string): never {
    throw new PythonSyntaxError(`${what} at offset ${this.pos}`);
  }
  skip(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos]!)) this.pos++;
  }
  peek(): string {
    this.skip();
    return this.text[this.pos] ?? '';
  }
  expect(ch: string): void {
    if (this.peek() !== ch) this.fail(`expected "${ch}"`);
    this.pos++;
  }
  identifier(): string {
    this.skip();
    const m = /^[A-Za-z_][\w.\-]*/.exec(this.text.slice(this.pos, this.pos + 256));
    if (!m) this.fail('expected a name');
    this.pos += m[0].length;
    return m[0];
  }

  value(depth: number): unknown {
    if (depth > MAX_LITERAL_DEPTH) this.fail(`nesting deeper than ${MAX_LITERAL_DEPTH}`);
    const ch = this.peek();
    if (ch === "'" || ch === '"') return this.string();
    if (ch === '[' || ch === '(') return this.sequence(ch === '[' ? ']' : ')', depth);
    if (ch === '{') return this.dict(depth);
    const num = /^-?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+)/.exec(this.text.slice(this.pos, this.pos + 64));
    if (num) {
      const n = Number(num[0]);
      // 1e999 is Infinity, which JSON cannot carry: a call holding it is not a call we can pass on.
      if (!Number.isFinite(n)) this.fail(`number ${num[0]} is out of range`);
      this.pos += num[0].length;
      return n;
    }
    const name = this.identifier();
    if (name === 'True' || name === 'true') return true;
    if (name === 'False' || name === 'false') return false;
    if (name === 'None' || name === 'null') return null;
    if (this.peek() === '(') return this.callArguments(name, depth);
    this.fail(`unexpected name "${name}"`);
  }

  string(): string {
    const q = this.text[this.pos]!;
    const triple = this.text.startsWith(q.repeat(3), this.pos);
    const end = triple ? q.repeat(3) : q;
    this.pos += end.length;
    let out = '';
    while (this.pos < this.text.length) {
      if (this.text.startsWith(end, this.pos)) {
        this.pos += end.length;
        return out;
      }
      const c = this.text[this.pos]!;
      if (c === '\\') {
        const n = this.text[this.pos + 1] ?? '';
        const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', '0': '\0' };
        if (n in simple) {
          out += simple[n];
          this.pos += 2;
          continue;
        }
        if (n === 'u' || n === 'x') {
          const len = n === 'u' ? 4 : 2;
          const hex = this.text.slice(this.pos + 2, this.pos + 2 + len);
          if (/^[0-9a-fA-F]+$/.test(hex) && hex.length === len) {
            out += String.fromCharCode(parseInt(hex, 16));
            this.pos += 2 + len;
            continue;
          }
        }
        out += c;
        this.pos++;
        continue;
      }
      out += c;
      this.pos++;
    }
    this.fail('unterminated string');
  }

  sequence(close: string, depth: number): unknown[] {
    this.pos++;
    const items: unknown[] = [];
    while (this.peek() !== close) {
      if (this.pos >= this.text.length) this.fail(`missing "${close}"`);
      items.push(this.value(depth + 1));
      if (this.peek() === ',') this.pos++;
      else if (this.peek() !== close) this.fail(`expected "," or "${close}"`);
    }
    this.pos++;
    return items;
  }

  dict(depth: number): Record<string, unknown> {
    this.pos++;
    const out: Record<string, unknown> = {};
    while (this.peek() !== '}') {
      if (this.pos >= this.text.length) this.fail('missing "}"');
      const key = this.value(depth + 1);
      this.expect(':');
      out[String(key)] = this.value(depth + 1);
      if (this.peek() === ',') this.pos++;
      else if (this.peek() !== '}') this.fail('expected "," or "}"');
    }
    this.pos++;
    return out;
  }

  /** `name(` already read up to the parenthesis: keyword arguments → an object. */
  callArguments(name: string, depth: number): ToolCall {
    this.expect('(');
    const args: Record<string, unknown> = {};
    while (this.peek() !== ')') {
      if (this.pos >= this.text.length) this.fail('missing ")"');
      const key = this.identifier();
      this.expect('=');
      args[key] = this.value(depth + 1);
      if (this.peek() === ',') this.pos++;
      else if (this.peek() !== ')') this.fail('expected "," or ")"');
    }
    this.pos++;
    return { name, arguments: args };
  }
}

/** `[f(a=1), g()]` (or a single `f(a=1)`) → calls. Throws PythonSyntaxError when it is not one. */
export function parsePythonCalls(text: string): ToolCall[] {
  const reader = new Reader(text);
  const wrapped = reader.peek() === '[';
  if (wrapped) reader.pos++;
  const calls: ToolCall[] = [];
  while (reader.peek() !== (wrapped ? ']' : '')) {
    if (reader.pos >= text.length) {
      if (wrapped) reader.fail('missing "]"');
      break;
    }
    const name = reader.identifier();
    calls.push(reader.callArguments(name, 1));
    if (reader.peek() === ',') reader.pos++;
    else if (wrapped && reader.peek() !== ']') reader.fail('expected "," or "]"');
  }
  if (wrapped) reader.pos++;
  if (reader.peek() !== '') reader.fail('text after the calls');
  return calls;
}

/** A Python literal value (`{'k': 'v'}`, `[1, 2]`, `True`); throws PythonSyntaxError when it is not one. */
export function parsePythonLiteral(text: string): unknown {
  const reader = new Reader(text);
  const value = reader.value(0);
  if (reader.peek() !== '') reader.fail('text after the value');
  return value;
}
