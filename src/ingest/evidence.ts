// Builds evidence blocks: consecutive raw lines of a file, hashed one by one and deflated together.
// Blocks of ~64 KiB keep compression fast and small (performance-notes.md) while a single line
// can still be recovered by inflating only its block.

import { createHash } from 'node:crypto';
import { deflateRaw } from 'node:zlib';
import type { LineStatus } from './parse-file.js';
import type { EvidenceBlock, EvidenceLine } from '../store/store.js';

export const BLOCK_BYTES = 64 * 1024;
const COMPRESSION_LEVEL = 6;

/** First 16 bytes of the SHA-256 of a line's bytes. */
export function lineHash(bytes: Buffer): Buffer {
  return createHash('sha256').update(bytes).digest().subarray(0, 16);
}

/** Deflate on libuv's thread pool, so compression runs on the other core while this one parses. */
function deflateAsync(raw: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    deflateRaw(raw, { level: COMPRESSION_LEVEL, chunkSize: 256 * 1024 }, (err, out) => (err ? reject(err) : resolve(out))),
  );
}

export class EvidenceBuilder {
  private parts: Buffer[] = [];
  private partBytes = 0;
  private lines: EvidenceLine[] = [];
  private firstLine = 0;
  private firstOffset = 0;
  private done: Promise<EvidenceBlock>[] = [];
  /** Raw bytes taken since the last `take()`. */
  rawBytes = 0;

  /** Add one physical line; `bytes` is copied. Incomplete lines get a block of their own. */
  add(lineNumber: number, offset: number, bytes: Buffer, status: LineStatus): Buffer {
    if (status === 'incomplete') this.seal();
    if (this.lines.length === 0) {
      this.firstLine = lineNumber;
      this.firstOffset = offset;
    }
    const withNewline = status !== 'incomplete';
    const copy = Buffer.allocUnsafe(bytes.length + (withNewline ? 1 : 0));
    bytes.copy(copy, 0);
    if (withNewline) copy[bytes.length] = 10;
    this.parts.push(copy);
    this.partBytes += copy.length;
    this.rawBytes += copy.length;
    const hash = lineHash(bytes);
    this.lines.push({ lineNumber, offset, length: bytes.length, hash, status });
    if (this.partBytes >= BLOCK_BYTES || status === 'incomplete') this.seal();
    return hash;
  }

  /** Close the current block. */
  seal(): void {
    if (this.lines.length === 0) return;
    const raw = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.partBytes);
    const block = { firstLine: this.firstLine, firstOffset: this.firstOffset, rawBytes: raw.length, lines: this.lines };
    this.done.push(deflateAsync(raw).then((data) => ({ ...block, data })));
    this.parts = [];
    this.partBytes = 0;
    this.lines = [];
  }

  /** Seal and hand over every finished block, once compressed. */
  take(): Promise<EvidenceBlock[]> {
    this.seal();
    const out = this.done;
    this.done = [];
    this.rawBytes = 0;
    return Promise.all(out);
  }
}
