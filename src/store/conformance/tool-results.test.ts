// Conformance: the same fixtures ingested into SQLite and into PostgreSQL give identical tool results
// (the JSON of every registry tool over a representative set of arguments).

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES } from '../../../test/helpers.js';
import { ingestPaths } from '../../ingest/ingest.js';
import { TOOLS } from '../../tools/registry.js';
import { runTool } from '../../tools/tool.js';
import type { Store } from '../store.js';
import { postgresEngine, postgresUnavailable, sqliteEngine } from './engines.js';
import { toolCases, type ToolCase } from './tool-cases.js';
import { firstDifference } from './compare.js';

const ROOTS = [
  join(FIXTURES, 'claude-code'),
  join(FIXTURES, 'amplifier', 'normal'),
  join(FIXTURES, 'amplifier', 'edge'),
  join(FIXTURES, 'amplifier', 'real'),
  join(FIXTURES, 'control-plane', 'normal'),
  join(FIXTURES, 'control-plane', 'edge'),
];

const unavailable = await postgresUnavailable();

describe.skipIf(unavailable !== null)('SQLite and PostgreSQL give identical tool results', () => {
  const sqlite = sqliteEngine();
  const postgres = postgresEngine();
  let a: Store;
  let b: Store;
  let cases: Map<string, ToolCase[]>;

  beforeAll(async () => {
    [a, b] = await Promise.all([sqlite.create(), postgres.create()]);
    await ingestPaths(a, ROOTS);
    await ingestPaths(b, ROOTS);
    cases = await toolCases(a);
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await postgres.dispose();
  });

  it('ingests the same totals', async () => {
    const [ta, tb] = await Promise.all([a.totals(), b.totals()]);
    expect(ta.sessions).toBeGreaterThan(10);
    expect(tb).toEqual(ta);
  });

  it.each(TOOLS.map((t) => t.name))('%s', async (name) => {
    const tool = TOOLS.find((t) => t.name === name)!;
    const list = cases.get(name) ?? [{ tool: name, args: {} }];
    const differences: string[] = [];
    let ok = 0;
    let transcriptMatches = 0;
    for (const c of list) {
      // A folder nothing writes to while tests run (the repository gains screenshots and builds).
      const ctx = { workspaceRoot: join(FIXTURES, 'claude-code') };
      const [ra, rb] = [await runTool(tool, c.args, { ...ctx, store: a }), await runTool(tool, c.args, { ...ctx, store: b })];
      if (ra.status === 'ok') ok++;
      if (name === 'search_sessions' && Array.isArray(ra.matches)) {
        transcriptMatches += (ra.matches as { match_type: string }[]).filter((m) => m.match_type === 'transcript').length;
      }
      const diff = firstDifference(ra, rb);
      if (diff) differences.push(`${name} ${JSON.stringify(c.args)}: ${diff}`);
    }
    expect(differences).toEqual([]);
    // The cases must exercise the tool, not only its error path (two equal errors prove little).
    expect(ok, `${name}: no case answered ok`).toBeGreaterThan(0);
    if (name === 'search_sessions') expect(transcriptMatches).toBeGreaterThan(50);
  });
});
