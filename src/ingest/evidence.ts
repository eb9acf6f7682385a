// Builds evidence blocks: consecutive raw lines of a file, hashed one by one and compressed
// together. Measured on Claude Code–shaped JSONL: brotli quality 4 keeps 16% of the bytes on
// 256 KiB blocks and 15% on 512 KiB at ~95 MB/s, where deflate level 6 on 64 KiB keeps 19% at
// ~65 MB/s; a single line is still recovered by decompressing only its block (~1.3 ms).
// Quality 3 (issue 17): on 512 KiB blocks of the generated corpora it kept 15.6% (Claude Code) and
// 7.6% (Control Plane) against quality 4's 15.2% and 7.1%, for half the CPU — on two cores the
// compressor competes with the parser and the writer for the same time.

import { brotliCompress, brotliCompressSync, constants } from 'node:zlib';
import type { LineStatus } from './parse-file.js';
import type { EvidenceBlock, EvidenceLine } from '../store/store.js';
import { gramFilter } from '../store/shared/gram-filter.js';
import { lineHash } from '../core/line-hash.js';

export const BLOCK_BYTES = 512 * 1024;
const BROTLI_QUALITY = 3;

/**
 * The compressor's options for a block of `size` bytes expected to compress to about `expected`
 * (exported for bench/ingest-floor.ts, which times the same work).
 */
