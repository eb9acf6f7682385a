// Narrowing helpers for the untyped JSON of a transcript line: every field may be missing or of
// an unexpected type in real files, so readers ask for a shape and get undefined otherwise.

export type Json = Record<string, unknown>;

export function asObj(value: unknown): Json | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
}

export function asStr(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A non-empty string, or undefined. */
export function asId(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function asNum(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export function asArr(value: unknown): unknown[] | undefined {
  return Array.isArray(value) ? value : undefined;
}

/** Blocks of a message's content; a plain string is one text block. */
export function contentBlocks(content: unknown): Json[] {
  const s = asStr(content);
  if (s !== undefined) return [{ type: 'text', text: s }];
  return (asArr(content) ?? []).map((b) => asObj(b) ?? { type: 'unknown' });
}

/** Cut a string to `max` characters (with an ellipsis) so state and attrs stay small. */
export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** One line of plain text: whitespace runs collapsed, then cut to `max` characters. */
export function oneLine(text: string, max: number): string {
  return clip(text.replace(/\s+/g, ' ').trim(), max);
}
