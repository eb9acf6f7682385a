// Reading OpenCode records without trusting their shape: every accessor answers undefined for
// anything unexpected, and text is cut before it is handed on (tool outputs run to megabytes).

export type Obj = Record<string, unknown>;

/** Longest string handed to the pipeline as a summary source (it flattens and cuts further). */
export const SUMMARY_SOURCE_CHARS = 1000;

export function asObject(value: unknown): Obj | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Obj) : undefined;
}

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A non-empty string after trimming, else undefined (ccusage ignores blank model and provider ids). */
export function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** A finite number, or numeric text; else undefined. */
export function asNumber(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return undefined;
}

/** A token count: a non-negative whole number, else 0 (as ccusage reads them). */
export function count(value: unknown): number {
  const n = asNumber(value);
  return n !== undefined && n > 0 ? Math.floor(n) : 0;
}

/** Cut `text` to `max` characters with an ellipsis, never splitting a surrogate pair. */
export function clip(text: string, max: number = SUMMARY_SOURCE_CHARS): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

/** Milliseconds since the epoch as an ISO timestamp, or undefined when not a plausible number. */
export function msToIso(value: unknown): string | undefined {
  const ms = asNumber(value);
  if (ms === undefined || ms <= 0) return undefined;
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}
