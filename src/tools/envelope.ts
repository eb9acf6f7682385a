// The list envelope (count, limit, offset, returned, has_more, next_offset) and the max_bytes
// cut, shared by every tool so that truncation is always explicit and identical.

import { z } from 'zod';

/** A `limit` argument: 1..max, with a message that states the allowed range. */
export function limitArg(defaultValue: number, max: number) {
  return z
    .number({ invalid_type_error: `limit must be a whole number from 1 to ${max}` })
    .int(`limit must be a whole number from 1 to ${max}`)
    .min(1, `limit must be from 1 to ${max}`)
    .max(max, `limit must be from 1 to ${max}`)
    .default(defaultValue)
    .describe(`How many items to return (1–${max}).`);
}

export const offsetArg = z
  .number({ invalid_type_error: 'offset must be a whole number of 0 or more' })
  .int('offset must be a whole number of 0 or more')
  .min(0, 'offset must be 0 or more')
  .default(0)
  .describe('How many items to skip (use next_offset from the previous page).');

/** The largest max_bytes a tool takes. */
export const MAX_BYTES_LIMIT = 10_000_000;

export function maxBytesArg(defaultValue: number) {
  return z
    .number({ invalid_type_error: 'max_bytes must be a whole number' })
    .int('max_bytes must be a whole number')
    .min(1, 'max_bytes must be at least 1')
    .max(MAX_BYTES_LIMIT, `max_bytes must be at most ${MAX_BYTES_LIMIT}`)
    .default(defaultValue)
    .describe('Cap on the serialised result in bytes; items are cut from the end and truncated is set (a cap smaller than one item gives zero items).');
}

export const redactArg = z
  .boolean()
  .default(true)
  .describe('Replace secrets (API keys, tokens, private keys, URL passwords) with markers. Pass false for the exact text.');

export interface Page {
  count: number;
  limit: number;
  offset: number;
  returned: number;
  has_more: boolean;
  next_offset: number | null;
}

export const pageShape = {
  count: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
  returned: z.number().int(),
  has_more: z.boolean(),
  next_offset: z.number().int().nullable(),
  truncated: z.boolean().optional(),
};

export function page(count: number, limit: number, offset: number, returned: number): Page {
  const end = offset + returned;
  return { count, limit, offset, returned, has_more: end < count, next_offset: end < count ? end : null };
}

/**
 * Cut `body[key]` (a list) from the end until the serialised result fits `maxBytes`, and fix the
 * page fields. `finish` adds fields derived from the page (e.g. next_from_line), so the size is
 * measured on exactly what is returned. Binary search: serialising is the cost. When not even
 * the envelope fits, the list comes back empty with `truncated: true`.
 */
export function fitMaxBytes<B extends Record<string, unknown> & Page, R extends Record<string, unknown> = B>(
  body: B,
  key: keyof B & string,
  maxBytes: number,
  finish: (b: B) => R = (b) => b as unknown as R,
): R & { truncated?: boolean } {
  const items = body[key] as unknown[];
  const shaped = (n: number, truncated: boolean): R & { truncated?: boolean } => {
    const b = { ...body, ...page(body.count, body.limit, body.offset, n), [key]: items.slice(0, n) } as B;
    return truncated ? { ...finish(b), truncated: true } : finish(b);
  };
  const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify({ status: 'ok', ...(v as object) }));
  const whole = finish(body);
  if (bytes(whole) <= maxBytes) return whole;
  let lo = 0;
  let hi = items.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (bytes(shaped(mid, true)) <= maxBytes) lo = mid;
    else hi = mid - 1;
  }
  return shaped(lo, true);
}
