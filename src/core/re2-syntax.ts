// A user pattern (JavaScript syntax, no `u` flag) spelled for RE2 (re2js), so that the same lines
// match. RE2 runs in time linear in the input whatever the pattern, where V8's own linear engine
// (the safety net in safe-regex.ts) is 100–200× slower and its backtracking engine can take
// exponential time. Where the two syntaxes mean different things, the JavaScript meaning is spelled
// out: `.` excludes \r, U+2028 and U+2029 too; `\s` is JavaScript's Unicode whitespace; `\u00e9`,
// `\cJ`, `\0`, `[\b]` and identity escapes such as `\q` (a plain q) become explicit code points or
// letters; a brace that is not a quantifier is literal. Anything this does not know how to say
// (lookaround, backreferences, lone surrogates, unknown group syntax) gives null: the caller then
// keeps the JavaScript engine and its ReDoS screen.
//
// One difference is left: RE2 reads code points, JavaScript without `u` reads UTF-16 units, so a
// `.` or a negated class meets a character outside the BMP (an emoji) as one character in RE2 and
// as two in JavaScript. Literal text, classes of BMP characters and every ASCII construct agree.

const JS_SPACE = '\\t\\n\\x{0b}\\f\\r \\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}\\x{feff}';
/** The complement of JS_SPACE over every code point, for `\S` inside a class. */
const JS_NON_SPACE =
  '\\x00-\\x08\\x{0e}-\\x{1f}\\x{21}-\\x{9f}\\x{a1}-\\x{167f}\\x{1681}-\\x{1fff}\\x{200b}-\\x{2027}\\x{202a}-\\x{202e}\\x{2030}-\\x{205e}\\x{2060}-\\x{2fff}\\x{3001}-\\x{fefe}\\x{ff00}-\\x{10ffff}';
const JS_DOT = '[^\\n\\r\\x{2028}\\x{2029}]';
const CONTROL: Record<string, number> = { n: 10, r: 13, t: 9, v: 11, f: 12 };
const PASSED_ESCAPES = 'dDwWbB';
const COUNTED = /^\{(\d+)(,(\d*))?\}/;

class Untranslatable extends Error {}

const cp = (code: number) => {
  if (code >= 0xd800 && code <= 0xdfff) throw new Untranslatable('lone surrogate');
  return `\\x{${code.toString(16)}}`;
};

/**
 * The pattern in RE2 syntax, or null when RE2 cannot say it the JavaScript way.
 *
 * @example toRe2Syntax('a.b\\u00e9') // 'a[^\\n\\r\\x{2028}\\x{2029}]b\\x{e9}'
 * @example toRe2Syntax('(a)\\1') // null
 */
export function toRe2Syntax(pattern: string): string | null {
  try {
    return translate(pattern);
  } catch (err) {
    if (err instanceof Untranslatable) return null;
    throw err;
  }
}

