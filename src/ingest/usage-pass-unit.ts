// One session group of a root (Importer.usageGroups) read and summarised where it is read: its
// files' usage (usage-pass-file.ts) becomes its sessions (usage-pass-sessions.ts) and their calls
// grouped as the store groups them (usage-pass-groups.ts). What is left is small — a few rows per
// session — so a worker hands back these rather than every usage event (deserialising those and
// building every session on the main thread was ~0.5 s of its CPU on 300 MB).

import type { Importer, SourceFile } from '../formats/importer.js';
import type { UsageCallGroupRow, UsageSessionRow } from '../store/store.js';
import { readUsageUnit } from './usage-pass-file.js';
import { groupUsageCalls } from './usage-pass-groups.js';
import { rootUsage } from './usage-pass-sessions.js';

export interface UnitSummary {
  /** Every session of the group, as the store's sessions table would list it. */
  sessions: UsageSessionRow[];
  /** Its sessions' calls, grouped (Store.usageCallGroups). */
  groups: UsageCallGroupRow[];
  /** Where a call has no usable timestamp (the pass then gives way to an ingest), if anywhere. */
  untimed: string | null;
}

/**
 * The files at `indexes` of `files` (one session group, in discovery order) read and summarised,
 * calls grouped with the long-context `threshold`.
 *
 * @example const { sessions, groups } = unitSummary(claudeCode, files, [0, 1, 2], 200_000)
 */
export function unitSummary(importer: Importer, files: readonly SourceFile[], indexes: readonly number[], threshold: number): UnitSummary {
  const usages = readUsageUnit(importer, files, indexes);
  const untimed = usages.find((u) => u.untimed !== null)?.untimed ?? null;
  if (untimed !== null) return { sessions: [], groups: [], untimed };
  const { sessions, calls } = rootUsage(importer, usages);
  return { sessions, groups: groupUsageCalls(calls, threshold), untimed: null };
}
