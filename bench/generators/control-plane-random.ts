// Deterministic randomness for the Control Plane generator: a seeded 32-bit PRNG and collision-free
// hex ids (a bijective mix of a counter, so millions of entries never repeat an id).

/** mulberry32: small, fast, good enough for synthetic corpora; the same seed gives the same corpus. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = (seed ^ 0x5eed1e55) >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** Uniform float in [min, max). */
  float(min: number, max: number): number {
    return min + this.next() * (max - min);
  }
}

/** A bijection on 32-bit integers: distinct inputs give distinct outputs. */
function mix32(x: number): number {
  x = (x ^ (x >>> 16)) >>> 0;
  x = Math.imul(x, 0x7feb352d) >>> 0;
  x = (x ^ (x >>> 15)) >>> 0;
  x = Math.imul(x, 0x846ca68b) >>> 0;
  return (x ^ (x >>> 16)) >>> 0;
}

/** Unique 8-hex-digit ids from a counter, scrambled per seed and namespace. */
export class IdSource {
  private counter = 0;

  constructor(
    private readonly seed: number,
    private readonly upper: boolean,
  ) {}

  next(): string {
    const hex = mix32((Math.imul(this.seed, 0x9e3779b1) + this.counter++) >>> 0)
      .toString(16)
      .padStart(8, '0');
    return this.upper ? hex.toUpperCase() : hex;
  }
}
