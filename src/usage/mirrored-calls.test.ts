// A sub-agent's call recorded in the parent's progress lines (a mirror) and maybe in the sub-agent's
// own file: counted once in the session tree, whichever files exist and in whichever order they
// arrive (src/store/shared/usage-mirrors.ts). Counted at all when the mirror is its only record.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers.js';
import { ingestPaths } from '../ingest/ingest.js';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';
import { runTool } from '../tools/tool.js';
import { usageReport } from '../tools/usage-report/index.js';

const SESSION = '11111111-2222-3333-4444-555555555555';
const AGENT = 'a1b2c3d';
const usage = (output: number) => ({ input_tokens: 2, output_tokens: output, cache_creation_input_tokens: 100, cache_read_input_tokens: 1000 });

const lines = {
  user: { type: 'user', sessionId: SESSION, uuid: 'u1', timestamp: '2026-03-01T10:00:00.000Z', cwd: '/p', message: { role: 'user', content: 'hello' } },
  own: {
    type: 'assistant', sessionId: SESSION, uuid: 'a1', timestamp: '2026-03-01T10:00:01.000Z', requestId: 'req_own',
    message: { id: 'msg_own', model: 'claude-opus-4-6', role: 'assistant', content: [{ type: 'text', text: 'hi' }], usage: usage(10) },
  },
  /** The sub-agent's call as the parent mirrors it: twice, the output growing as it streams. */
  mirror: (uuid: string, output: number) => ({
    type: 'progress', sessionId: SESSION, uuid, timestamp: '2026-03-01T10:00:02.000Z', parentToolUseID: 'toolu_task',
    data: {
      type: 'agent_progress', agentId: AGENT,
      message: {
        type: 'assistant', timestamp: '2026-03-01T10:00:02.000Z', requestId: 'req_sub',
        message: { id: 'msg_sub', model: 'claude-haiku-4-5-20251001', role: 'assistant', content: [{ type: 'text', text: 'working' }], usage: usage(output) },
      },
    },
  }),
  /** The same call in the sub-agent's own file. */
  subagent: {
    type: 'assistant', sessionId: SESSION, agentId: AGENT, isSidechain: true, uuid: 's1', timestamp: '2026-03-01T10:00:02.000Z', requestId: 'req_sub',
    message: { id: 'msg_sub', model: 'claude-haiku-4-5-20251001', role: 'assistant', content: [{ type: 'text', text: 'working' }], usage: usage(40) },
  },
};
const jsonl = (objs: object[]) => objs.map((o) => `${JSON.stringify(o)}\n`).join('');

/** One call = 2 + output + 100 + 1000 tokens. */
const call = (output: number) => 1102 + output;

function writeParent(root: string): void {
  const dir = join(root, 'projects', '-p');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${SESSION}.jsonl`), jsonl([lines.user, lines.own, lines.mirror('p1', 3), lines.mirror('p2', 40)]));
}

function writeSubagent(root: string): void {
  const dir = join(root, 'projects', '-p', SESSION, 'subagents');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `agent-${AGENT}.jsonl`), jsonl([lines.subagent]));
}

async function report(store: SqliteStore, group: 'daily' | 'session' | 'blocks') {
  const r = await runTool(usageReport, { group_by: group, breakdown: true, ...(group === 'blocks' ? { now: '2026-03-01T12:00:00Z' } : {}) }, { store });
  expect(r.status).toBe('ok');
  return r as unknown as { totals: { calls: number; tokens: { total: number } }; rows: { key: string; tokens: { total: number } }[] };
}

describe('mirrored sub-agent calls', () => {
  it('counts a call recorded only in progress lines once (the largest of its lines)', async () => {
    const root = tempDir('hs-mirror-');
    writeParent(root);
    const store = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
    await ingestPaths(store, [root]);
    const daily = await report(store, 'daily');
    expect(daily.totals.calls).toBe(2);
    expect(daily.totals.tokens.total).toBe(call(10) + call(40));
    expect((await report(store, 'session')).totals.tokens.total).toBe(daily.totals.tokens.total);
    expect((await report(store, 'blocks')).totals).toMatchObject({ calls: 2, tokens: { total: daily.totals.tokens.total } });
    expect((await store.getSession(SESSION))!.llmCalls).toBe(2);
    await store.close();
  });

  it('counts it once when the sub-agent file records it too, whichever arrives first', async () => {
    for (const order of ['together', 'subagent later'] as const) {
      const root = tempDir('hs-mirror-');
      writeParent(root);
      if (order === 'together') writeSubagent(root);
      const store = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
      await ingestPaths(store, [root]);
      if (order === 'subagent later') {
        writeSubagent(root); // the parent's file is unchanged: only the child is new
        await ingestPaths(store, [root]);
      }
      const daily = await report(store, 'daily');
      expect(daily.totals.calls, order).toBe(2);
      expect(daily.totals.tokens.total, order).toBe(call(10) + call(40));
      const session = await report(store, 'session');
      expect(session.rows.map((r) => [r.key, r.tokens.total]), order).toEqual([[SESSION, call(10) + call(40)]]);
      // Blocks read the stored calls one by one: the same two calls, in one window.
      const blocks = await report(store, 'blocks');
      expect([blocks.totals.calls, blocks.totals.tokens.total], order).toEqual([2, call(10) + call(40)]);
      expect(blocks.rows.map((r) => r.tokens.total), order).toEqual([call(10) + call(40)]);
      const parent = (await store.getSession(SESSION))!;
      expect([parent.llmCalls, parent.tokensTotal.input + parent.tokensTotal.output + parent.tokensTotal.cacheWrite + parent.tokensTotal.cacheRead], order).toEqual([
        1,
        call(10) + call(40),
      ]);
      await store.close();
    }
  });
});
