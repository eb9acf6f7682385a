// Sync's memory beside a SQLite store: the file `<db>.sync.json` (docs/sync.md), written to a
// temporary file then renamed, so a crash never leaves half a document.

import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { SyncStateSlot } from '../store.js';

export function syncStateFile(dbPath: string): SyncStateSlot {
  const file = `${dbPath}.sync.json`;
  return {
    async read() {
      try {
        return readFileSync(file, 'utf8');
      } catch {
        // Nothing synced yet (or an unreadable file: the remote holds the truth, the next sync rebuilds it).
        return null;
      }
    },
    async write(text) {
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, text);
      renameSync(tmp, file);
    },
  };
}
