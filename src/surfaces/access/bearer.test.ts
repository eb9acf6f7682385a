// Reading bearer headers, hashing tokens and comparing secrets.

import { describe, expect, it } from 'vitest';
import { bearerToken, sameSecret, tokenHash } from './bearer.js';

describe('bearer tokens', () => {
  it('reads the token of a Bearer header only', () => {
    expect(bearerToken('Bearer s3cret')).toBe('s3cret');
    expect(bearerToken('bearer  s3cret ')).toBe('s3cret');
    for (const h of [undefined, null, '', 'Basic czNjcmV0', 's3cret', 'Bearer', 'Bearer a b']) expect(bearerToken(h), String(h)).toBeNull();
  });

  it('compares whole secrets', () => {
    expect(sameSecret('s3cret', 's3cret')).toBe(true);
    for (const other of ['s3cre', 's3cret2', 'S3CRET', '']) expect(sameSecret(other, 's3cret'), other).toBe(false);
  });

  it('hashes with SHA-256 (hex), never returning the token', () => {
    expect(tokenHash('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
