// Records and bad input: the usage rule (as ccusage 20.0.24 counts), broken rows and documents
// reported with where they are while the rest is read, the pre-1.0 storage/ layout on its own,
// and the rows as a sync mirror writes them out as files.

import Database from 'better-sqlite3';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers.js';
import { runImporter } from '../../ingest/harness.js';
import { readRows } from '../../ingest/sqlite-rows.js';
import { openCode } from './index.js';
import { storedMessage } from './message-context.js';
import { ccusage, makeHome } from './test-home.js';
import { messageUsage } from './usage.js';

type Obj = Record<string, any>;

describe('messageUsage', () => {
  const usage = (tokens: Obj, extra: Obj = {}) => messageUsage('m', { modelID: 'claude-sonnet-4-5', providerID: 'anthropic', tokens, ...extra })?.usage;

  it('keeps reasoning and whatever total holds beyond the parts as the reasoning kind (billed as output, outside it), as ccusage does', () => {
    const base = { input: 100, output: 10, reasoning: 5, cache: { read: 7, write: 3 } };
    expect(usage(base)).toMatchObject({ input: 100, output: 10, reasoning: 5, cacheRead: 7, cacheWrite: 3, key: 'm', model: 'claude-sonnet-4-5' });
    expect(usage({ ...base, total: 110 })!.reasoning).toBe(5); // a total below the parts changes nothing
    expect(usage({ ...base, total: 200 })!.reasoning).toBe(80); // 200 − (100 + 10 + 7 + 3)
    expect(usage({ ...base, output: 0 })).toMatchObject({ output: 0, reasoning: 5 });
    expect(usage({ input: '40', output: 2 })).toMatchObject({ input: 40, output: 2, cacheRead: 0, cacheWrite: 0 });
  });

  it('is no call without a model, a provider, or any token', () => {
    expect(usage({ input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } }, { cost: 0.5 })).toBeUndefined();
    expect(messageUsage('m', { providerID: 'anthropic', tokens: { input: 5 } })).toBeNull();
    expect(messageUsage('m', { modelID: ' ', providerID: 'anthropic', tokens: { input: 5 } })).toBeNull();
    expect(messageUsage('m', { modelID: 'x', providerID: 'y', cost: 0.02, tokens: { input: 5 } })?.costUsd).toBe(0.02);
  });
});

describe('bad rows in the database', () => {
  it('reports each bad row with its file and line and reads every other row', async () => {
    const { home } = makeHome({ seed: 12, sessions: 2 });
    const db = new Database(join(home, 'opencode.db'));
    db.pragma('foreign_keys = OFF'); // OpenCode's rows can break the keys (an orphan part) only without them
    const { session_id: sid, id: mid, time_created: t } = db.prepare("SELECT session_id, id, time_created FROM message WHERE json_extract(data, '$.role') = 'user' LIMIT 1").get() as Obj;
    const before = await runImporter(openCode, home);
    const tokens = before.sessions.get(sid)!.summary.tokens;
    const add = db.prepare('INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)');
    db.prepare('INSERT INTO message VALUES (?, ?, ?, ?, ?)').run('msg_zzbroken', sid, t + 1, t + 1, '{"role":"assistant", "tokens": ');
    add.run('prt_zz1pretty', mid, sid, t, t, '{\n  "type": "text",\n  "text": "pretty printed by hand"\n}');
    add.run('prt_zz2unknown', mid, sid, t, t, '{"type":"hologram"}');
    add.run('prt_zz3orphan', 'msg_gone', sid, t, t, '{"type":"text","text":"whose message?"}');
    db.close();

    const after = await runImporter(openCode, home);
    const file = `opencode.db/messages/${sid}.jsonl`;
    const of = (kind: string) => after.defects.filter((d) => d.kind === kind);
    expect(of('malformed_json')).toHaveLength(1);
    expect(of('malformed_json')[0]).toMatchObject({ severity: 'error', file });
    expect(of('malformed_json')[0]!.line).toBeGreaterThan(1);
    expect(of('unknown_part_type')).toMatchObject([{ severity: 'info', file }]);
    expect(of('part_without_message')).toMatchObject([{ severity: 'warning', file }]);
    expect(after.lines.get(file)!.bad).toBe(1);
    // The pretty-printed row was kept on one line (as a JSON string) and read as the user's text.
    expect(after.events.some((e) => e.kind === 'user_message' && e.summary === 'pretty printed by hand')).toBe(true);
    expect(after.sessions.get(sid)!.summary.tokens).toEqual(tokens);
  });

  it('places a row over 8 MiB on the timeline from its head and keeps it whole as evidence', async () => {
    const { home } = makeHome({ seed: 17, sessions: 1 });
    const db = new Database(join(home, 'opencode.db'));
    const { session_id: sid, id: mid, time_created: t } = db.prepare("SELECT session_id, id, time_created FROM message WHERE json_extract(data, '$.role') = 'assistant' LIMIT 1").get() as Obj;
    const state = { status: 'completed', input: { filePath: '/big.log' }, output: 'x'.repeat(9 * 1024 * 1024), title: 'big.log', metadata: {}, time: { start: t + 1, end: t + 2 } };
    db.prepare('INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)').run('prt_zzhuge', mid, sid, t + 1, t + 2, JSON.stringify({ type: 'tool', callID: 'call_huge', tool: 'read', state }));
    db.close();
    const r = await runImporter(openCode, home);
    expect(r.defects.filter((d) => d.kind === 'oversized_line')).toHaveLength(1);
    const huge = r.events.filter((e) => e.ids.toolCall === 'call_huge');
    expect(huge.map((e) => [e.kind, e.toolName, e.toolStatus])).toEqual([['tool_call', 'read', null], ['tool_result', 'read', 'ok']]);
  });

  it('reports a message whose role it does not know, and nothing worse', async () => {
    const { home } = makeHome({ seed: 13, sessions: 1 });
    const db = new Database(join(home, 'opencode.db'));
    const sid = (db.prepare('SELECT id FROM session LIMIT 1').get() as Obj).id as string;
    db.prepare('INSERT INTO message VALUES (?, ?, ?, ?, ?)').run('msg_zzrobot', sid, 1767400000000, 1767400000000, '{"role":"robot","time":{"created":1767400000000}}');
    db.close();
    const r = await runImporter(openCode, home);
    expect(r.defects.filter((d) => d.kind === 'unknown_message_role')).toMatchObject([{ severity: 'warning', file: `opencode.db/messages/${sid}.jsonl` }]);
    expect(r.defects.filter((d) => d.severity === 'error')).toEqual([]);
  });
});

