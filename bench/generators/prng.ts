// Seeded PRNG, sampling helpers and the chunked JSONL writer shared by the corpus generators.
// Everything derives from one seed, so a corpus is reproducible byte for byte (no clock, no I/O order).

import { closeSync, openSync, writeFileSync, writeSync } from 'node:fs';

const B62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const HEX = '0123456789abcdef';

/** sfc32: tiny, fast and good enough for filler data; seeded through splitmix32 so nearby seeds diverge. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    let s = seed >>> 0;
    const mix = (): number => {
      s = (s + 0x9e3779b9) | 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = mix();
    this.b = mix();
    this.c = mix();
    this.d = mix();
    for (let i = 0; i < 12; i++) this.u32();
  }

  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.u32() / 4294967296;
  }

  /** Uniform integer in [lo, hi], both inclusive. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** Pick by relative weight: [[value, weight], …]. */
  weighted<T>(items: readonly (readonly [T, number])[]): T {
    let total = 0;
    for (const [, w] of items) total += w;
    let r = this.next() * total;
    for (const [v, w] of items) {
      r -= w;
      if (r < 0) return v;
    }
    return (items[items.length - 1] as readonly [T, number])[0];
  }

  /** Standard normal via Box-Muller (no cached spare, so the stream stays simple to reason about). */
  normal(): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /**
   * Lognormal integer with the given median and spread, clamped to [min, max]. Real line and payload
   * sizes are heavy-tailed (p50 0.65 KB, p99 24 KB), which a lognormal reproduces with two numbers.
   */
  size(median: number, sigma: number, min: number, max: number): number {
    const x = Math.round(median * Math.exp(sigma * this.normal()));
    return x < min ? min : x > max ? max : x;
  }

  hex(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += HEX[this.u32() & 15];
    return s;
  }

  base62(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += B62[this.u32() % 62];
    return s;
  }

  /** RFC 4122 version-4 shaped id (the shape both agents use for session and message ids). */
  uuid(): string {
    const h = this.hex(32);
    const variant = HEX[8 + (this.u32() & 3)] as string;
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20)}`;
  }
}

/** Writes JSONL through a ~1 MB string buffer: one writeSync per chunk keeps syscalls rare and memory flat. */
export class ChunkedWriter {
  private readonly fd: number;
  private parts: string[] = [];
  private chars = 0;
  bytes = 0;
  lines = 0;

  /** `stats` (when given) receives this file's counts on close. */
  constructor(
    path: string,
    private readonly stats?: GenStats,
    private readonly flushChars = 1 << 20,
  ) {
    this.fd = openSync(path, 'w');
  }

  /** Appends one already-serialised line; adds the newline so every file ends with one. */
  line(json: string): void {
    const s = json + '\n';
    this.parts.push(s);
    this.chars += s.length;
    this.bytes += Buffer.byteLength(s, 'utf8');
    this.lines++;
    if (this.chars >= this.flushChars) this.flush();
  }

  private flush(): void {
    if (this.parts.length === 0) return;
    writeSync(this.fd, this.parts.join(''));
    this.parts = [];
    this.chars = 0;
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
    if (this.stats) {
      this.stats.files++;
      this.stats.bytes += this.bytes;
      this.stats.lines += this.lines;
    }
  }
}

/** Writes a small whole file (metadata) and counts it. */
export function writeCounted(path: string, text: string, stats: GenStats): void {
  writeFileSync(path, text);
  stats.files++;
  stats.bytes += Buffer.byteLength(text);
}

/** Counters every generator returns. */
export interface GenStats {
  files: number;
  bytes: number;
  lines: number;
  sessions: number;
  subagents: number;
}

/** A simulated clock: starts at a seed-derived instant and only moves forward. */
export class Clock {
  constructor(public ms: number) {}
  tick(lo: number, hi: number, rng: Rng): number {
    this.ms += rng.int(lo, hi);
    return this.ms;
  }
  iso(): string {
    return new Date(this.ms).toISOString();
  }
}
