// usage_report against ccusage 20 itself (a pinned dev dependency, run offline) on the real
// Claude Code transcripts: per-session tokens must be equal, kind by kind.

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, REPO, runCli, tempDir } from '../helpers.js';

interface CcusageSession {
  period: string;
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
  totalCost: number;
}

describe('usage_report vs ccusage 20', () => {
  it('gives every real transcript the same token totals as `ccusage session --json --offline`', () => {
    const cc = spawnSync(join(REPO, 'node_modules', '.bin', 'ccusage'), ['session', '--json', '--offline'], {
      encoding: 'utf8',
      env: { ...process.env, CLAUDE_CONFIG_DIR: join(FIXTURES, 'claude-code') },
    });
    expect(cc.status).toBe(0);
    const theirs = (JSON.parse(cc.stdout) as { session: CcusageSession[] }).session;
    expect(theirs.length).toBe(6);

    const db = join(tempDir('hs-ccusage-'), 'h.db');
    expect(runCli(['ingest', join(FIXTURES, 'claude-code'), '--db', db]).status).toBe(0);
    const ours = JSON.parse(runCli(['usage', 'session', '--json', '--db', db]).stdout) as {
      rows: { session_id: string; tokens: { input: number; output: number; cache_write: number; cache_read: number }; cost_usd: number | null }[];
    };
    const byId = new Map(ours.rows.map((r) => [r.session_id, r]));
    for (const t of theirs) {
      const o = byId.get(t.period);
      expect(o, t.period).toBeDefined();
      expect([o!.tokens.input, o!.tokens.output, o!.tokens.cache_write, o!.tokens.cache_read], t.period).toEqual([
        t.inputTokens,
        t.outputTokens,
        t.cacheCreationTokens,
        t.cacheReadTokens,
      ]);
      // Costs come from our own dated price table; they agree with ccusage's within a cent
      // unless a call crosses the 200k long-context tier (billed whole by Anthropic's rule).
      expect(o!.cost_usd).not.toBeNull();
    }
  });
});
