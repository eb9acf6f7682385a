// The usage pass: a store's usage_calls as a full ingest would leave them, computed in memory
// from the default locations without a store, parsing only the lines each format says can carry
// usage (Importer.usageLines). It is what lets the first `hindsight usage` on a machine answer in
// about the time ccusage takes, before the full ingest (19 s on 298 MB) has run.
//
// Exactness: the pass runs the format's own parser (usage-pass-file.ts) on the kept lines and its
// own summariser on the sessions (usage-pass-sessions.ts), so keys, dedup, mirrors and sessions
// follow the same rules as an ingest; the calls are then grouped as the store's usageCallGroups
// groups them (usage-pass-groups.ts). The files are read on both cores (usage-pass-split.ts); where
// the format cuts a root into session groups (Importer.usageGroups), each group is summarised on the
// thread that read it, and the cut is checked: a session in two groups, or a parent in another
// group than its child, and the root is put together whole instead. Where the pass cannot be
// sure it would give the same numbers, it says so and the caller ingests instead:
// a format without a usage pass, a call whose line has no usable timestamp (an ingest gives it the
// time of the line before, which the pass did not read), or one session found under two roots
// (an ingest keeps the second copy as evidence only).

import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { Format } from '../core/model.js';
import type { Importer, SourceFile } from '../formats/importer.js';
import { loadDefaultRootFinders, loadImporter } from '../formats/registry.js';
import type { UsageCallGroupRow, UsageSessionRow } from '../store/store.js';
import { groupUsageCalls } from './usage-pass-groups.js';
import { usageReader, type UsageReader } from './usage-pass-split.js';
import { rootUsage } from './usage-pass-sessions.js';
import type { UnitSummary } from './usage-pass-unit.js';

export interface UsagePassResult {
  /** Every session found, as the store's sessions table would list it. */
  sessions: UsageSessionRow[];
  /** The sessions' chosen calls grouped as Store.usageCallGroups(threshold) groups them. */
  groups: UsageCallGroupRow[];
  roots: { path: string; format: Format }[];
  files: number;
}

export type UsagePassOutcome = { ok: true; result: UsagePassResult } | { ok: false; reason: string };

type RootOutcome = { ok: true; sessions: UsageSessionRow[]; groups: UsageCallGroupRow[] } | { ok: false; reason: string };

/**
 * Run the usage pass over every format's default locations, calls grouped with the long-context
 * `threshold` (the one usage reports ask the store's groups for: LONG_CONTEXT_THRESHOLD).
 *
 * @example const out = await usagePass(LONG_CONTEXT_THRESHOLD, process.env); if (out.ok) out.result.groups
 */
export async function usagePass(threshold: number, env: NodeJS.ProcessEnv = process.env, home: string = homedir()): Promise<UsagePassOutcome> {
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
    return await readRoots(found, reader, threshold);
  } finally {
    reader.close();
  }
}

async function readRoots(found: { importer: Importer; roots: string[] }[], reader: UsageReader, threshold: number): Promise<UsagePassOutcome> {
  const sessions = new Map<string, UsageSessionRow>();
  const groups: UsageCallGroupRow[] = [];
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
      const got = await rootSummary(importer, sources, reader, threshold);
      if (!got.ok) return got;
      files += sources.length;
      roots.push({ path: real, format: importer.format });
      for (const s of got.sessions) {
        if (sessions.has(s.id)) return { ok: false, reason: `session ${s.id} is under two roots` };
        sessions.set(s.id, s);
      }
      groups.push(...got.groups);
    }
  }
  return { ok: true, result: { sessions: [...sessions.values()], groups, roots, files } };
}

const untimedReason = (where: string) => `${where}: a call without a usable timestamp`;

/**
 * One root's sessions and calls grouped with `threshold`: group by group where the format cuts
 * the root, else whole.
 *
 * @example const got = await rootSummary(claudeCode, await claudeCode.discover(root), reader, 200_000)
 */
export async function rootSummary(importer: Importer, files: readonly SourceFile[], reader: UsageReader, threshold: number): Promise<RootOutcome> {
  const keys = importer.usageGroups?.(files) ?? null;
  if (keys && chainsWithinGroups(files, keys)) {
    const units = await reader.summarize(importer, files, keys, threshold);
    const untimed = units.find((u) => u.untimed !== null);
    if (untimed) return { ok: false, reason: untimedReason(untimed.untimed!) };
    if (selfContained(units)) return { ok: true, sessions: units.flatMap((u) => u.sessions), groups: units.flatMap((u) => u.groups) };
    // The cut did not hold (a session's records in two groups): read whole, below.
  }
  const read = await reader.read(importer, files);
  const untimed = read.find((u) => u.untimed !== null);
  if (untimed) return { ok: false, reason: untimedReason(untimed.untimed!) };
  const got = rootUsage(importer, read);
  return { ok: true, sessions: got.sessions, groups: groupUsageCalls(got.calls, threshold) };
}

/** Every chain group's files under one session group key (its parser state passes from file to file). */
function chainsWithinGroups(files: readonly SourceFile[], keys: readonly string[]): boolean {
  const keyOfChain = new Map<string, string>();
  return files.every((f, i) => {
    if (!f.chainGroup) return true;
    const known = keyOfChain.get(f.chainGroup);
    keyOfChain.set(f.chainGroup, keys[i]!);
    return known === undefined || known === keys[i];
  });
}

/**
 * Whether each group's summary is what the whole root's would give its sessions: no session is
 * named in two groups (its events and facts would be split) and no parent is in another group than
 * its child (the parent would not learn which calls the child records first-hand).
 */
function selfContained(units: readonly UnitSummary[]): boolean {
  const unitOf = new Map<string, number>();
  for (const [k, u] of units.entries()) {
    for (const s of u.sessions) {
      if (unitOf.has(s.id)) return false;
      unitOf.set(s.id, k);
    }
  }
  return units.every((u, k) => u.sessions.every((s) => s.parentId === null || (unitOf.get(s.parentId) ?? k) === k));
}
