// What a store holds, file by file: every generation of every file of every root, with the session
// it belongs to and its evidence line count — the raw material of push, pull and sync_status.

import type { Format } from '../core/model.js';
import type { Store } from '../store/store.js';
import { sessionKey } from './sync-state.js';

export interface InvFile {
  root: string;
  format: Format;
  fileId: number;
  relPath: string;
  sessionId: string | null;
  /** The sync key (top-level session id), null for files of no single session (Control Plane ledgers). */
  key: string | null;
  generation: number;
  superseded: boolean;
  lines: number;
  size: number;
  mtimeMs: number;
  /** Offset after the last complete line. */
  offset: number;
}

export interface InvRoot {
  path: string;
  format: Format;
  files: InvFile[];
}

const PAGE = 5000;

/** Every root of the store with its files; `onlyRoots` limits the work to some roots. */
export async function inventory(store: Store, onlyRoots?: (path: string) => boolean): Promise<InvRoot[]> {
  const roots = (await store.listRoots()).filter((r) => !onlyRoots || onlyRoots(r.path));
  // Session ids come from listFiles, file ids and offsets from rootLedgers: joined on (root, path, generation).
  const sessionOf = new Map<string, string | null>();
  const wanted = new Set(roots.map((r) => r.path));
  for (let offset = 0; ; offset += PAGE) {
    const { files } = await store.listFiles({ limit: PAGE, offset });
    for (const f of files) if (wanted.has(f.root)) sessionOf.set(`${f.root}\0${f.file}\0${f.generation}`, f.sessionId);
    if (files.length < PAGE) break;
  }
  const out: InvRoot[] = [];
  for (const r of roots) {
    const files: InvFile[] = [];
    for (const ledger of await store.rootLedgers(r.path)) {
      for (const f of ledger.files) {
        const sessionId = sessionOf.get(`${r.path}\0${f.relPath}\0${f.generation}`) ?? null;
        files.push({
          root: r.path,
          format: r.format,
          fileId: f.fileId,
          relPath: f.relPath,
          sessionId,
          key: sessionId === null ? null : sessionKey(sessionId),
          generation: f.generation,
          superseded: f.superseded,
          lines: f.lines,
          size: f.size,
          mtimeMs: f.mtimeMs,
          offset: f.offset,
        });
      }
    }
    files.sort((a, b) => (a.relPath < b.relPath ? -1 : a.relPath > b.relPath ? 1 : a.generation - b.generation));
    out.push({ path: r.path, format: r.format, files });
  }
  return out;
}

/** A root's files grouped by path, generations in order. */
export function byPath(files: InvFile[]): Map<string, InvFile[]> {
  const m = new Map<string, InvFile[]>();
  for (const f of files) {
    const list = m.get(f.relPath);
    if (list) list.push(f);
    else m.set(f.relPath, [f]);
  }
  for (const list of m.values()) list.sort((a, b) => a.generation - b.generation);
  return m;
}

/** Evidence lines per sync key (every generation counts: a rewrite adds lines, it never removes any). */
export function sequences(files: InvFile[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const f of files) if (f.key !== null) m.set(f.key, (m.get(f.key) ?? 0) + f.lines);
  return m;
}
