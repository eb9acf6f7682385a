// Packing a block's per-line evidence (length, status, hash) into one BLOB beside the block's
// compressed bytes. Lines of a block are consecutive in the file, so offsets follow from the
// lengths; one row per block instead of one per line keeps ingest fast and the store small.

import type { EvidenceLine } from '../store.js';

const ENTRY_BYTES = 4 + 1 + 16;
const STATUS_CODE = { ok: 0, blank: 1, bad: 2, incomplete: 3 } as const;
const STATUS_NAME = ['ok', 'blank', 'bad', 'incomplete'] as const;

export function packLines(lines: EvidenceLine[]): Buffer {
  const buf = Buffer.allocUnsafe(lines.length * ENTRY_BYTES);
  lines.forEach((l, i) => {
    const at = i * ENTRY_BYTES;
    buf.writeUInt32LE(l.length, at);
    buf[at + 4] = STATUS_CODE[l.status];
    buf.set(l.hash.subarray(0, 16), at + 5);
  });
  return buf;
}

export function unpackLines(buf: Buffer, firstLine: number, firstOffset: number): EvidenceLine[] {
  const out: EvidenceLine[] = [];
  let offset = firstOffset;
  for (let at = 0, i = 0; at + ENTRY_BYTES <= buf.length; at += ENTRY_BYTES, i++) {
    const length = buf.readUInt32LE(at);
    const status = STATUS_NAME[buf[at + 4]!] ?? 'ok';
    out.push({ lineNumber: firstLine + i, offset, length, status, hash: buf.subarray(at + 5, at + 21) });
    offset += length + (status === 'incomplete' ? 0 : 1);
  }
  return out;
}

/**
 * The lines' places in their block (start from the block's first byte), without their hashes: what
 * a scan of the evidence needs. Read straight from the packed entries, no hash view per line (on a
 * 59 MB ledger's 31,000 lines, those views were a quarter of the scan's main-thread CPU).
 */
export function unpackLineBounds(buf: Buffer, firstLine: number): { lineNumber: number; start: number; length: number; status: EvidenceLine['status'] }[] {
  const out: { lineNumber: number; start: number; length: number; status: EvidenceLine['status'] }[] = [];
  let start = 0;
  for (let at = 0, i = 0; at + ENTRY_BYTES <= buf.length; at += ENTRY_BYTES, i++) {
    const length = buf.readUInt32LE(at);
    const status = STATUS_NAME[buf[at + 4]!] ?? 'ok';
    out.push({ lineNumber: firstLine + i, start, length, status });
    start += length + (status === 'incomplete' ? 0 : 1);
  }
  return out;
}

/** The length and hash of the block's k-th line (0-based), read from its packed entry alone; null past the block's last line. */
export function lineEntryAt(buf: Buffer, k: number): { length: number; hash: Buffer } | null {
  const at = k * ENTRY_BYTES;
  if (k < 0 || at + ENTRY_BYTES > buf.length) return null;
  return { length: buf.readUInt32LE(at), hash: buf.subarray(at + 5, at + 21) };
}
