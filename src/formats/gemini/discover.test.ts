import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, tempDir } from '../../../test/helpers.js';
import { ingestPaths } from '../../ingest/ingest.js';
import { SqliteStore } from '../../store/sqlite/sqlite-store.js';
import type { Defect } from '../../core/model.js';
import { detectFormat } from '../registry.js';
import { gemini } from './index.js';
import { projectHashOf } from './project-path.js';
import { geminiHome, header, PROJECT_HASH, reply, SESSION, tokens, user, writeChat, writeDocument } from './test-chats.js';

const SAMPLES = join(FIXTURES, 'other-agents', 'gemini');
const chat = [header(), user('u1', 'hi', '2026-03-01T10:00:01.000Z'), reply('r1', '2026-03-01T10:00:02.000Z', { content: 'hello', tokens: tokens(10, 2) })];

describe('Gemini discovery', () => {
  it('finds the sample chats under GEMINI_DATA_DIR, named by their own session ids, and not logs.json', async () => {
    const files = await gemini.discover(join(SAMPLES, 'tmp'));
    expect(files.map((f) => [f.relPath.split('/').slice(1).join('/'), f.sessionId, f.ledger, f.kind])).toEqual([
      ['chats/session-2026-01-16T11-01-37b7abef.json', '37b7abef-713d-4522-85f0-8ff15a4e6d17', 'chat.json', 'document'],
      ['chats/session-2025-12-01T21-45-5b959dae.json', '5b959dae-8655-4cd1-b10f-720b8c336ea2', 'chat.json', 'document'],
    ]);
    expect(files[1]!.facts![0]).toMatchObject({ project: 'fb8e242a6fbbb5c48a1d0be57a8a4cc934d33e0a1caf73ab5d4ecaa17269960c', kind: 'root', parentId: null });
  });

  it('names projects from .project_root, from projects.json (by slug, or by the sha256 of a registered path) and from history/', async () => {
    const home = tempDir('hs-gemini-home-');
    const slugged = '/home/dev/web-shop';
    const hashed = '/home/dev/old-tool';
    const fromHistory = '/home/dev/notes';
    for (const [folder, marker] of [['web-shop', slugged], [projectHashOf(hashed), undefined], ['notes', undefined], ['unknown', undefined]] as const) {
      mkdirSync(join(home, 'tmp', folder, 'chats'), { recursive: true });
      if (marker) writeFileSync(join(home, 'tmp', folder, '.project_root'), `${marker}\n`);
      writeChat(join(home, 'tmp', folder, 'chats'), `session-2026-03-01T10-00-${folder.slice(0, 8)}.jsonl`, [header({ sessionId: `s-${folder.slice(0, 8)}` })]);
    }
    mkdirSync(join(home, 'history', 'notes'), { recursive: true });
    writeFileSync(join(home, 'history', 'notes', '.project_root'), fromHistory);
    writeFileSync(join(home, 'projects.json'), JSON.stringify({ projects: { [hashed]: 'old-tool', [slugged]: 'web-shop' } }));
    const files = await gemini.discover(home);
    expect(Object.fromEntries(files.map((f) => [f.facts![0]!.project, f.facts![0]!.projectPath]))).toEqual({
      [projectHashOf(hashed)]: hashed,
      notes: fromHistory,
      unknown: undefined,
      'web-shop': slugged,
    });
  });

  it('accepts the home, tmp/, a project folder, its chats/ folder and a sub-agent folder as roots', async () => {
    const { home, chats } = geminiHome('demo-app');
    writeChat(chats, 'session-2026-03-01T10-00-11111111.jsonl', chat);
    mkdirSync(join(chats, SESSION));
    writeChat(join(chats, SESSION), 'helper-1.jsonl', [header({ sessionId: 'helper-1', kind: 'subagent' })]);
    const ids = async (root: string) => (await gemini.discover(root)).map((f) => f.sessionId);
    const both = [SESSION, `${SESSION}:helper-1`];
    expect(await ids(home)).toEqual(both);
    expect(await ids(join(home, 'tmp'))).toEqual(both);
    expect(await ids(join(home, 'tmp', 'demo-app'))).toEqual(both);
    expect(await ids(chats)).toEqual(both);
    expect(await ids(join(chats, SESSION))).toEqual([`${SESSION}:helper-1`]);
    const sub = (await gemini.discover(home))[1]!;
    expect(sub.facts![0]).toMatchObject({ id: `${SESSION}:helper-1`, kind: 'subagent', parentId: SESSION, project: 'demo-app', attrs: { agentSessionId: 'helper-1' } });
  });

  it('keeps a .json chat the CLI migrated to .jsonl as evidence only, and a second file of one session too', async () => {
    const { home, chats } = geminiHome();
    writeDocument(chats, 'session-2026-03-01T10-00-11111111.json', [user('u1', 'hi', '2026-03-01T10:00:01.000Z')]);
    writeChat(chats, 'session-2026-03-01T10-00-11111111.jsonl', chat);
    writeChat(chats, 'session-2026-03-02T09-00-11111111.jsonl', chat);
    const notes: Defect[] = [];
    const files = await gemini.discover(home, notes);
    expect(files.map((f) => [f.relPath.split('/').pop(), f.ledger, f.evidenceOnly ?? false])).toEqual([
      ['session-2026-03-01T10-00-11111111.json', 'chat-legacy', true],
      ['session-2026-03-01T10-00-11111111.jsonl', 'chat', false],
      ['session-2026-03-02T09-00-11111111.jsonl', 'chat-copy-session-2026-03-02T09-00-11111111', true],
    ]);
    expect(files.flatMap((f) => f.notes ?? []).map((n) => [n.severity, n.kind])).toEqual([
      ['info', 'migrated_session_file'],
      ['warning', 'duplicate_session_file'],
    ]);
    expect(notes).toEqual([]);
  });

  it('names a chat whose first bytes hold no session id after its file, and says so', async () => {
    const { home, chats } = geminiHome();
    writeChat(chats, 'session-2026-03-01T10-00-abcdef12.jsonl', [user('u1', 'hi', '2026-03-01T10:00:01.000Z')]);
    const [file] = await gemini.discover(home);
    expect(file!.sessionId).toBe('session-2026-03-01T10-00-abcdef12');
    expect(file!.notes).toEqual([expect.objectContaining({ severity: 'warning', kind: 'session_id_from_name' })]);
  });

  it('ingests one chat file given as a path', async () => {
    const { chats } = geminiHome();
    const path = writeChat(chats, 'session-2026-03-01T10-00-11111111.jsonl', chat);
    writeChat(chats, 'session-2026-03-02T10-00-22222222.jsonl', [header({ sessionId: 'other' })]);
    const store = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
    const summary = await ingestPaths(store, [path]);
    expect(summary.roots).toEqual([expect.objectContaining({ format: 'gemini' })]);
    expect((await store.listSessions({ limit: 10, offset: 0 })).sessions.map((s) => s.id)).toEqual([SESSION]);
  });
});

