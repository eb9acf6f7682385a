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

export function maxBytesArg(defaultValue: number) {
  return z
    .number({ invalid_type_error: 'max_bytes must be a whole number' })
    .int('max_bytes must be a whole number')
    .min(256, 'max_bytes must be at least 256')
    .max(10_000_000, 'max_bytes must be at most 10000000')
    .default(defaultValue)
    .describe('Cap on the serialised result; items are cut from the end and truncated is set.');
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
 * Cut `body[key]` (a list) from the end until the serialised body fits `maxBytes`, and fix the
 * page fields. Binary search: serialising is the cost.
 */
export function fitMaxBytes<B extends Record<string, unknown> & Page>(body: B, key: keyof B & string, maxBytes: number): B & { truncated?: boolean } {
  const items = body[key] as unknown[];
  const size = (n: number) => Buffer.byteLength(JSON.stringify({ status: 'ok', ...body, [key]: items.slice(0, n), truncated: true }));
  if (Buffer.byteLength(JSON.stringify({ status: 'ok', ...body })) <= maxBytes) return body;
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (size(mid) <= maxBytes) lo = mid;
    else hi = mid - 1;
  }
  const kept = items.slice(0, lo);
  const fixed = page(body.count, body.limit, body.offset, kept.length);
  return { ...body, ...fixed, [key]: kept, truncated: true };
}
