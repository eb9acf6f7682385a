// Test helpers: a generated OpenCode data folder (bench/generators/opencode.ts), ingested into a
// fresh SQLite store, and ccusage 20 run on the same folder.

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect } from 'vitest';
import { generateOpenCode, type OpenCodeOptions, type OpenCodeStats } from '../../../bench/generators/opencode.js';
import { REPO, tempDir } from '../../../test/helpers.js';
import { ingestPaths } from '../../ingest/ingest.js';
import { openStore } from '../../store/open.js';
import type { Store } from '../../store/store.js';
import { findTool } from '../../tools/registry.js';
import { runTool, type ToolResult } from '../../tools/tool.js';

export interface TestHome {
  home: string;
  stats: OpenCodeStats;
}

/** A generated OpenCode data folder in a temp directory. */
export function makeHome(opts: Partial<OpenCodeOptions> = {}): TestHome {
  const home = join(tempDir('hs-opencode-'), 'opencode');
  const stats = generateOpenCode(home, { seed: 7, sessions: 6, ...opts });
  return { home, stats };
}

/** A fresh store with `paths` ingested (as OpenCode). */
export async function ingested(paths: string[]): Promise<{ store: Store; db: string }> {
  const db = join(tempDir('hs-opencode-db-'), 'h.db');
  const store = await openStore({ db });
  await ingestPaths(store, paths, { format: 'opencode' });
  return { store, db };
}

/** Run one tool and insist it answered ok. */
export async function tool(store: Store, name: string, args: Record<string, unknown>): Promise<ToolResult & Record<string, any>> {
  const result = await runTool(findTool(name)!, args, { store });
  expect(result.status, JSON.stringify(result).slice(0, 400)).toBe('ok');
  return result as ToolResult & Record<string, any>;
}

export interface CcusageRow {
  date?: string;
  sessionId?: string;
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
  totalTokens: number;
  totalCost: number;
  modelsUsed: string[];
  modelBreakdowns: { modelName: string; inputTokens: number; outputTokens: number; cacheCreationTokens: number; cacheReadTokens: number; cost: number; missingPricing?: boolean }[];
}

/** `ccusage opencode <report> --json --offline -z UTC` on `home` (its own cache folder, so no earlier run leaks in). */
export function ccusage(home: string, report: 'session' | 'daily'): CcusageRow[] {
  const run = spawnSync(join(REPO, 'node_modules', '.bin', 'ccusage'), ['opencode', report, '--json', '--offline', '-z', 'UTC'], {
    encoding: 'utf8',
    env: { ...process.env, OPENCODE_DATA_DIR: home, XDG_CACHE_HOME: tempDir('hs-ccusage-cache-'), TZ: 'UTC' },
  });
  expect(run.status, run.stderr).toBe(0);
  return (JSON.parse(run.stdout) as Record<string, CcusageRow[]>)[report === 'session' ? 'sessions' : 'daily']!;
}
