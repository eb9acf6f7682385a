// Buffers for the blocks grep hands to its search workers (read from source files, or copies of
// evidence blocks), reused once a worker hands them back: a fresh buffer per block made every
// search of a few hundred MB allocate that much outside the heap, which V8 answers with full
// garbage collections (~0.2 s per 300 MB read), and buffers that come back from a worker are not
// counted as this thread's memory at all. Sizes are powers of two, so a buffer fits any block up
// to its size; at most SPARE_BYTES wait here.

/** The smallest buffer handed out (files are often a few KB; tiny buffers are not worth keeping). */
const MIN_SIZE = 64 * 1024;
const SPARE_BYTES = 48 * 1024 * 1024;

const spare = new Map<number, ArrayBuffer[]>();
let spareBytes = 0;

function sizeClass(bytes: number): number {
  let size = MIN_SIZE;
  while (size < bytes) size *= 2;
  return size;
}

/** A buffer of at least `bytes` bytes, its own (never Buffer's shared pool), contents undefined. */
export function takeBlockBuffer(bytes: number): Buffer {
  const size = sizeClass(bytes);
  const kept = spare.get(size)?.pop();
  if (kept) {
    spareBytes -= size;
    return Buffer.from(kept, 0, bytes);
  }
  return Buffer.from(Buffer.allocUnsafeSlow(size).buffer, 0, bytes);
}

/** Give back a buffer takeBlockBuffer made (any view of it), once nothing reads it any more. */
export function recycleBlockBuffer(view: Uint8Array): void {
  const buffer = view.buffer as ArrayBuffer;
  const size = buffer.byteLength;
  if (size !== sizeClass(size) || spareBytes + size > SPARE_BYTES) return; // not one of ours, or enough kept
  const list = spare.get(size) ?? [];
  list.push(buffer);
  spare.set(size, list);
  spareBytes += size;
}