export const BROTLI_OPTIONS = (size: number, expected = size >> 2) => ({
  // Room for the whole compressed block in one output buffer: the default 16 KiB took the block
  // through the thread pool 5–6 times, each a wake-up of a pool thread and a callback here (~10%
  // of the compressor's CPU in a microbenchmark). No more room than that: the compressed block is
  // a view of this buffer, so the whole buffer lives as long as the block does (see outputBytes).
  chunkSize: Math.max(16 * 1024, Math.min(size + 1024, expected)),
  params: {
    [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
    [constants.BROTLI_PARAM_SIZE_HINT]: size,
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    // A window just above the block size: the default 4 MiB window costs each of the pool's
    // encoders memory for matches that a 512 KiB block can never use.
    [constants.BROTLI_PARAM_LGWIN]: 20,
  },
});

/**
 * Blocks up to this size are compressed on the calling thread. A trip through the thread pool
 * costs this thread ~55–85 µs per block whatever its size (a stream, its buffers, the callback)
 * and the process ~130 µs more than compressing in place (the pool thread's wake-up and hand-back);
 * compressing in place costs ~55–70 µs up to 4 KiB and grows with the size from there
 * (microbenchmark on OpenCode's row sources, half of which are single blocks under 2.3 KiB).
 * Same encoder, same parameters: the same bytes either way.
 */
export const IN_PLACE_BYTES = 4 * 1024;

/**
 * Blocks compressed at once on the pool, at most. Each compression allocates its encoder's few MB
 * on the pool thread that runs it, and glibc keeps a heap (arena) per thread: with all four of
 * libuv's threads compressing, a 1.2 GB Control Plane ingest peaked at 312–349 MB RSS, with two at
 * 283–299 MB (UV_THREADPOOL_SIZE=2, same wall time: the writer's thread, not the compressor, sets
 * the pace). A process cannot shrink its pool once started, so the ingest keeps two blocks in
 * flight instead.
 */
export const COMPRESSING_AT_ONCE = 2;

/**
 * The last large block's compressed size ÷ its size. Blocks of one input compress alike (7–9% on
 * Control Plane ledgers, 15–16% on Claude Code transcripts), so the next block's output buffer is
 * sized from it with a quarter to spare, instead of a quarter of the block whatever the input: a
 * Control Plane block held 144 KiB for its ~37 KiB until collected, some 64 MB of such buffers
 * between collections on a large root. A block that needs more gets a second buffer (one more
 * trip through the pool).
 */
let lastRatio = 0.25;

/** Output room for a block of `size` bytes. */
const outputBytes = (size: number): number => Math.ceil(size * lastRatio * 1.25) + 1024;
let compressing = 0;
const waiting: (() => void)[] = [];

/**
 * Compress one block: a small one at once, a larger one on libuv's thread pool, where it starts as
 * soon as the block is sealed (or a slot frees) and runs while parsing goes on, so compression
 * fills whatever core the parser and the writer leave idle.
 */
export function compressBlock(raw: Buffer): Promise<Buffer> {
  if (raw.length <= IN_PLACE_BYTES) {
    try {
      return Promise.resolve(brotliCompressSync(raw, BROTLI_OPTIONS(raw.length)));
    } catch (err) {
      return Promise.reject(err as Error);
    }
  }
  return new Promise((resolve, reject) => {
    const done = () => {
      compressing--;
      waiting.shift()?.();
    };
    const start = () => {
      compressing++;
      try {
        brotliCompress(raw, BROTLI_OPTIONS(raw.length, outputBytes(raw.length)), (err, out) => {
          done();
          if (err) reject(err);
          else {
            lastRatio = out.length / raw.length;
            resolve(out);
          }
        });
      } catch (err) {
        // Thrown before the pool took the block: its slot is free again, or no block would start after it.
        done();
        reject(err as Error);
      }
    };
    if (compressing < COMPRESSING_AT_ONCE) start();
    else waiting.push(start);
  });
}

/** The buffer a block of a large input is built in: a full block and room for the line that ends it. */
const BLOCK_BUFFER_BYTES = BLOCK_BYTES + 64 * 1024;
/**
 * Block buffers whose compression has finished, kept for the blocks after them instead of one
 * new 576 KiB allocation per block (glibc serves them from its main heap once the first is freed):
 * on a 2.4 GB Control Plane root the ingest's system CPU went from 5.2–6.3 s to 4.3 s. More than
 * the blocks in flight need: the writer may be a few blocks behind the parser.
 */
const SPARE_BUFFERS = 8;
const spareBuffers: Buffer[] = [];

function blockBuffer(size: number): Buffer {
  return (size === BLOCK_BUFFER_BYTES && spareBuffers.pop()) || Buffer.allocUnsafeSlow(size);
}

/** Keep a block's buffer for a later block, once nothing reads it any more. */
function recycle(buf: Buffer): void {
  if (buf.length === BLOCK_BUFFER_BYTES && spareBuffers.length < SPARE_BUFFERS) spareBuffers.push(buf);
}

export class EvidenceBuilder {
  /**
   * The open block's bytes, copied straight in: one buffer per block rather than one per line
   * and a concatenation at the end (fewer allocations, less garbage on the parser's thread).
   */
  private buf: Buffer | null = null;
  private used = 0;
  private lines: EvidenceLine[] = [];
  private firstLine = 0;
  private firstOffset = 0;
  private done: Promise<EvidenceBlock>[] = [];

  /** `expectedBytes`: how much input is left to add, when known (sizes the first block's buffer). */
  constructor(private expectedBytes = Number.POSITIVE_INFINITY) {}

  /** Add one physical line; `bytes` is copied. Incomplete lines get a block of their own. */
  add(lineNumber: number, offset: number, bytes: Buffer, status: LineStatus): Buffer {
    if (status === 'incomplete') this.seal();
    if (this.lines.length === 0) {
      this.firstLine = lineNumber;
      this.firstOffset = offset;
    }
    const withNewline = status !== 'incomplete';
    this.reserve(bytes.length + 1);
    const buf = this.buf!;
    bytes.copy(buf, this.used);
    this.used += bytes.length;
    if (withNewline) buf[this.used++] = 10;
    const hash = lineHash(bytes);
    this.lines.push({ lineNumber, offset, length: bytes.length, hash, status });
    if (this.used >= BLOCK_BYTES || status === 'incomplete') this.seal();
    return hash;
  }

  /** Room for `n` more bytes in the open block (a block holds whole lines, so one long line grows it). */
  private reserve(n: number): void {
    const need = this.used + n;
    if (this.buf && need <= this.buf.length) return;
    // A block closes once it reaches BLOCK_BYTES, so it rarely needs more than that plus one line;
    // a small file's block needs no more than the file.
    const size = this.used === 0 ? Math.max(need, Math.min(BLOCK_BUFFER_BYTES, Math.max(0, this.expectedBytes))) : need;
    const grown = blockBuffer(size);
    if (this.buf && this.used > 0) this.buf.copy(grown, 0, 0, this.used);
    if (this.buf) recycle(this.buf);
    this.buf = grown;
  }

  /** Close the current block. */
  seal(): void {
    if (this.lines.length === 0) return;
    const raw = this.buf!.subarray(0, this.used);
    // The filter (grep's block skipping) is built here, while the bytes are in the cache, beside their compression.
    const block = { firstLine: this.firstLine, firstOffset: this.firstOffset, rawBytes: raw.length, lines: this.lines, gramFilter: gramFilter(raw) };
    const buf = this.buf!;
    this.done.push(
      compressBlock(raw).then(
        (data) => {
          recycle(buf); // compressed: nothing reads the raw bytes any more
          return { ...block, data };
        },
        (err: unknown) => {
          recycle(buf);
          throw err;
        },
      ),
    );
    // The sealed bytes are being compressed: the next block gets a buffer of its own.
    this.expectedBytes -= this.used;
    this.buf = null;
    this.used = 0;
    this.lines = [];
  }

  /** Seal and hand over every finished block, once compressed. */
  take(): Promise<EvidenceBlock[]> {
    this.seal();
    const out = this.done;
    this.done = [];
    return Promise.all(out);
  }
}
