// Finding OpenCode data: which folders are OpenCode's (and not another format's), the default
// locations, and the storage/ copies an upgrade leaves beside the database (the database wins).

import Database from 'better-sqlite3';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, tempDir } from '../../../test/helpers.js';
import { runImporter } from '../../ingest/harness.js';
import { ingestPaths } from '../../ingest/ingest.js';
import { openStore } from '../../store/open.js';
import { openCode } from './index.js';
import { makeHome, tool } from './test-home.js';

describe('detect', () => {
  it('claims data folders (database or storage/) and a storage/ folder, and nothing else', async () => {
    const db = makeHome({ seed: 1, sessions: 1 }).home;
    const legacy = makeHome({ seed: 1, sessions: 1, layout: 'storage' }).home;
    expect(await openCode.detect(db)).toBe(true);
    expect(await openCode.detect(legacy)).toBe(true);
    expect(await openCode.detect(join(legacy, 'storage'))).toBe(true);
    expect(await openCode.detect(join(db, 'opencode.db'))).toBe(false);
    for (const other of ['claude-code', 'amplifier', 'control-plane/normal', 'other-agents/codex', 'other-agents/gemini']) {
      expect(await openCode.detect(join(FIXTURES, other)), other).toBe(false);
    }
    const channel = tempDir('hs-oc-channel-');
    writeFileSync(join(channel, 'opencode-beta.db'), '');
    expect(await openCode.detect(channel)).toBe(true);
    expect(await openCode.detect(tempDir('hs-oc-empty-'))).toBe(false);
  });

  it('finds $OPENCODE_DATA_DIR, $XDG_DATA_HOME/opencode and ~/.local/share/opencode, when they hold data', async () => {
    const fake = tempDir('hs-oc-home-');
    const inHome = join(fake, '.local', 'share', 'opencode');
    mkdirSync(inHome, { recursive: true });
    writeFileSync(join(inHome, 'opencode.db'), '');
    const explicit = makeHome({ seed: 2, sessions: 1 }).home;
    expect(await openCode.defaultRoots({}, fake)).toEqual([inHome]);
    expect(await openCode.defaultRoots({ OPENCODE_DATA_DIR: explicit }, fake)).toEqual([explicit, inHome]);
    const xdg = tempDir('hs-oc-xdg-');
    mkdirSync(join(xdg, 'opencode', 'storage', 'session'), { recursive: true });
    expect(await openCode.defaultRoots({ XDG_DATA_HOME: xdg }, tempDir('hs-oc-nohome-'))).toEqual([join(xdg, 'opencode')]);
    expect(await openCode.defaultRoots({ OPENCODE_DATA_DIR: join(fake, 'missing') }, tempDir('hs-oc-nohome-'))).toEqual([]);
  });
});

describe('the database and the storage/ copies beside it', () => {
  it('keeps storage/ records the database holds as evidence only, and reads the ones it does not', async () => {
    const { home } = makeHome({ seed: 21, sessions: 4, layout: 'both' });
    // A session that only the old storage/ still has: deleted from the database since.
    const db = new Database(join(home, 'opencode.db'));
    const gone = (db.prepare('SELECT id FROM session WHERE parent_id IS NULL ORDER BY time_created LIMIT 1').get() as { id: string }).id;
    db.prepare('DELETE FROM part WHERE session_id = ?').run(gone);
    db.prepare('DELETE FROM message WHERE session_id = ?').run(gone);
    db.prepare('DELETE FROM session WHERE id = ? OR parent_id = ?').run(gone, gone);
    db.close();
    const r = await runImporter(openCode, home);
    const storage = r.files.filter((f) => f.relPath.startsWith('storage/'));
    expect(storage.length).toBeGreaterThan(0);
    for (const f of storage) expect(f.evidenceOnly === true, f.relPath).toBe(f.sessionId !== gone);
    expect(r.defects.some((d) => d.kind === 'storage_copy_of_database')).toBe(true);
    expect(r.sessions.get(gone)!.summary.turnCount).toBeGreaterThan(0);
    // Each session's calls counted once: as many LLM calls as assistant messages with tokens, whatever the copies.
    for (const [id, s] of r.sessions) expect(s.summary.llmCalls, id).toBe(r.events.filter((e) => e.sessionId === id && e.kind === 'llm_call').length);
  });

  it('is what `hindsight ingest <data folder>` finds without being told the format', async () => {
    const { home } = makeHome({ seed: 22, sessions: 2, layout: 'both' });
    const store = await openStore({ db: join(tempDir('hs-oc-db-'), 'h.db') });
    const summary = await ingestPaths(store, [home]);
    expect(summary.roots).toEqual([{ path: home, format: 'opencode' }]);
    const listed = (await tool(store, 'list_sessions', {})).sessions as { format: string }[];
    expect(listed.length).toBe(2);
    expect(listed.every((s) => s.format === 'opencode')).toBe(true);
    const legacy = makeHome({ seed: 23, sessions: 1, layout: 'storage' }).home;
    expect((await ingestPaths(store, [join(legacy, 'storage')])).roots).toEqual([{ path: join(legacy, 'storage'), format: 'opencode' }]);
  });
});
