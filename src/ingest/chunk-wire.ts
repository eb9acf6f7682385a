// A parse job and its chunks as they cross between the writer's thread and a parse worker
// (parse-workers.ts). Structured clone keeps plain objects but not classes or Buffers: a job's
// duplicate window travels as its entries, and a block's lines as their packed index (one Buffer
// per block, not one object and one hash Buffer per line), rebuilt on the writer's side.

import type { EvidenceBlock } from '../store/store.js';
import { packLines, unpackLines } from '../store/sqlite/line-index.js';
import type { ChunkResult, ParseJob } from './chunk-parser.js';
import { DuplicateWindow } from './duplicate-lines.js';

export interface WireJob extends Omit<ParseJob, 'duplicates'> {
  duplicates?: [string, number][];
  /** The bytes of a source made in memory (held-bytes.ts): the worker cannot see the writer's. */
  held?: Uint8Array;
}

interface WireBlock {
  firstLine: number;
  firstOffset: number;
  rawBytes: number;
  data: Uint8Array;
  lineIndex: Uint8Array;
  gramFilter?: Uint8Array;
}

export interface WireChunk extends Omit<ChunkResult, 'blocks'> {
  blocks: WireBlock[];
}

export function jobToWire(job: ParseJob, held: Buffer | undefined): WireJob {
  const { duplicates, ...rest } = job;
  return { ...rest, duplicates: duplicates?.entries(), held };
}

export function jobFromWire(wire: WireJob): ParseJob {
  const { duplicates, held: _held, ...rest } = wire;
  return { ...rest, duplicates: duplicates ? new DuplicateWindow(duplicates) : undefined };
}

export function chunkToWire(chunk: ChunkResult): WireChunk {
  return {
    ...chunk,
    blocks: chunk.blocks.map((b) => ({ firstLine: b.firstLine, firstOffset: b.firstOffset, rawBytes: b.rawBytes, data: b.data, lineIndex: packLines(b.lines), gramFilter: b.gramFilter })),
  };
}

const asBuffer = (u: Uint8Array): Buffer => Buffer.from(u.buffer, u.byteOffset, u.byteLength);

export function chunkFromWire(wire: WireChunk): ChunkResult {
  const blocks: EvidenceBlock[] = wire.blocks.map((b) => ({
    firstLine: b.firstLine,
    firstOffset: b.firstOffset,
    rawBytes: b.rawBytes,
    data: asBuffer(b.data),
    lines: unpackLines(asBuffer(b.lineIndex), b.firstLine, b.firstOffset),
    ...(b.gramFilter && { gramFilter: asBuffer(b.gramFilter) }),
  }));
  return { ...wire, blocks };
}

/** The ArrayBuffers a chunk can hand over instead of copying (each block's own). */
export function transferList(wire: WireChunk): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  for (const b of wire.blocks) {
    // Only buffers a block owns whole: a view into Node's shared pool must be copied, not moved.
    if (b.data.byteLength === b.data.buffer.byteLength) out.add(b.data.buffer as ArrayBuffer);
    if (b.lineIndex.byteLength === b.lineIndex.buffer.byteLength) out.add(b.lineIndex.buffer as ArrayBuffer);
  }
  return [...out];
}