describe('the pre-1.0 storage/ folder', () => {
  it('reads sessions from the documents alone, prompts and replies told apart, tokens as ccusage counts them', async () => {
    const { home } = makeHome({ seed: 14, sessions: 4, layout: 'storage' });
    const r = await runImporter(openCode, home);
    expect(r.files.every((f) => f.kind === 'document' && f.relPath.startsWith('storage/'))).toBe(true);
    expect(r.defects.filter((d) => d.severity !== 'info')).toEqual([]);
    const theirs = ccusage(home, 'session');
    expect([...r.sessions.keys()].sort()).toEqual(theirs.map((t) => t.sessionId).sort());
    for (const t of theirs) {
      const s = r.sessions.get(t.sessionId!)!.summary;
      expect(s.tokens.input).toBe(t.inputTokens);
      expect(s.tokens.cacheRead).toBe(t.cacheReadTokens);
      expect(s.tokens.output).toBe(t.outputTokens);
      expect(s.tokens.input + s.tokens.output + s.tokens.cacheRead + s.tokens.cacheWrite + (s.tokens.reasoning ?? 0)).toBe(t.totalTokens);
      expect(s.turnCount).toBeGreaterThan(0);
      expect(s.firstUserMessage).not.toBeNull();
    }
  });

  it('reports a document that is not JSON and reads the others', async () => {
    const { home } = makeHome({ seed: 15, sessions: 1, layout: 'storage' });
    const r0 = await runImporter(openCode, home);
    const msg = r0.files.find((f) => f.ledger === 'message.json')!;
    writeFileSync(msg.path, '{"id": "msg_x", "role": "user", ');
    const r = await runImporter(openCode, home);
    expect(r.defects.filter((d) => d.severity === 'error').map((d) => d.file)).toEqual([msg.relPath]);
    expect(r.sessions.size).toBe(r0.sessions.size);
  });

  it("finds a part's message on disk when it was not read just before (a resumed ingest)", () => {
    const storage = join(tempDir('hs-opencode-storage-'), 'storage');
    mkdirSync(join(storage, 'message', 'ses_a'), { recursive: true });
    writeFileSync(join(storage, 'message', 'ses_a', 'msg_ondisk.json'), JSON.stringify({ id: 'msg_ondisk', sessionID: 'ses_a', role: 'user', time: { created: 1767400000000 } }, null, 2));
    const part = join(storage, 'part', 'msg_ondisk', 'prt_a.json');
    expect(storedMessage(part, 'ses_a', 'msg_ondisk')).toEqual({ id: 'msg_ondisk', role: 'user', created: 1767400000000 });
    expect(storedMessage(part, 'ses_a', 'msg_nowhere')).toBeUndefined();
  });
});

describe('rows written out as files (a sync mirror)', () => {
  it('reads opencode.db/{session,messages}/<id>.jsonl files as the database rows they copy, storage/ copies still evidence only', async () => {
    const { home } = makeHome({ seed: 16, sessions: 4, layout: 'both' });
    const fromDb = await runImporter(openCode, home);
    const mirror = join(tempDir('hs-opencode-mirror-'), 'opencode');
    for (const f of fromDb.files) {
      mkdirSync(dirname(join(mirror, f.relPath)), { recursive: true });
      writeFileSync(join(mirror, f.relPath), f.rows ? readRows(f.rows) : readFileSync(f.path));
    }
    expect(await openCode.detect(mirror)).toBe(true);
    const fromFiles = await runImporter(openCode, mirror);
    expect(fromFiles.files.map((f) => [f.relPath, f.evidenceOnly ?? false])).toEqual(fromDb.files.map((f) => [f.relPath, f.evidenceOnly ?? false]));
    expect(fromDb.files.some((f) => f.evidenceOnly)).toBe(true);
    expect(fromFiles.files.every((f) => f.rows === undefined)).toBe(true);
    for (const [id, s] of fromDb.sessions) {
      expect(fromFiles.sessions.get(id)!.summary).toEqual(s.summary);
      expect(fromFiles.sessions.get(id)!.facts).toEqual(s.facts);
    }
  });
});
