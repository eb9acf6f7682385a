// The two ways a Gemini chat grows, through the real ingest pipeline: a legacy document is
// rewritten whole on every save (read again as a new generation, the old one's events retired),
// and a JSONL chat is appended to (read on from the checkpoint with the parser's saved state, so
// a reply whose second write lands in a later ingest still counts once).

import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers.js';
import { ingestPaths } from '../../ingest/ingest.js';
import { SqliteStore } from '../../store/sqlite/sqlite-store.js';
import { runTool } from '../../tools/tool.js';
import { usageReport } from '../../tools/usage-report/index.js';
import { call, geminiHome, header, jsonl, reply, SESSION, tokens, user, writeChat, writeDocument, type Rec } from './test-chats.js';

const newStore = () => new SqliteStore(join(tempDir('hs-db-'), 'h.db'));

async function sessionTokens(store: SqliteStore): Promise<Record<string, number>> {
  const r = (await runTool(usageReport, { group_by: 'session' }, { store })) as Record<string, any>;
  return r.rows.find((x: any) => x.key === SESSION).tokens;
}

async function snapshot(store: SqliteStore) {
  const s = (await store.getSession(SESSION))!;
  const { events } = await store.sessionTimeline(SESSION, { offset: 0, limit: 10_000, descendants: false });
  return { turns: s.turnCount, calls: s.llmCalls, tools: s.toolCalls, status: s.status, tokens: s.tokensOwn, kinds: events.map((e) => `${e.kind}:${e.ids.message ?? ''}:${e.ids.toolCall ?? ''}`) };
}

describe('a legacy document rewritten by the CLI', () => {
  it('is read again whole, and each message and call counts once', async () => {
    const { home, chats } = geminiHome();
    const first = [user('u1', 'hi', '2026-03-01T10:00:01.000Z'), reply('r1', '2026-03-01T10:00:02.000Z', { content: 'hello', tokens: tokens(1000, 10, 200, 5) })];
    writeDocument(chats, 'session-2026-03-01T10-00-11111111.json', first);
    const store = newStore();
    await ingestPaths(store, [home]);
    expect(await sessionTokens(store)).toEqual({ input: 800, output: 10, cache_write: 0, cache_read: 200, reasoning: 5, total: 1015 });

    const second = [...first, user('u2', 'and now?', '2026-03-01T10:01:00.000Z'), reply('r2', '2026-03-01T10:01:05.000Z', { content: 'done', tokens: tokens(1500, 20, 1000) })];
    writeDocument(chats, 'session-2026-03-01T10-00-11111111.json', second);
    const again = await ingestPaths(store, [home]);
    expect(again.filesRead).toBe(1);
    expect(await sessionTokens(store)).toEqual({ input: 800 + 500, output: 10 + 20, cache_write: 0, cache_read: 200 + 1000, reasoning: 5, total: 1015 + 1520 });
    const s = await snapshot(store);
    expect(s).toMatchObject({ turns: 2, calls: 2, status: 'completed' });
    expect(s.kinds).toEqual(['session_start::', 'user_message:u1:', 'assistant_message:r1:', 'llm_call:r1:', 'user_message:u2:', 'assistant_message:r2:', 'llm_call:r2:']);
    // Both versions stay as evidence: the first as generation 1, superseded.
    const ledgers = await store.sessionLedgers(SESSION);
    expect(ledgers[0]!.files.map((f) => [f.generation, f.superseded])).toEqual([[1, true], [2, false]]);

    const unchanged = await ingestPaths(store, [home]);
    expect(unchanged.filesUnchanged).toBe(1);
    expect(await snapshot(store)).toEqual(s);
  });
});

describe('a JSONL chat appended to between ingests', () => {
  const records: Rec[] = (() => {
    const r1 = reply('r1', '2026-03-01T10:00:04.000Z', { thoughts: [{ subject: 'Plan', description: 'look', timestamp: '2026-03-01T10:00:03.000Z' }], tokens: tokens(1000, 20, 400, 30) });
    return [
      header(),
      user('u1', 'fix the test', '2026-03-01T10:00:01.000Z'),
      { $set: { lastUpdated: '2026-03-01T10:00:01.000Z' } },
      r1,
      { $set: { lastUpdated: '2026-03-01T10:00:04.000Z' } },
      { ...r1, toolCalls: [call('c1', 'run_shell_command', { command: 'npm test' }, 'executing')] },
      { ...r1, toolCalls: [call('c1', 'run_shell_command', { command: 'npm test' }, 'success', 'Exit Code: 0')] },
      reply('r2', '2026-03-01T10:00:09.000Z', { content: 'Tests pass.', tokens: tokens(1200, 8, 1000) }),
    ];
  })();

  it('counts each part of a reply once wherever the ingest was cut, as one read of the whole file does', async () => {
    const whole = geminiHome();
    writeChat(whole.chats, 'session-2026-03-01T10-00-11111111.jsonl', records);
    const once = newStore();
    await ingestPaths(once, [whole.home]);
    const expected = await snapshot(once);
    expect(expected).toMatchObject({ turns: 1, calls: 2, tools: 1, status: 'completed' });

    for (const cut of [4, 5, 6, 7]) {
      const { home, chats } = geminiHome();
      const path = writeChat(chats, 'session-2026-03-01T10-00-11111111.jsonl', records.slice(0, cut));
      const store = newStore();
      await ingestPaths(store, [home]);
      appendFileSync(path, jsonl(records.slice(cut)));
      await ingestPaths(store, [home]);
      expect(await snapshot(store), `cut after line ${cut}`).toEqual(expected);
    }
  });

  it('holds an unfinished last line back and counts it once it is complete', async () => {
    const { home, chats } = geminiHome();
    const path = join(chats, 'session-2026-03-01T10-00-11111111.jsonl');
    const text = jsonl(records);
    const half = text.length - 20;
    writeFileSync(path, text.slice(0, half));
    const store = newStore();
    await ingestPaths(store, [home]);
    expect((await snapshot(store)).calls).toBe(1);
    appendFileSync(path, text.slice(half));
    await ingestPaths(store, [home]);
    expect((await snapshot(store)).calls).toBe(2);
    expect(await sessionTokens(store)).toEqual({ input: 600 + 200, output: 20 + 8, cache_write: 0, cache_read: 1400, reasoning: 30, total: 2258 });
  });
});
