// Recovers what a ledger entry too large to parse whole still tells: its type and session from
// the head the pipeline hands over, its id, time, chain hashes and tokens from the line's tail.
//
// The writer puts `id`, `timestamp`, `previous_hash` and `entry_hash` after `metadata`, so they
// sit at the very end of the line; reading a few KB there keeps the chain linked across the line
// without loading tens of megabytes.

import { closeSync, openSync, readSync } from 'node:fs';
import type { LineContext } from '../importer.js';

const TAIL_BYTES = 4096;

function lastMatch(text: string, key: string): string | undefined {
  const re = new RegExp(`"${key}": ?"([^"\\\\]*)"`, 'g');
  let found: string | undefined;
  for (const m of text.matchAll(re)) found = m[1];
  return found;
}

function firstMatch(text: string, key: string): string | undefined {
  return new RegExp(`"${key}": ?"([^"\\\\]*)"`).exec(text)?.[1];
}

function lastNumber(text: string, key: string): number | undefined {
  let found: number | undefined;
  for (const m of text.matchAll(new RegExp(`"${key}": ?(\\d+)`, 'g'))) found = Number(m[1]);
  return found;
}

function readTail(path: string, offset: number, length: number): string {
  const n = Math.min(TAIL_BYTES, length);
  const buf = Buffer.alloc(n);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, buf, 0, n, offset + length - n);
  } finally {
    closeSync(fd);
  }
  // The first bytes may split a UTF-8 sequence; only ASCII keys and hex values are read here.
  return buf.toString('utf8');
}

/**
 * A stand-in entry for an oversized line: the fields needed for attribution, order and chain,
 * or null when the head does not look like a ledger entry.
 */
export function hugeLineEntry(head: string, ctx: LineContext): Record<string, unknown> | null {
  const eventType = firstMatch(head, 'event_type');
  if (!eventType) return null;
  const tail = readTail(ctx.file.path, ctx.byteOffset, ctx.byteLength);
  const metadata: Record<string, unknown> = {};
  for (const key of ['session_id', 'scope_session_id', 'work_order_id', 'scope_work_order_id', 'wo_id', 'model_id']) {
    const v = firstMatch(head, key) ?? (key === 'model_id' ? lastMatch(tail, key) : undefined);
    if (v !== undefined) metadata[key] = v;
  }
  // Token counts follow the prompt and response in an EXCHANGE, so they are usually in the tail.
  for (const key of ['input_tokens', 'output_tokens']) {
    const v = lastNumber(tail, key);
    if (v !== undefined) metadata[key] = v;
  }
  const entry: Record<string, unknown> = {
    event_type: eventType,
    submission_id: firstMatch(head, 'submission_id') ?? '',
    decision: firstMatch(head, 'decision') ?? '',
    reason: firstMatch(head, 'reason') ?? '',
    metadata,
  };
  const id = lastMatch(tail, 'id');
  if (id !== undefined) entry.id = id;
  const timestamp = lastMatch(tail, 'timestamp');
  if (timestamp !== undefined) entry.timestamp = timestamp;
  const previous = lastMatch(tail, 'previous_hash');
  if (previous !== undefined) entry.previous_hash = previous;
  const hash = lastMatch(tail, 'entry_hash');
  if (hash !== undefined) entry.entry_hash = hash;
  return entry;
}
