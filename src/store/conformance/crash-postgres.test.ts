// SIGKILL of an ingest into PostgreSQL at any moment, then a re-run, answers like one clean run
// into SQLite (the built CLI, a schema of its own). Needs `npx tsc -p tsconfig.build.json`.

import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateClaudeCode } from '../../../bench/generators/claude-code.js';
import { killAfter, runCli, tempDir } from '../../../test/helpers.js';
import { dropSchema, postgresUnavailable, TEST_PG_URL, uniqueSchema, withSchema } from './engines.js';

const unavailable = await postgresUnavailable();

describe.skipIf(unavailable !== null)('crash safety on PostgreSQL', () => {
  const schema = uniqueSchema('hs_crash');
  afterAll(async () => {
    await dropSchema(schema);
  });

  it('a SIGKILL at any moment followed by a re-run gives the same answers as one clean SQLite run', async () => {
    const dir = tempDir('hs-pg-crash-');
    const corpus = join(dir, 'claude');
    generateClaudeCode(corpus, { targetBytes: 12_000_000, seed: 5 });
    const sqlite = join(dir, 'clean.db');
    expect(runCli(['ingest', corpus, '--db', sqlite]).status).toBe(0);

    const url = withSchema(TEST_PG_URL, schema);
    let kills = 0;
    for (const ms of [400, 900, 1500, 2200]) {
      const { killed, code } = await killAfter(['ingest', corpus, '--db', url], ms);
      if (killed && code === null) kills++;
    }
    expect(runCli(['ingest', corpus, '--db', url]).status).toBe(0);
    // At least one run must really have died mid-way, or the test proved nothing.
    expect(kills).toBeGreaterThan(0);

    for (const args of [
      ['sources', '{"section":"files","limit":500}'],
      ['list_sessions', '{"top_level_only":false,"limit":500}'],
      ['sources', '{"limit":500}'],
      ['search_sessions', '{"query":"the","limit":200}'],
      ['usage_report', '{"group_by":"session"}'],
    ]) {
      const pg = runCli(['tool', ...args, '--db', url]);
      const lite = runCli(['tool', ...args, '--db', sqlite]);
      expect(pg.status).toBe(0);
      expect(JSON.parse(pg.stdout)).toEqual(JSON.parse(lite.stdout));
    }
  });
});
