// Generates a realistic Control Plane plane root (HO2/HO1/HOT ledgers with valid hash chains,
// optional rotated segments) for benchmarks and the demo; deterministic from a seed, streamed to
// disk so corpora of hundreds of megabytes need little memory.

import { join } from 'node:path';
import { IdSource, Random } from './control-plane-random.js';
import { sessionSteps, type Ending, type LedgerName, type Step } from './control-plane-session.js';
import { LedgerWriter } from './control-plane-writer.js';

export interface GenerateControlPlaneOptions {
  /** Sessions to generate (the minimum when targetBytes is set). */
  sessions: number;
  seed: number;
  /** Keep starting sessions until this many bytes are written. */
  targetBytes?: number;
  /** Rotate a ledger's active file into a segment once it reaches this size. */
  rotateBytes?: number;
}

export interface GenerateControlPlaneResult {
  /** Absolute paths of the ledger files written (per ledger: segments in order, then active). */
  files: string[];
  bytes: number;
  entries: number;
  sessions: number;
}

const LEDGER_DIRS: Record<LedgerName, string[]> = {
  ho2m: ['HO2', 'ledger'],
  ho1m: ['HO1', 'ledger'],
  governance: ['HOT', 'ledger'],
};

/** 2026-02-13T22:00:00Z, in microseconds: a fixed epoch keeps output identical across runs. */
const EPOCH_MICROS = Date.UTC(2026, 1, 13, 22, 0, 0) * 1000;

function pickEnding(rng: Random): Ending {
  const r = rng.next();
  return r < 0.6 ? 'completed' : r < 0.75 ? 'errored' : r < 0.9 ? 'active' : 'cut';
}

/**
 * Write a plane root under `root` (created if needed).
 *
 * @example generateControlPlane('/tmp/plane', { sessions: 50, seed: 7, rotateBytes: 8 << 20 })
 */
export function generateControlPlane(root: string, opts: GenerateControlPlaneOptions): GenerateControlPlaneResult {
  const rng = new Random(opts.seed);
  const entryIds = new IdSource(opts.seed, false);
  const sessionIds = new IdSource(opts.seed ^ 0x51e55, true);
  const writers = new Map<LedgerName, LedgerWriter>(
    (Object.keys(LEDGER_DIRS) as LedgerName[]).map((name) => [name, new LedgerWriter(join(root, ...LEDGER_DIRS[name]), name, opts.rotateBytes)]),
  );
  const bytes = () => [...writers.values()].reduce((n, w) => n + w.bytes, 0);
  const wantMore = (started: number) => started < opts.sessions || (opts.targetBytes !== undefined && bytes() < opts.targetBytes);

  // Sessions overlap in time: each running session is a stream with its next entry pending, and
  // the earliest pending entry (or the next session's start) is written next, so every ledger
  // stays in time order, as the real writers' appends are.
  const running: { steps: Generator<Step>; next: Step }[] = [];
  let started = 0;
  let nextStart = EPOCH_MICROS;
  for (;;) {
    const canStart = wantMore(started);
    let earliest = -1;
    for (let i = 0; i < running.length; i++) {
      if (earliest === -1 || running[i]!.next.micros < running[earliest]!.next.micros) earliest = i;
    }
    if (canStart && (earliest === -1 || nextStart <= running[earliest]!.next.micros)) {
      // Some sessions start on a whole second: Python's isoformat() then omits the fraction.
      const startMicros = rng.chance(0.1) ? Math.ceil(nextStart / 1e6) * 1e6 : nextStart;
      const plan = { sessionId: `SES-${sessionIds.next()}`, startMicros, turns: rng.int(1, 6), ending: pickEnding(rng) };
      const steps = sessionSteps(rng, entryIds, plan);
      const first = steps.next();
      if (!first.done) running.push({ steps, next: first.value });
      started++;
      nextStart = startMicros + rng.int(60, 900) * 1e6;
      continue;
    }
    if (earliest === -1) break;
    const stream = running[earliest]!;
    writers.get(stream.next.ledger)!.append(stream.next.body, stream.next.micros, stream.next.id);
    const n = stream.steps.next();
    if (n.done) running.splice(earliest, 1);
    else stream.next = n.value;
  }

  const files: string[] = [];
  let entries = 0;
  for (const w of writers.values()) {
    files.push(...w.close());
    entries += w.entries;
  }
  return { files, bytes: bytes(), entries, sessions: started };
}
