// A line's evidence hash: the first 16 bytes of the SHA-256 of its bytes (without the newline).
// Stored for every line at ingest (the block's line index); compared again wherever a source is
// checked against its evidence without inflating it (a resumed or copied file at ingest, grep's
// live lines). Its own module so a reader loads no compressor with it.

import * as crypto from 'node:crypto';
import { createHash } from 'node:crypto';

/** The one-shot crypto.hash (Node >= 20.12) skips the Hash object per line. */
const oneShot = (crypto as unknown as { hash?: (alg: string, data: Buffer, enc: 'buffer') => Buffer }).hash;

/** First 16 bytes of the SHA-256 of a line's bytes. */
export function lineHash(bytes: Buffer): Buffer {
  return oneShot ? oneShot('sha256', bytes, 'buffer').subarray(0, 16) : createHash('sha256').update(bytes).digest().subarray(0, 16);
}
