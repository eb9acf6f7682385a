// Bearer tokens on the wire: reading `Authorization: Bearer …`, hashing a token for storage and
// lookup, and comparing secrets in constant time.

import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * The token of an `Authorization: Bearer <token>` header, or null when there is none.
 *
 * @example bearerToken('bearer  s3cret ') // 's3cret'
 */
export function bearerToken(header: string | null | undefined): string | null {
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec((header ?? '').trim());
  return match?.[1] ?? null;
}

/** SHA-256 of a token, hex: what the token table stores and looks up (never the token). */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * True when `given` is `expected`. Both are hashed first so that the comparison takes the same
 * time whatever the content or the length.
 *
 * @example sameSecret('s3cret', 's3cret') // true
 */
export function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}
