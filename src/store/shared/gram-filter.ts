// A small summary of an evidence block's bytes, written at ingest beside the compressed block, so a
// search for a literal inflates only the blocks that may hold it (inflating every block costs
// ~4× ripgrep's whole search of the same bytes; most blocks cannot hold a rare id).
//
// What it is: a one-hash Bloom filter of the block's 4-byte grams, ASCII letters lowered first (so
// one filter serves case-sensitive searches and searches ignoring the case of ASCII letters).
// It never says "absent" for bytes the block holds: every 4 consecutive bytes of the literal are 4
// consecutive bytes of the block wherever the literal occurs, and each such gram's bit is set.
// It may say "present" for bytes the block lacks (shared bits): then the block is searched as before.
// Every gram is kept: keeping those at even offsets only was built in ~60% of the time (~1.3
// against ~2.1 ns per byte, on a loaded machine), but let 75 of 192 Control Plane blocks pass for
// a 12-character entry id (`LED-` and its first digits are in every block) where all grams let 10.
//
// Layout: one version byte (FILTER_VERSION), then the bit array, a power of two bytes long; gram g
// (its 4 bytes little-endian, the first lowest) sets bit (fibonacci(g) >>> (32 - log2(bits))). The
// array is built at a quarter of the block's size in bits (doubled while too full) and halved (bit
// pairs OR-ed together, which is the same filter at half the size) while it stays at most MAX_FILL
// full: the block's distinct grams, not its size, decide the size (a 512 KiB block of Claude Code
// JSONL: ~4–8 KiB; ~9% of the compressed bytes of Claude Code evidence, ~13% of Control Plane's,
// which compresses to 9%).

/** The first byte of every filter this module writes; a filter with another is ignored (searched as if absent). */
const FILTER_VERSION = 1;
/** The fullest a halved filter may be (more: too many blocks would pass for nothing). */
const MAX_FILL = 0.625;
/** The bit array's bounds, in bits (the largest: 128 KiB; a bigger block gets a fuller filter). */
const MIN_BITS = 64;
const MAX_BITS = 1 << 20;
/** Fibonacci hashing: the product's top bits are well mixed. */
const MULTIPLIER = 0x9e3779b1;

/** A byte with ASCII letters lowered. */
const lower = (c: number): number => (c - 65 >>> 0 < 26 ? c | 32 : c);

/**
 * Four bytes with their ASCII letters lowered at once (SWAR: a byte is an upper-case letter when
 * its low seven bits are at least 'A' and below 'Z' + 1 and its high bit is clear; 0x80 >>> 2 is
 * the case bit).
 */
const lowerWord = (x: number): number => {
  const low7 = x & 0x7f7f7f7f;
  return x | (((low7 + 0x3f3f3f3f) & ~(low7 + 0x25252525) & ~x & 0x80808080) >>> 2);
};

/** A gram's value: its 4 bytes, lowered, little-endian (the first byte lowest), as a word read from memory gives them. */
function gramAt(data: Uint8Array, p: number): number {
  return lower(data[p]!) | (lower(data[p + 1]!) << 8) | (lower(data[p + 2]!) << 16) | (lower(data[p + 3]!) << 24);
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * The bits of the block's grams at `bits` (a power of two) bits, for `data`. A word at a time:
 * the gram at 4k is word k, those at 4k + 1, 4k + 2 and 4k + 3 are word k shifted down with the
 * low bytes of word k + 1 (read as 32-bit words where the block is aligned on a little-endian
 * machine, as every block the evidence builder seals is).
 */
function fill(data: Uint8Array, bits: number): Uint8Array {
  const out = new Uint8Array(bits >>> 3);
  const shift = 32 - Math.log2(bits);
  const n = data.length;
  const words = n >>> 2;
  const view = LITTLE_ENDIAN && data.byteOffset % 4 === 0 ? new Uint32Array(data.buffer, data.byteOffset, words) : null;
  const dv = new DataView(data.buffer, data.byteOffset, n);
  let cur = words === 0 ? 0 : lowerWord(view ? view[0]! : dv.getUint32(0, true));
  for (let k = 0; k < words; k++) {
    let bit = Math.imul(cur, MULTIPLIER) >>> shift;
    out[bit >>> 3]! |= 1 << (bit & 7);
    if (k + 1 === words) break;
    const next = lowerWord(view ? view[k + 1]! : dv.getUint32(4 * (k + 1), true));
    bit = Math.imul((cur >>> 8) | (next << 24), MULTIPLIER) >>> shift;
    out[bit >>> 3]! |= 1 << (bit & 7);
    bit = Math.imul((cur >>> 16) | (next << 16), MULTIPLIER) >>> shift;
    out[bit >>> 3]! |= 1 << (bit & 7);
    bit = Math.imul((cur >>> 24) | (next << 8), MULTIPLIER) >>> shift;
    out[bit >>> 3]! |= 1 << (bit & 7);
    cur = next;
  }
  for (let p = words === 0 ? 0 : 4 * words - 3; p + 4 <= n; p++) {
    const bit = Math.imul(gramAt(data, p), MULTIPLIER) >>> shift;
    out[bit >>> 3]! |= 1 << (bit & 7);
  }
  return out;
}

/** Bits set in the array. */
function population(bytes: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    let v = bytes[i]!;
    v = v - ((v >>> 1) & 0x55);
    v = (v & 0x33) + ((v >>> 2) & 0x33);
    n += (v + (v >>> 4)) & 0x0f;
  }
  return n;
}

