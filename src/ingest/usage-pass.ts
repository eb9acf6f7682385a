// The usage pass: a store's usage_calls as a full ingest would leave them, computed in memory
// from the default locations without a store, parsing only the lines each format says can carry
// usage (Importer.usageLines). It is what lets the first `hindsight usage` on a machine answer in
// about the time ccusage takes, before the full ingest (19 s on 298 MB) has run.
//
// Exactness: the pass runs the format's own parser (usage-pass-file.ts) on the kept lines and its
// own summariser on the sessions (usage-pass-sessions.ts), so keys, dedup, mirrors and sessions
// follow the same rules as an ingest; the calls are then grouped as the store's usageCallGroups
// groups them. The files are read on both cores (usage-pass-split.ts). Where the pass cannot be
// sure it would give the same numbers, it says so and the caller ingests instead:
// a format without a usage pass, a call whose line has no usable timestamp (an ingest gives it the
// time of the line before, which the pass did not read), or one session found under two roots
// (an ingest keeps the second copy as evidence only).

import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { LlmCall } from '../core/events.js';
import type { Format } from '../core/model.js';
import { keyToParts } from '../core/time.js';
import type { Importer } from '../formats/importer.js';
import { loadDefaultRootFinders, loadImporter } from '../formats/registry.js';
import type { UsageCallGroupRow, UsageSessionRow } from '../store/store.js';
import { usageReader, type UsageReader } from './usage-pass-split.js';
import { rootUsage } from './usage-pass-sessions.js';

export interface UsagePassResult {
  /** Every session found, as the store's sessions table would list it. */
  sessions: UsageSessionRow[];
  /** Each session's chosen calls, one row per call. */
  calls: { sessionId: string; call: LlmCall }[];
  roots: { path: string; format: Format }[];
  files: number;
}

export type UsagePassOutcome = { ok: true; result: UsagePassResult } | { ok: false; reason: string };

const DAY_MS = 86_400_000;

/**
 * Run the usage pass over every format's default locations.
 *
 * @example const out = await usagePass(process.env); if (out.ok) groupUsageCalls(out.result.calls, 200_000)
 */
export async function usagePass(env: NodeJS.ProcessEnv = process.env, home: string = homedir()): Promise<UsagePassOutcome> {
  // The worker starts first: it loads while the formats are looked up and the files found.
  const reader = usageReader();
  try {
    // Roots first, from each format's small roots module: only the formats found here are loaded.
    const withRoots: { format: string; roots: string[] }[] = [];
    for (const { format, defaultRoots } of await loadDefaultRootFinders()) {
      const roots = await defaultRoots(env, home);
      if (roots.length === 0) continue;
      withRoots.push({ format, roots });
      reader.prepare(format);
    }
    const found: { importer: Importer; roots: string[] }[] = [];
    for (const { format, roots } of withRoots) {
      const importer = await loadImporter(format);
      if (!importer.usageLines) return { ok: false, reason: `${importer.format} has no usage pass` };
      found.push({ importer, roots });
    }
    return await readRoots(found, reader);
  } finally {
    reader.close();
  }
}

async function readRoots(found: { importer: Importer; roots: string[] }[], reader: UsageReader): Promise<UsagePassOutcome> {
  const sessions = new Map<string, UsageSessionRow>();
  const calls: { sessionId: string; call: LlmCall }[] = [];
  const roots: { path: string; format: Format }[] = [];
  let files = 0;
  for (const { importer, roots: paths } of found) {
    for (const root of paths) {
      let real: string;
      try {
        real = realpathSync(resolve(root));
      } catch {
        continue; // gone since defaultRoots looked: the ingest reports it
      }
      const sources = await importer.discover(real);
      const database = sources.find((f) => f.rows);
      if (database) return { ok: false, reason: `${database.relPath}: database rows are read by the ingest only` };
      const read = await reader.read(importer, sources);
      const untimed = read.find((u) => u.untimed !== null);
      if (untimed) return { ok: false, reason: `${untimed.untimed}: a call without a usable timestamp` };
      files += sources.length;
      roots.push({ path: real, format: importer.format });
      const got = rootUsage(importer, read);
      for (const s of got.sessions) {
        if (sessions.has(s.id)) return { ok: false, reason: `session ${s.id} is under two roots` };
        sessions.set(s.id, s);
      }
      calls.push(...got.calls);
    }
  }
  return { ok: true, result: { sessions: [...sessions.values()], calls, roots, files } };
}

/**
 * The calls grouped as Store.usageCallGroups groups the usage_calls table (store/core/usage-calls.ts):
 * per session, UTC day, model, long-context side and recorded-cost presence.
 */
export function groupUsageCalls(calls: readonly { sessionId: string; call: LlmCall }[], threshold: number): UsageCallGroupRow[] {
  const groups = new Map<string, UsageCallGroupRow>();
  for (const { sessionId, call: c } of calls) {
    const ms = c.tsKey === null ? null : keyToParts(c.tsKey)[0];
    // Integer division truncating toward zero, as both engines' SQL does.
    const day = ms === null ? null : Math.trunc(ms / DAY_MS);
    const long = c.input + c.cacheWrite + c.cacheRead > threshold;
    const hasCost = c.costUsd !== null;
    // Unambiguous without JSON: the id's length bounds it, the day and flags have fixed shapes, and
    // a model is tagged apart from none.
    const key = `${sessionId.length}:${sessionId}${day}|${long ? 1 : 0}${hasCost ? 1 : 0}${c.model === null ? '-' : `=${c.model}`}`;
    let g = groups.get(key);
    if (!g) {
      g = { sessionId, model: c.model, long, calls: 0, firstMs: null, lastMs: null, input: 0, output: 0, cacheWrite: 0, cacheWrite1h: 0, cacheRead: 0, reasoning: 0, recordedUsd: hasCost ? 0 : null };
      groups.set(key, g);
    }
    g.calls++;
    if (ms !== null) {
      if (g.firstMs === null || ms < g.firstMs) g.firstMs = ms;
      if (g.lastMs === null || ms > g.lastMs) g.lastMs = ms;
    }
    g.input += c.input;
    g.output += c.output;
    g.cacheWrite += c.cacheWrite;
    g.cacheWrite1h += c.cacheWrite1h;
    g.cacheRead += c.cacheRead;
    g.reasoning += c.reasoning ?? 0;
    if (hasCost) g.recordedUsd = g.recordedUsd! + c.costUsd!;
  }
  return [...groups.values()];
}
