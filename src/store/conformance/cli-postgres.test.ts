// End to end: the built CLI with `--db postgres://…` (and HINDSIGHT_DB) ingests and answers like
// it does with a SQLite file, each run in a schema of its own. Needs `npx tsc -p tsconfig.build.json`.

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, FIXTURES, runCli, tempDir } from '../../../test/helpers.js';
import { dropSchema, postgresUnavailable, TEST_PG_URL, uniqueSchema, withSchema } from './engines.js';

const unavailable = await postgresUnavailable();

describe.skipIf(unavailable !== null)('hindsight --db postgres://…', () => {
  const schema = uniqueSchema('hs_cli');
  const url = withSchema(TEST_PG_URL, schema);
  const fixture = join(FIXTURES, 'claude-code');

  afterAll(async () => {
    await dropSchema(schema);
  });

  it('ingests into PostgreSQL and every command reads it back like SQLite', () => {
    const ingest = runCli(['ingest', fixture, '--db', url, '--json']);
    expect(ingest.stderr).toBe('');
    expect(ingest.status).toBe(0);
    expect(JSON.parse(ingest.stdout)).toMatchObject({ status: 'ok', db: url });

    const sqlite = join(tempDir('hs-cli-pg-'), 'h.db');
    expect(runCli(['ingest', fixture, '--db', sqlite]).status).toBe(0);

    for (const args of [
      ['tool', 'list_sessions', '{}'],
      ['tool', 'usage_report', '{"group_by":"session"}'],
      ['sessions'],
      ['search', 'server'],
    ]) {
      const pgRun = runCli([...args, '--db', url]);
      const liteRun = runCli([...args, '--db', sqlite]);
      expect(pgRun.status).toBe(0);
      expect(pgRun.stdout.length).toBeGreaterThan(50);
      if (args[0] === 'tool') expect(JSON.parse(pgRun.stdout)).toEqual(JSON.parse(liteRun.stdout));
    }
    const viaEnv = runCli(['tool', 'list_sessions', '{"limit":1}'], { HINDSIGHT_DB: url });
    const liteCount = (JSON.parse(runCli(['tool', 'list_sessions', '{"limit":1}', '--db', sqlite]).stdout) as { count: number }).count;
    expect(liteCount).toBeGreaterThan(1);
    expect(JSON.parse(viaEnv.stdout)).toMatchObject({ status: 'ok', count: liteCount });
  });

  it('serves the tools over MCP (stdio) from the PostgreSQL store', () => {
    const messages = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 't', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_sessions', arguments: { limit: 1 } } },
    ];
    const res = spawnSync(process.execPath, [BIN, 'mcp', '--db', url], {
      input: messages.map((m) => JSON.stringify(m)).join('\n') + '\n',
      encoding: 'utf8',
      timeout: 30_000,
    });
    const reply = res.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { id?: number; result?: { content: { text: string }[] } })
      .find((m) => m.id === 2);
    expect(JSON.parse(reply!.result!.content[0]!.text)).toMatchObject({ status: 'ok', returned: 1 });
  });

  it('reports an unreachable server in one sentence and exits non-zero', () => {
    const res = runCli(['tool', 'list_sessions', '{}', '--db', 'postgres://postgres@127.0.0.1:1/test']);
    expect(res.status).not.toBe(0);
    expect(res.stderr + res.stdout).toMatch(/Cannot open the PostgreSQL store at postgres:\/\/postgres@127\.0\.0\.1:1\/test \(connection refused/);
    expect(res.stderr).not.toMatch(/\n\s+at /);
  });
});
