// Re-serialises a raw JSON line exactly as Python's `json.dumps(obj, sort_keys=True,
// ensure_ascii=False)` would, which is what the Control Plane hashes.
//
// Why work on the raw text: JSON.parse forgets number spellings (`950.0` becomes 950) and string
// escape choices, so re-serialising parsed JS values cannot reproduce the writer's bytes. Number
// and literal tokens are kept verbatim (the writer was Python, so they already are Python's
// repr); strings are kept verbatim when their escapes are the ones Python writes, and re-escaped
// the Python way otherwise; object keys are sorted by code point, as Python sorts `str`.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

const PY_ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

/** A JS string as Python's `json.dumps(s, ensure_ascii=False)` writes it (quotes included). */
export function pyJsonString(s: string): string {
  return `"${s.replace(/[\u0000-\u001f"\\]/g, (c) => PY_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}

/** Compare two strings by Unicode code point (JS `<` compares UTF-16 units, which differs above U+FFFF). */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return fixUnit(x) - fixUnit(y);
  }
  return a.length - b.length;
}

// Surrogates (astral code points) must sort after U+E000–U+FFFF; shifting both ranges does that.
function fixUnit(c: number): number {
  return c >= 0xe000 ? c - 0x800 : c >= 0xd800 ? c + 0x2000 : c;
}

interface Member {
  key: string;
  text: string;
}

class Canonicalizer {
  private i = 0;
  private nextBackslash = -1;

  constructor(private readonly src: string) {
    this.nextBackslash = this.findBackslash(0);
  }

  run(dropTopKey: string | null): string {
    this.ws();
    if (this.src.charCodeAt(this.i) !== 0x7b) throw new SyntaxError('not a JSON object');
    const out = this.object(dropTopKey);
    this.ws();
    if (this.i !== this.src.length) throw new SyntaxError(`unexpected text at ${this.i}`);
    return out;
  }

  private findBackslash(from: number): number {
    const b = this.src.indexOf('\\', from);
    return b === -1 ? Number.POSITIVE_INFINITY : b;
  }

  private ws(): void {
    const s = this.src;
    for (;;) {
      const c = s.charCodeAt(this.i);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) this.i++;
      else return;
    }
  }

  private expect(code: number): void {
    if (this.src.charCodeAt(this.i) !== code) throw new SyntaxError(`expected '${String.fromCharCode(code)}' at ${this.i}`);
    this.i++;
  }

  private value(): string {
    const c = this.src.charCodeAt(this.i);
    if (c === 0x7b) return this.object(null);
    if (c === 0x5b) return this.array();
    if (c === QUOTE) return this.string(false).text;
    return this.scalar();
  }

  private object(drop: string | null): string {
    this.expect(0x7b);
    this.ws();
    if (this.src.charCodeAt(this.i) === 0x7d) {
      this.i++;
      return '{}';
    }
    const members: Member[] = [];
    for (;;) {
      this.ws();
      const key = this.string(true);
      this.ws();
      this.expect(0x3a);
      this.ws();
      const text = this.value();
      if (key.decoded !== drop) members.push({ key: key.decoded, text: `${key.text}: ${text}` });
      this.ws();
      const c = this.src.charCodeAt(this.i++);
      if (c === 0x2c) continue;
      if (c === 0x7d) break;
      throw new SyntaxError(`expected ',' or '}' at ${this.i - 1}`);
    }
    members.sort((a, b) => compareCodePoints(a.key, b.key));
    let out = '{';
    for (let k = 0; k < members.length; k++) out += (k ? ', ' : '') + members[k]!.text;
    return `${out}}`;
  }

  private array(): string {
    this.expect(0x5b);
    this.ws();
    if (this.src.charCodeAt(this.i) === 0x5d) {
      this.i++;
      return '[]';
    }
    let out = '[';
    for (let k = 0; ; k++) {
      this.ws();
      out += (k ? ', ' : '') + this.value();
      this.ws();
      const c = this.src.charCodeAt(this.i++);
      if (c === 0x2c) continue;
      if (c === 0x5d) break;
      throw new SyntaxError(`expected ',' or ']' at ${this.i - 1}`);
    }
    return `${out}]`;
  }

  /** A string token; `decode` only for keys (values are copied, never needed decoded). */
  private string(decode: boolean): { decoded: string; text: string } {
    const s = this.src;
    const start = this.i;
    if (s.charCodeAt(start) !== QUOTE) throw new SyntaxError(`expected a string at ${start}`);
    if (this.nextBackslash < start) this.nextBackslash = this.findBackslash(start);
    const close = s.indexOf('"', start + 1);
    if (close === -1) throw new SyntaxError('unterminated string');
    if (this.nextBackslash > close) {
      // Fast path: no escapes, so the token is already what Python writes (the pipeline's
      // JSON.parse has rejected raw control characters).
      this.i = close + 1;
      return { decoded: decode ? s.slice(start + 1, close) : '', text: s.slice(start, close + 1) };
    }
    // Jump from escape to escape with indexOf rather than walking every character.
    let canonical = true;
    let j = start + 1;
    for (;;) {
      const quote = s.indexOf('"', j);
      if (quote === -1) throw new SyntaxError('unterminated string');
      const slash = this.nextBackslash >= j ? this.nextBackslash : this.findBackslash(j);
      if (slash > quote) {
        j = quote;
        break;
      }
      const e = s[slash + 1];
      if (e === 'u') {
        const hex = s.slice(slash + 2, slash + 6);
        if (parseInt(hex, 16) >= 0x20 || hex !== hex.toLowerCase()) canonical = false;
        j = slash + 6;
      } else {
        if (e === '/') canonical = false;
        j = slash + 2;
      }
      this.nextBackslash = this.findBackslash(j);
    }
    this.i = j + 1;
    if (this.nextBackslash < this.i) this.nextBackslash = this.findBackslash(this.i);
    const token = s.slice(start, j + 1);
    if (canonical && !decode) return { decoded: '', text: token };
    const decoded = JSON.parse(token) as string;
    return { decoded, text: canonical ? token : pyJsonString(decoded) };
  }

  private scalar(): string {
    const s = this.src;
    const start = this.i;
    for (;;) {
      const c = s.charCodeAt(this.i);
      if (Number.isNaN(c) || c === 0x2c || c === 0x7d || c === 0x5d || c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) break;
      this.i++;
    }
    if (this.i === start) throw new SyntaxError(`expected a value at ${start}`);
    return s.slice(start, this.i);
  }
}

/**
 * The Python `json.dumps(entry, sort_keys=True, ensure_ascii=False)` text of a raw JSON object
 * line, without the top-level key `dropTopKey` (the entry's own hash). Throws SyntaxError when
 * the text is not a JSON object.
 *
 * @example canonicalPythonJson('{"b": 950.0, "a": "x", "entry_hash": "…"}', 'entry_hash') // '{"a": "x", "b": 950.0}'
 */
export function canonicalPythonJson(raw: string, dropTopKey: string | null = null): string {
  return new Canonicalizer(raw).run(dropTopKey);
}
