// Stage 3 for JSON (seed §5): truncated JSON, trailing commas, unescaped quotes and newlines in
// strings, missing brackets. jsonrepair does the repairing; this module holds the contract —
// the answer is a parsed value that JSON.parse accepted, or null when the text cannot be saved.

import { jsonrepair } from 'jsonrepair';

export interface RepairedJson {
  value: unknown;
  /** False when the text was valid JSON as it stood. */
  repaired: boolean;
}

/** Past this size a broken text is not worth repairing: it is reported, not guessed at. */
export const MAX_REPAIR_CHARS = 1_000_000;

/**
 * Parse `text` as a JSON object or array, repairing it when it is broken. Returns null when it
 * does not look like a JSON object or array at all, or when no repair yields valid JSON.
 */
export function repairJson(text: string): RepairedJson | null {
  const trimmed = text.trim();
  const first = trimmed[0];
  if (first !== '{' && first !== '[') return null;
  try {
    return { value: JSON.parse(trimmed), repaired: false };
  } catch {
    // fall through to repair
  }
  if (trimmed.length > MAX_REPAIR_CHARS) return null;
  let fixed: string;
  try {
    fixed = jsonrepair(trimmed);
  } catch {
    return null;
  }
  try {
    const value: unknown = JSON.parse(fixed);
    if (typeof value !== 'object' || value === null) return null;
    return { value, repaired: true };
  } catch {
    return null;
  }
}

/** A JSON object (not an array, not null), repaired when needed; null when there is none. */
export function repairJsonObject(text: string): Record<string, unknown> | null {
  const result = repairJson(text);
  if (!result || Array.isArray(result.value)) return null;
  return result.value as Record<string, unknown>;
}
