// Every OpenCode source under a data folder, in reading order: the database's sessions (row
// sources), then the storage/ documents (those the database also holds as evidence only). A
// folder holding `opencode.db/` as a folder is a sync mirror: the row sources written out as real
// JSONL files under the same names, read as files.

import { readdir, readFile } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import type { Defect } from '../../core/model.js';
import type { SourceFile } from '../importer.js';
import { discoverDatabase } from './db-discover.js';
import { compareNames, DB_NAME, LEDGER_RANK, MESSAGES_LEDGER, SESSION_LEDGER, STORAGE } from './layout.js';
import { databaseOf, isStorageFolder, typeOf } from './roots.js';
import { discoverStorage, type InDatabase } from './storage-discover.js';

/** The id of a message row line (`{"table":"message","id":"…"`), as sqlite-rows.ts writes it. */
const MESSAGE_ROW = /^\{"table":"message","id":"([^"\\]+)"/;

/**
 * Row sources a sync mirror wrote out as files: `opencode.db/{session,messages}/<id>.jsonl`, and
 * the sessions and messages they hold (so storage/ copies stay evidence only, as beside the database).
 */
async function mirroredRows(root: string): Promise<{ files: SourceFile[]; inDb: InDatabase }> {
  const byId = new Map<string, SourceFile[]>();
  const inDb = { sessionIds: new Set<string>(), messageIds: new Set<string>() };
  for (const ledger of [SESSION_LEDGER, MESSAGES_LEDGER]) {
    let names: string[] = [];
    try {
      names = await readdir(join(root, DB_NAME, ledger));
    } catch {
      continue;
    }
    for (const name of names.filter((n) => n.endsWith('.jsonl')).sort(compareNames)) {
      const id = name.slice(0, -'.jsonl'.length);
      const path = join(root, DB_NAME, ledger, name);
      const list = byId.get(id) ?? [];
      list.push({ path, root, relPath: `${DB_NAME}/${ledger}/${name}`, ledger, ledgerRank: LEDGER_RANK[ledger]!, sessionId: id, kind: 'jsonl' });
      byId.set(id, list);
      if (ledger === SESSION_LEDGER) inDb.sessionIds.add(id);
      else for (const line of (await readFile(path, 'utf8').catch(() => '')).split('\n')) {
        const m = MESSAGE_ROW.exec(line);
        if (m) inDb.messageIds.add(m[1]!);
      }
    }
  }
  return { files: [...byId.keys()].sort(compareNames).flatMap((id) => byId.get(id)!), inDb };
}

/**
 * @example await discoverOpenCode('/home/me/.local/share/opencode')
 */
export async function discoverOpenCode(root: string, rootNotes?: Defect[]): Promise<SourceFile[]> {
  const notes: Defect[] = [];
  const files: SourceFile[] = [];
  let inDb: InDatabase | null = null;
  const db = await databaseOf(root);
  if (db) {
    try {
      const found = discoverDatabase(root, db);
      files.push(...found.files);
      inDb = found;
    } catch (err) {
      notes.push({
        severity: 'error',
        kind: 'unreadable_database',
        file: relative(root, db).split('\\').join('/'),
        line: null,
        message: `cannot read the OpenCode database read-only: ${(err as Error).message}; its sessions are not ingested`,
      });
    }
  } else if ((await typeOf(join(root, DB_NAME))) === 'dir') {
    const mirrored = await mirroredRows(root);
    files.push(...mirrored.files);
    inDb = mirrored.inDb;
  }
  const storage = (await typeOf(join(root, STORAGE))) === 'dir' ? join(root, STORAGE) : basename(root) === STORAGE ? root : null;
  if (storage && (await isStorageFolder(storage))) files.push(...(await discoverStorage(root, storage, inDb, notes)));
  if (rootNotes) rootNotes.push(...notes);
  else if (notes.length > 0 && files[0]) files[0].notes = [...(files[0].notes ?? []), ...notes];
  return files;
}
