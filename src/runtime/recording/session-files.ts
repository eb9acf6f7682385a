// Finding a recorded session's file again (resume): `<root>/YYYY/MM/DD/<id>.jsonl`, looked for
// in the date folders, newest first. Synchronous, like the rest of starting a recorder.

import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DATE_FOLDER } from '../../formats/hindsight/layout.js';

/** Date folders below the root: year, month, day. */
const DATE_LEVELS = 3;

function names(dir: string): string[] {
  try {
    return readdirSync(dir).sort().reverse();
  } catch {
    return [];
  }
}

/**
 * The path of session `sessionId`'s file relative to `root` (with `/`), or null when it has none.
 *
 * @example findSessionFile('/data/hindsight/sessions', '5f0c…') // '2026/05/11/5f0c….jsonl'
 */
export function findSessionFile(root: string, sessionId: string): string | null {
  const file = `${sessionId}.jsonl`;
  const search = (dir: string, rel: string[], depth: number): string | null => {
    const entries = names(dir);
    if (depth === DATE_LEVELS) return entries.includes(file) ? [...rel, file].join('/') : null;
    for (const name of entries.filter((n) => DATE_FOLDER.test(n))) {
      const found = search(join(dir, name), [...rel, name], depth + 1);
      if (found) return found;
    }
    return null;
  };
  return search(root, [], 0);
}
