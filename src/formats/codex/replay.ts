// A forked or spawned session's rollout opens with the history it copied from its parent, usage
// included: Codex rewrites that history to the fork instant and writes it in one burst. Those
// calls were paid for by the parent, so they are not the child's.
//
// ccusage 20.0.24 first matches the child's leading calls against the parent's rollout; when it
// cannot, it skips the leading burst: if the rollout's first two token_counts are at most a second
// apart, every leading call until the first pause over a second is a replay. A parser sees one
// file, so only that second rule is applied here (the replays it finds are the ones the parent
// match finds whenever Codex rewrote the copy's times, which its fork code does).

import { closeSync, openSync, readSync } from 'node:fs';
import { asObj } from './json.js';

/** Longest pause inside a replayed burst (ccusage's figure: bursts span 10–40 ms, own turns follow 6–15 s later). */
export const BURST_PAUSE_MS = 1000;

/** Bytes read at a time while looking for the first two token_counts. */
const CHUNK = 1024 * 1024;
/** Never read more than this looking for them (a fork whose history has no usage). */
const MAX_SCAN = 64 * 1024 * 1024;

function usageTime(line: string): number | null {
  if (!line.includes('"token_count"')) return null;
  let obj: unknown;
  try {
    obj = JSON.parse(line);
  } catch {
    return null;
  }
  const o = asObj(obj);
  const payload = asObj(o?.payload);
  if (o?.type !== 'event_msg' || payload?.type !== 'token_count') return null;
  const info = asObj(payload.info);
  if (!info || (info.last_token_usage == null && info.total_token_usage == null)) return null;
  const ms = typeof o.timestamp === 'string' ? Date.parse(o.timestamp) : NaN;
  return Number.isFinite(ms) ? ms : null;
}

/**
 * The time (ms) the replayed burst of `path` starts at, or null when its first two token_counts
 * are not a burst (or it has fewer than two).
 */
export function rewrittenBurstStart(path: string): number | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return null;
  }
  try {
    const buf = Buffer.alloc(CHUNK);
    let carry = '';
    let offset = 0;
    const times: number[] = [];
    while (offset < MAX_SCAN) {
      const n = readSync(fd, buf, 0, CHUNK, offset);
      if (n === 0) break;
      offset += n;
      const text = carry + buf.subarray(0, n).toString('utf8');
      const lines = text.split('\n');
      carry = lines.pop() ?? '';
      for (const line of lines) {
        const t = usageTime(line);
        if (t === null) continue;
        times.push(t);
        if (times.length === 2) {
          const gap = times[1]! - times[0]!;
          return gap >= 0 && gap <= BURST_PAUSE_MS ? times[0]! : null;
        }
      }
    }
    return null;
  } finally {
    closeSync(fd);
  }
}