/** The same filter at half the bits: bit j is bit 2j or bit 2j + 1 (the index with one bit less of the hash). */
function halve(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length >>> 1);
  for (let j = 0; j < out.length; j++) {
    let x = bytes[2 * j]! | (bytes[2 * j + 1]! << 8);
    x = (x | (x >>> 1)) & 0x5555; // OR each pair into its even bit, then gather the even bits
    x = (x | (x >>> 1)) & 0x3333;
    x = (x | (x >>> 2)) & 0x0f0f;
    x = (x | (x >>> 4)) & 0x00ff;
    out[j] = x;
  }
  return out;
}

/**
 * The filter of a block's raw bytes (a one-line block of 100 bytes gets 17 bytes; a 512 KiB
 * block of Claude Code JSONL ~4–8 KiB).
 *
 * @example gramFilter(block) // Buffer [1, …bits]
 */
export function gramFilter(data: Uint8Array): Buffer {
  // A block has at most one distinct gram per byte, and a JSONL block of more than a few KB
  // fewer than one per eight: start at a quarter of its bytes (a small array stays in the
  // processor's first cache, which halved the build's time) and double only when that is too full.
  let bits = MIN_BITS;
  while (bits * 4 < data.length && bits < MAX_BITS) bits *= 2;
  let bytes = fill(data, bits);
  while (bits < data.length && bits < MAX_BITS && population(bytes) > MAX_FILL * bits) bytes = fill(data, (bits *= 2));
  while (bytes.length * 8 > MIN_BITS) {
    const half = halve(bytes);
    if (population(half) > MAX_FILL * half.length * 8) break;
    bytes = half;
  }
  const out = Buffer.allocUnsafeSlow(1 + bytes.length); // its own memory: it crosses threads (chunk-wire.ts) without the pool it would share
  out[0] = FILTER_VERSION;
  out.set(bytes, 1);
  return out;
}

/** A literal's grams as the filter hashes them (lowered as the block was), for mayHold. */
export interface GramProbe {
  grams: Uint32Array;
}

/**
 * The probe for bytes every match contains, or null when they are too short to rule any block
 * out (fewer than 4 bytes).
 *
 * @example gramProbe(Buffer.from('toolu_01ABC')) // 8 grams
 */
export function gramProbe(needle: Uint8Array): GramProbe | null {
  if (needle.length < 4) return null;
  const grams = new Uint32Array(needle.length - 3);
  for (let start = 0; start < grams.length; start++) grams[start] = gramAt(needle, start) >>> 0;
  return { grams };
}

/** False only when the block cannot hold the probe's bytes (anywhere, in any ASCII case). A missing or unknown filter says true. */
export function mayHold(filter: Uint8Array | null | undefined, probe: GramProbe): boolean {
  if (!filter || filter.length < 2 || filter[0] !== FILTER_VERSION) return true;
  const size = filter.length - 1;
  if ((size & (size - 1)) !== 0) return true; // not a layout this module writes
  const shift = 32 - Math.log2(size * 8);
  for (const gram of probe.grams) {
    const bit = Math.imul(gram, MULTIPLIER) >>> shift;
    if ((filter[1 + (bit >>> 3)]! & (1 << (bit & 7))) === 0) return false;
  }
  return true;
}
