// Orders a ledger's files (rotated segments and active file) by their hash chain rather than by
// name: the original writer and reader disagree about name order (formats.md), the chain does not.
//
// Only each file's first and last entries are read (a bounded read at each end), so this stays
// cheap on 256 MB segments.

import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** How far into each end of a file to look for a whole entry. */
const EDGE_BYTES = 2 * 1024 * 1024;

export interface FileEdges {
  /** previous_hash of the file's first entry (undefined when none was found). */
  firstPrevious?: string;
  /** entry_hash of the file's last complete entry. */
  lastHash?: string;
}

function parseEntry(line: string): Record<string, unknown> | null {
  if (!line.trim()) return null;
  try {
    const v: unknown = JSON.parse(line);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Read the chain edges of one ledger file; missing values mean "could not tell". */
export function readFileEdges(path: string): FileEdges {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return {}; // unreadable: the ingest itself will say so
  }
  try {
    const size = fstatSync(fd).size;
    const edges: FileEdges = {};
    const headLen = Math.min(size, EDGE_BYTES);
    const head = Buffer.alloc(headLen);
    readSync(fd, head, 0, headLen, 0);
    const headLines = head.toString('utf8').split('\n');
    if (headLen < size) headLines.pop(); // the last piece may be cut by the read window
    for (const line of headLines) {
      const e = parseEntry(line);
      if (e && typeof e.previous_hash === 'string') {
        edges.firstPrevious = e.previous_hash;
        break;
      }
    }
    const tailLen = Math.min(size, EDGE_BYTES);
    const tail = Buffer.alloc(tailLen);
    readSync(fd, tail, 0, tailLen, size - tailLen);
    const tailLines = tail.toString('utf8').split('\n');
    tailLines.pop(); // after the final newline: empty, or an incomplete line still being written
    if (tailLen < size) tailLines.shift(); // may be cut by the read window
    for (let i = tailLines.length - 1; i >= 0; i--) {
      const e = parseEntry(tailLines[i]!);
      if (e && typeof e.entry_hash === 'string') {
        edges.lastHash = e.entry_hash;
        break;
      }
    }
    return edges;
  } finally {
    closeSync(fd);
  }
}

/**
 * The chain order of `files` (given in name order), or null when the chain does not determine a
 * single order through all of them (a break, a missing edge): the caller then keeps name order
 * and the parsers report the breaks where they are.
 */
export function chainOrder<T>(files: readonly T[], edgesOf: (f: T) => FileEdges): T[] | null {
  if (files.length < 2) return [...files];
  const edges = files.map(edgesOf);
  if (edges.some((e) => e.firstPrevious === undefined || e.lastHash === undefined)) return null;
  const lastHashes = new Set(edges.map((e) => e.lastHash));
  // The start is the file whose first entry links to none of the others (an empty previous_hash
  // for the ledger's first segment, or a hash from a segment deleted by retention).
  const starts = edges.map((e, i) => (lastHashes.has(e.firstPrevious) ? -1 : i)).filter((i) => i >= 0);
  if (starts.length !== 1) return null;
  const order: number[] = [starts[0]!];
  const used = new Set(order);
  while (order.length < files.length) {
    const last = edges[order[order.length - 1]!]!.lastHash;
    const next = edges.findIndex((e, i) => !used.has(i) && e.firstPrevious === last);
    if (next === -1) return null;
    order.push(next);
    used.add(next);
  }
  return order.map((i) => files[i]!);
}
