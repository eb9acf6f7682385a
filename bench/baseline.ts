// The same-run baseline for ingest throughput: read every line with the fastest reader we know
// (sync reads into a reused buffer, split on '\n') and JSON.parse it. Nothing stored.

import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readLines } from '../src/ingest/line-reader.js';

export function listJsonl(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) listJsonl(p, out);
    else if (entry.isFile() && entry.name.endsWith('.jsonl')) out.push(p);
  }
  return out;
}

export function bareParse(dir: string): { seconds: number; bytes: number; lines: number } {
  const files = listJsonl(dir);
  const started = process.hrtime.bigint();
  let lines = 0;
  let bytes = 0;
  for (const f of files) {
    bytes += statSync(f).size;
    for (const line of readLines(f)) {
      if (line.bytes.length === 0) continue;
      try {
        JSON.parse(line.bytes.toString('utf8'));
      } catch {
        /* counted like any other line */
      }
      lines++;
    }
  }
  return { seconds: Number(process.hrtime.bigint() - started) / 1e9, bytes, lines };
}
