// SIGKILL while the built CLI ingests an OpenCode database (row sources resume from checkpoints
// like files), then a re-run, gives the same store as one clean run. Needs `npm run build`.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateOpenCode } from '../../../bench/generators/opencode.js';
import { expectSameStore, killAfter, runCli, tempDir } from '../../../test/helpers.js';
import { SqliteStore } from '../../store/sqlite/sqlite-store.js';

describe('crash safety on a database', () => {
  it('a SIGKILL mid-ingest followed by a re-run gives the same store as one clean run', async () => {
    const dir = tempDir('hs-oc-crash-');
    const home = join(dir, 'opencode');
    generateOpenCode(home, { seed: 41, targetBytes: 12_000_000, layout: 'both' });
    const cleanDb = join(dir, 'clean.db');
    expect(runCli(['ingest', home, '--db', cleanDb]).status).toBe(0);
    const crashDb = join(dir, 'crash.db');
    let kills = 0;
    for (const ms of [300, 700, 1200, 1800]) {
      const { killed, code } = await killAfter(['ingest', home, '--db', crashDb], ms);
      if (killed && code === null) kills++;
    }
    expect(runCli(['ingest', home, '--db', crashDb]).status).toBe(0);
    expect(kills).toBeGreaterThan(0); // at least one run really died mid-way
    const clean = new SqliteStore(cleanDb);
    const crashed = new SqliteStore(crashDb);
    expectSameStore(crashed, clean);
    await clean.close();
    await crashed.close();
  }, 240_000);
});
