// Small English helpers for the overview's plain-language fields: counts in words, plurals,
// lists, clipping at a word boundary, human durations. Pure functions, so the text is stable.

const SMALL = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

/**
 * A count as a reader would write it: words under ten, digits from ten on.
 *
 * @example count(2) // 'two'; count(14) // '14'
 */
export function count(n: number): string {
  return Number.isInteger(n) && n >= 0 && n < 10 ? SMALL[n]! : String(n);
}

/**
 * `n` and a noun, pluralised with `plural` (default noun + 's').
 *
 * @example counted(1, 'file') // 'one file'; counted(3, 'entry', 'entries') // 'three entries'
 */
export function counted(n: number, noun: string, plural = `${noun}s`): string {
  return `${count(n)} ${n === 1 ? noun : plural}`;
}

/** 'once', 'twice', 'three times', '12 times'. */
export function times(n: number): string {
  if (n === 1) return 'once';
  if (n === 2) return 'twice';
  return `${count(n)} times`;
}

/** Upper-case the first character (sentences start with a capital, even "Two budget warnings"). */
export function capitalize(s: string): string {
  return s.length === 0 ? s : s[0]!.toUpperCase() + s.slice(1);
}

/**
 * Join phrases the way a sentence lists them.
 *
 * @example listing(['a', 'b', 'c']) // 'a, b and c'
 */
export function listing(parts: readonly string[]): string {
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

/** Whitespace (newlines, tabs, U+2028…) folded to single spaces. */
export function oneLine(text: string): string {
  return text.replace(/\s+/gu, ' ').trim();
}

/**
 * At most `max` characters, cut at the last word boundary before the limit, with '…' when cut.
 * A single word longer than the limit is cut inside the word.
 *
 * @example clipWords('please read the whole file now', 16) // 'please read the…'
 */
export function clipWords(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const head = chars.slice(0, max).join('');
  const space = head.lastIndexOf(' ');
  const cut = space >= max / 2 ? head.slice(0, space) : head;
  return `${cut.replace(/[\s,;:.!?-]+$/u, '')}…`;
}

function unit(n: number, name: string): string {
  return `${n} ${name}${n === 1 ? '' : 's'}`;
}

/**
 * A duration as people say it, with the two largest units.
 *
 * @example humanDuration(45) // '45 seconds'; humanDuration(7500) // '2 hours 5 minutes'
 */
export function humanDuration(seconds: number | null): string | null {
  if (seconds === null || !Number.isFinite(seconds) || seconds < 0) return null;
  const s = Math.round(seconds);
  if (s < 60) return unit(s, 'second');
  const totalMinutes = Math.round(s / 60);
  if (totalMinutes < 60) return unit(totalMinutes, 'minute');
  const totalHours = Math.floor(totalMinutes / 60);
  const minutes = totalMinutes % 60;
  if (totalHours < 24) return minutes ? `${unit(totalHours, 'hour')} ${unit(minutes, 'minute')}` : unit(totalHours, 'hour');
  const days = Math.floor(totalHours / 24);
  const hours = totalHours % 24;
  return hours ? `${unit(days, 'day')} ${unit(hours, 'hour')}` : unit(days, 'day');
}

/** 'budget_exhausted' → 'budget exhausted'; 'INVALID_REQUEST' → 'invalid request'. */
export function codeWords(code: string): string {
  return code.replace(/[_:.-]+/g, ' ').trim().toLowerCase();
}

/** 'WO_FAILED' → 'wo_failed'; 'tool:error' → 'tool_error'; 'ApiError' → 'api_error'. */
export function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase();
}
