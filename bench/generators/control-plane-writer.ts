// Appends entries to one generated ledger the way LedgerClient does: id, Python isoformat time,
// previous_hash → entry_hash chain, one JSON line each; rotates into named segments; streams to
// disk in bounded chunks so hundreds of megabytes never sit in memory.

import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { pyDumps, type PyValue } from './control-plane-pyjson.js';

const FLUSH_BYTES = 1024 * 1024;

export interface EntryBody {
  event_type: string;
  submission_id: string;
  decision: string;
  reason: string;
  prompts_used: string[];
  metadata: { [key: string]: PyValue | undefined };
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** Python `datetime.isoformat()` of a UTC time in microseconds (no fraction at a whole second). */
export function pyIsoformat(micros: number): string {
  const ms = Math.floor(micros / 1000);
  const d = new Date(ms);
  const base = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  const frac = micros % 1_000_000;
  return `${base}${frac === 0 ? '' : `.${pad(frac, 6)}`}+00:00`;
}

function segmentStamp(micros: number): string {
  return pyIsoformat(Math.floor(micros / 1e6) * 1e6).slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
}

export class LedgerWriter {
  private fd: number;
  private chunks: string[] = [];
  private pending = 0;
  private activeBytes = 0;
  private previousHash = '';
  private lastMicros = 0;
  private readonly segments: string[] = [];
  bytes = 0;
  entries = 0;

  constructor(
    private readonly dir: string,
    private readonly stem: string,
    private readonly rotateBytes: number | undefined,
  ) {
    mkdirSync(dir, { recursive: true });
    this.fd = openSync(this.activePath, 'w');
  }

  private get activePath(): string {
    return join(this.dir, `${this.stem}.jsonl`);
  }

  append(body: EntryBody, micros: number, id: string): void {
    const entry: { [key: string]: PyValue | undefined } = {
      ...body,
      id: `LED-${id}`,
      timestamp: pyIsoformat(micros),
      previous_hash: this.previousHash,
    };
    const hash = createHash('sha256').update(pyDumps(entry, true), 'utf8').digest('hex');
    entry.entry_hash = hash;
    const line = `${pyDumps(entry, false)}\n`;
    const size = Buffer.byteLength(line, 'utf8');
    this.chunks.push(line);
    this.pending += size;
    this.activeBytes += size;
    this.bytes += size;
    this.entries++;
    this.previousHash = hash;
    this.lastMicros = micros;
    if (this.pending >= FLUSH_BYTES) this.flush();
    if (this.rotateBytes !== undefined && this.activeBytes >= this.rotateBytes) this.rotate();
  }

  private flush(): void {
    if (this.chunks.length) writeSync(this.fd, this.chunks.join(''));
    this.chunks = [];
    this.pending = 0;
  }

  /** The active file becomes `<stem>-YYYYMMDD-HHMMSS.jsonl`; the chain continues in a new one. */
  private rotate(): void {
    this.flush();
    closeSync(this.fd);
    let micros = this.lastMicros;
    let target = join(this.dir, `${this.stem}-${segmentStamp(micros)}.jsonl`);
    while (existsSync(target)) {
      micros += 1e6;
      target = join(this.dir, `${this.stem}-${segmentStamp(micros)}.jsonl`);
    }
    renameSync(this.activePath, target);
    this.segments.push(target);
    this.fd = openSync(this.activePath, 'w');
    this.activeBytes = 0;
  }

  /** Flush and close; returns the files written (segments in order, then the active file). */
  close(): string[] {
    this.flush();
    closeSync(this.fd);
    return [...this.segments, this.activePath];
  }
}