describe('Gemini detection', () => {
  it('claims Gemini homes, tmp folders, project and chats folders and chat files', async () => {
    const { home, chats } = geminiHome();
    const file = writeChat(chats, 'session-2026-03-01T10-00-11111111.jsonl', chat);
    for (const path of [home, join(home, 'tmp'), join(home, 'tmp', PROJECT_HASH), chats, file, join(SAMPLES, 'tmp')]) {
      expect(await gemini.detect(path), path).toBe(true);
      expect(await detectFormat(path), path).toBe('gemini');
    }
  });

  it('does not claim the other formats\' roots, an empty home, or a file merely named like a chat', async () => {
    const other = tempDir('hs-not-gemini-');
    mkdirSync(join(other, 'tmp', 'x', 'chats'), { recursive: true });
    writeFileSync(join(other, 'tmp', 'x', 'chats', 'session-1.json'), '{"messages": []}');
    for (const path of [join(FIXTURES, 'claude-code'), join(FIXTURES, 'amplifier', 'normal'), join(FIXTURES, 'control-plane'), other, join(other, 'tmp', 'x', 'chats', 'session-1.json'), tempDir('hs-empty-')]) {
      expect(await gemini.detect(path), path).toBe(false);
    }
  });
});

describe('Gemini default roots', () => {
  it('uses GEMINI_DATA_DIR (a comma-separated list, missing folders skipped) when set, else ~/.gemini with its tmp/', async () => {
    const { home } = geminiHome();
    const fake = tempDir('hs-home-');
    mkdirSync(join(fake, '.gemini', 'tmp'), { recursive: true });
    expect(await gemini.defaultRoots({ GEMINI_DATA_DIR: `${join(home, 'tmp')}, /nowhere/at/all` }, fake)).toEqual([join(home, 'tmp')]);
    expect(await gemini.defaultRoots({}, fake)).toEqual([join(fake, '.gemini')]);
    expect(await gemini.defaultRoots({}, tempDir('hs-home-'))).toEqual([]);
  });
});