function translate(p: string): string {
  let out = '';
  let canQuantify = false; // a `{n,m}` here is a quantifier, not text
  for (let i = 0; i < p.length; ) {
    const c = p[i]!;
    if (c === '\\') {
      const [text, len] = escape(p, i);
      out += text;
      i += len;
      canQuantify = true;
    } else if (c === '[') {
      const [text, len] = charClass(p, i);
      out += text;
      i += len;
      canQuantify = true;
    } else if (c === '(') {
      const prefix = /^\((?:\?(?::|<[A-Za-z_][A-Za-z0-9_]*>))?/.exec(p.slice(i))![0];
      if (p[i + 1] === '?' && prefix === '(') throw new Untranslatable('lookaround or unknown group');
      out += prefix.startsWith('(?<') ? `(?P${prefix.slice(2)}` : prefix;
      i += prefix.length;
      canQuantify = false;
    } else if (c === '{') {
      const q = COUNTED.exec(p.slice(i));
      if (q && canQuantify) {
        out += q[0];
        i += q[0].length;
        if (p[i] === '?') {
          out += '?';
          i += 1;
        }
      } else {
        out += '\\{';
        i += 1;
        canQuantify = true;
      }
    } else if (c === '}' || c === ']') {
      out += `\\${c}`;
      i += 1;
      canQuantify = true;
    } else if (c === '.') {
      out += JS_DOT;
      i += 1;
      canQuantify = true;
    } else if ('*+?'.includes(c)) {
      out += c;
      i += 1;
      if (p[i] === '?') {
        out += '?';
        i += 1;
      }
    } else if (c === ')' || c === '|' || c === '^' || c === '$') {
      out += c;
      i += 1;
      canQuantify = c === ')';
    } else {
      const code = c.charCodeAt(0);
      out += code >= 0xd800 && code <= 0xdfff ? surrogatePair(p, i) : /[A-Za-z0-9 _"':,;=<>!@%&~`#/-]/.test(c) ? c : cp(code);
      i += code >= 0xd800 && code <= 0xdbff ? 2 : 1;
      canQuantify = true;
    }
  }
  return out;
}

/** A literal astral character written as its surrogate pair (a lone half cannot be said in UTF-8). */
function surrogatePair(p: string, i: number): string {
  const point = p.codePointAt(i)!;
  if (point <= 0xffff) throw new Untranslatable('lone surrogate');
  return `\\x{${point.toString(16)}}`;
}

/** An escape outside a class: [RE2 text, characters consumed]. */
function escape(p: string, i: number): [string, number] {
  const next = p[i + 1];
  if (next === undefined) throw new Untranslatable('trailing backslash');
  if (PASSED_ESCAPES.includes(next)) return [`\\${next}`, 2];
  if (next === 's') return [`[${JS_SPACE}]`, 2];
  if (next === 'S') return [`[^${JS_SPACE}]`, 2];
  if (next >= '1' && next <= '9') throw new Untranslatable('backreference');
  if (next === 'k') throw new Untranslatable('named backreference');
  const atom = escapedUnit(p, i);
  return [cp(atom.code), atom.len];
}

/** The code unit an escape stands for (not a class escape), and its length. */
function escapedUnit(p: string, i: number): { code: number; len: number } {
  const next = p[i + 1]!;
  if (next in CONTROL) return { code: CONTROL[next]!, len: 2 };
  if (next === 'x' && /^[0-9a-fA-F]{2}$/.test(p.slice(i + 2, i + 4))) return { code: parseInt(p.slice(i + 2, i + 4), 16), len: 4 };
  if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(p.slice(i + 2, i + 6))) return { code: parseInt(p.slice(i + 2, i + 6), 16), len: 6 };
  if (next === 'c' && /[A-Za-z]/.test(p[i + 2] ?? '')) return { code: p.charCodeAt(i + 2) % 32, len: 3 };
  if (next === 'c') return { code: 92, len: 1 }; // `\c` without a letter is a backslash, then a c
  if (next === '0' && !/[0-9]/.test(p[i + 2] ?? '')) return { code: 0, len: 2 };
  if (next >= '0' && next <= '9') throw new Untranslatable('octal escape');
  return { code: p.charCodeAt(i + 1), len: 2 }; // identity escape: `\.` or `\q` meaning q
}

interface ClassAtom {
  code: number | null; // null: a class escape
  text: string;
  len: number;
}

function classAtom(p: string, j: number): ClassAtom {
  const c = p[j]!;
  if (c !== '\\') {
    const code = c.charCodeAt(0);
    if (code >= 0xd800 && code <= 0xdfff) throw new Untranslatable('surrogate in a class');
    return { code, text: '', len: 1 };
  }
  const next = p[j + 1] ?? '';
  if ('dDwW'.includes(next)) return { code: null, text: `\\${next}`, len: 2 };
  if (next === 's') return { code: null, text: JS_SPACE, len: 2 };
  if (next === 'S') return { code: null, text: JS_NON_SPACE, len: 2 };
  if (next === 'b') return { code: 8, text: '', len: 2 };
  if (next === 'B' || next === 'k') throw new Untranslatable('unusual class escape');
  if (/[1-7]/.test(next)) {
    const octal = /^[0-3][0-7]{0,2}|^[4-7][0-7]?/.exec(p.slice(j + 1, j + 4))!;
    return { code: parseInt(octal[0], 8), text: '', len: 1 + octal[0].length };
  }
  if (next === 'c' && /[0-9_]/.test(p[j + 2] ?? '')) return { code: p.charCodeAt(j + 2) % 32, text: '', len: 3 };
  const unit = escapedUnit(p, j);
  if (unit.code >= 0xd800 && unit.code <= 0xdfff) throw new Untranslatable('surrogate in a class');
  return { code: unit.code, text: '', len: unit.len };
}

/** A character class, every unit spelled as \x{…} so nothing can turn into a range by accident. */
function charClass(p: string, i: number): [string, number] {
  let j = i + 1;
  const negated = p[j] === '^';
  if (negated) j++;
  const parts: string[] = [];
  while (j < p.length && p[j] !== ']') {
    const a = classAtom(p, j);
    j += a.len;
    if (p[j] === '-' && p[j + 1] !== ']' && j + 1 < p.length) {
      const b = classAtom(p, j + 1);
      if (a.code !== null && b.code !== null) {
        j += 1 + b.len;
        parts.push(`${cp(a.code)}-${cp(b.code)}`);
        continue;
      }
    }
    parts.push(a.code === null ? a.text : cp(a.code));
  }
  if (j >= p.length) throw new Untranslatable('unterminated class');
  // `[]` matches nothing and `[^]` any unit in JavaScript; RE2 has no empty class.
  if (parts.length === 0) return [negated ? '[\\x00-\\x{10ffff}]' : '[^\\x00-\\x{10ffff}]', j + 1 - i];
  return [`[${negated ? '^' : ''}${parts.join('')}]`, j + 1 - i];
}
