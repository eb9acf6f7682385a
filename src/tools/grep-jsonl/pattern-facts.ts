// What the scanner may assume about a pattern, to avoid decoding whole blocks as UTF-8 (which costs
// far more than the regex itself: ~3 ms per MB of non-ASCII text on Node 20):
// - requiredLiteral: text every match contains (as ripgrep extracts it), so candidate lines can
//   be found with Buffer.indexOf on the raw bytes and only those lines decoded;
// - byteSafe: the pattern can only ever consume ASCII characters, so a block decoded as latin1
//   (bytes = characters) finds exactly the lines a UTF-8 decoding would.
// Conservative: when unsure, the answer is "no literal" / "not safe", and the scan is a full one.

const SPECIAL = new Set(['^', '$', '\\', '.', '|', '?', '*', '+', '(', ')', '[', ']', '{', '}']);
const QUANTIFIER = new Set(['?', '*', '+', '{']);
const MIN_LITERAL = 3;
const COUNTED = /^\{\d+(,\d*)?\}/;

/** Index just past a character class starting at `i` (`[`). */
function skipClass(p: string, i: number): number {
  let j = i + 1;
  while (j < p.length && p[j] !== ']') j += p[j] === '\\' ? 2 : 1;
  return j + 1;
}

/** A `|` outside every group: then no run is required (one inside a group only breaks runs). */
function hasTopLevelAlternation(p: string): boolean {
  let depth = 0;
  for (let i = 0; i < p.length; ) {
    const c = p[i]!;
    if (c === '\\') i += 2;
    else if (c === '[') i = skipClass(p, i);
    else {
      if (c === '(') depth++;
      else if (c === ')') depth--;
      else if (c === '|' && depth === 0) return true;
      i += 1;
    }
  }
  return false;
}

/** Lone surrogates and U+FFFD have no faithful UTF-8 bytes to search for. */
const UNSEARCHABLE = /[\uD800-\uDFFF\uFFFD\n]/;

/** Characters on nearly every JSONL line: a literal made of them finds nearly every line. */
const COMMON_IN_JSON = new Set(['"', ':', ',', ' ', '{', '}', '[', ']', '\\']);

/** How well a run narrows the search: its characters that are not JSON punctuation, then its length. */
function selectivity(run: string): number {
  let rare = 0;
  for (const c of run) if (!COMMON_IN_JSON.has(c)) rare++;
  return rare * 1000 + run.length;
}

/**
 * The most selective run of plain characters outside groups that every match contains, or null:
 * the one with the most characters besides JSON punctuation (`": "` is on every line; `rror` is
 * not), the longer one when equal, the first one when both are.
 *
 * @example requiredLiteral('LED-[0-9a-f]{8}') // 'LED-'
 * @example requiredLiteral('"[a-z_]+": "[^"]*[Ee]rror') // 'rror'
 */
export function requiredLiteral(p: string): string | null {
  if (hasTopLevelAlternation(p)) return null;
  let best = '';
  let run = '';
  let depth = 0;
  const end = () => {
    if (run.length >= MIN_LITERAL && !UNSEARCHABLE.test(run) && (best === '' || selectivity(run) > selectivity(best))) best = run;
    run = '';
  };
  for (let i = 0; i < p.length; ) {
    const c = p[i]!;
    const counted = c === '{' ? COUNTED.exec(p.slice(i)) : null;
    if (QUANTIFIER.has(c) && (c !== '{' || counted)) {
      run = run.slice(0, -1); // the quantified atom may be absent (or repeated)
      end();
      i += counted ? counted[0].length : 1;
      continue;
    }
    if ((c === '{' || c === '}' || c === ']') && depth === 0) {
      run += c; // not a quantifier: a literal brace (JavaScript without the u flag)
      i += 1;
      continue;
    }
    if (c === '[') {
      end();
      i = skipClass(p, i);
      continue;
    }
    if (c === '(') depth++;
    if (c === ')') depth--;
    if (depth > 0 || SPECIAL.has(c)) {
      if (c === '\\' && depth === 0 && /[.*+?()[\]{}|^$\\/-]/.test(p[i + 1] ?? '') && !QUANTIFIER.has(p[i + 2] ?? '')) {
        run += p[i + 1];
        i += 2;
        continue;
      }
      end();
      i += c === '\\' ? 2 : 1;
      continue;
    }
    run += c;
    i += 1;
  }
  end();
  return best === '' ? null : best;
}

const UNSAFE_ESCAPES = 'sSWD';

/**
 * True when every character the pattern can match is ASCII: no `.`, no negated class, no `\s`,
 * `\S`, `\W`, `\D`, no non-ASCII character. In UTF-8 every ASCII character is one byte and no
 * byte of a multi-byte character is ASCII, so over latin1 text (one character per byte) such a
 * pattern matches the same ASCII runs, with the same `\b` word boundaries (non-ASCII characters
 * are non-word characters either way).
 *
 * @example byteSafe('"decision": "[A-Z]+"') // true
 */
export function byteSafe(source: string): boolean {
  if (!/^[\x00-\x7f]*$/.test(source)) return false;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      const next = source[i + 1] ?? '';
      if (UNSAFE_ESCAPES.includes(next)) return false;
      const hex = next === 'x' ? source.slice(i + 2, i + 4) : next === 'u' ? source.slice(i + 2, i + 6) : '';
      if (/^[0-9a-fA-F]{2}$|^[0-9a-fA-F]{4}$/.test(hex) && parseInt(hex, 16) > 0x7f) return false;
      i += 1;
    } else if (inClass) {
      if (c === ']') inClass = false;
    } else if (c === '[') {
      if (source[i + 1] === '^') return false;
      inClass = true;
    } else if (c === '.') return false;
  }
  return true;
}
