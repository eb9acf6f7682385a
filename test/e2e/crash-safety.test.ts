// SIGKILL at any moment, then a re-run, gives the same store as one clean run.

import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateControlPlane } from '../../bench/generators/control-plane.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { expectSameStore, FIXTURES, killAfter, runCli, tempDir } from '../helpers.js';

describe('crash safety', () => {
  it('a SIGKILL at any moment followed by a re-run gives the same store as one clean run', async () => {
    const dir = tempDir('hs-crash-');
    const plane = join(dir, 'plane');
    generateControlPlane(plane, { sessions: 60, seed: 11, targetBytes: 40_000_000 });
    const claude = join(dir, 'claude');
    cpSync(join(FIXTURES, 'claude-code'), claude, { recursive: true });

    const cleanDb = join(dir, 'clean.db');
    expect(runCli(['ingest', plane, claude, '--db', cleanDb]).status).toBe(0);

    const crashDb = join(dir, 'crash.db');
    let kills = 0;
    for (const ms of [150, 400, 700, 1000, 1400, 1900]) {
      const { killed, code } = await killAfter(['ingest', plane, claude, '--db', crashDb], ms);
      if (killed && code === null) kills++;
    }
    expect(runCli(['ingest', plane, claude, '--db', crashDb]).status).toBe(0);
    // At least one run must really have died mid-way, or the test proved nothing.
    expect(kills).toBeGreaterThan(0);

    const clean = new SqliteStore(cleanDb);
    const crashed = new SqliteStore(crashDb);
    expectSameStore(crashed, clean);
    await clean.close();
    await crashed.close();
  });
});
