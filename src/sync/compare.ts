// Two machines' copies of one session compared file by file from their evidence: equal, one a
// prefix of the other, or diverged (neither is a prefix, or one side cut back lines the other kept).

import type { Store } from '../store/store.js';
import type { InvFile } from './inventory.js';

export type Relation = 'same' | 'local_longer' | 'cloud_longer' | 'diverged';

export interface FileDiff {
  /** The path from the session's own folder or file on (roots differ between machines). */
  file: string;
  local_lines: number;
  cloud_lines: number;
  /** The first line (1-based) whose bytes differ, null when one copy is a prefix of the other. */
  first_differing_line: number | null;
  relation: Relation;
}

export interface Comparison {
  relation: Relation;
  files: FileDiff[];
}

/** A file's path from the first segment that names the session (`-home-a-app/<id>.jsonl` and `-home-b-app/<id>.jsonl` are one file). */
export function keyPath(relPath: string, key: string): string {
  const parts = relPath.split('/');
  const i = parts.findIndex((p) => p.startsWith(key));
  return i < 0 ? relPath : parts.slice(i).join('/');
}

async function hashes(store: Store, fileId: number, lines: number): Promise<string[]> {
  const out: string[] = [];
  for (let from = 1; from <= lines; from += 5000) {
    for (const r of await store.rawLines([fileId], from, Math.min(5000, lines - from + 1))) out.push(r.hash);
  }
  return out;
}

interface Side {
  live: InvFile;
  /** The most lines any generation of this file ever had: more than the live one means it was cut back. */
  maxLines: number;
}

function sides(files: InvFile[], key: string): Map<string, Side> {
  const m = new Map<string, Side>();
  for (const f of files) {
    const p = keyPath(f.relPath, key);
    const s = m.get(p);
    if (!s) m.set(p, { live: f, maxLines: f.lines });
    else {
      if (f.generation > s.live.generation) s.live = f;
      s.maxLines = Math.max(s.maxLines, f.lines);
    }
  }
  return m;
}

/** Compare this machine's copy (in `local`) with another machine's (in `cloud`) of session `key`. */
export async function compareCopies(local: Store, localFiles: InvFile[], cloud: Store, cloudFiles: InvFile[], key: string): Promise<Comparison> {
  const a = sides(localFiles, key);
  const b = sides(cloudFiles, key);
  const files: FileDiff[] = [];
  for (const path of [...new Set([...a.keys(), ...b.keys()])].sort()) {
    const l = a.get(path);
    const c = b.get(path);
    const lh = l ? await hashes(local, l.live.fileId, l.live.lines) : [];
    const ch = c ? await hashes(cloud, c.live.fileId, c.live.lines) : [];
    let first: number | null = null;
    for (let i = 0; i < Math.min(lh.length, ch.length); i++) {
      if (lh[i] !== ch[i]) {
        first = i + 1;
        break;
      }
    }
    let relation: Relation = first !== null ? 'diverged' : lh.length === ch.length ? 'same' : lh.length > ch.length ? 'local_longer' : 'cloud_longer';
    // Longer than a copy that was cut back (rewound) means keeping lines the other side removed on purpose.
    if (relation === 'local_longer' && c && c.maxLines > c.live.lines) relation = 'diverged';
    if (relation === 'cloud_longer' && l && l.maxLines > l.live.lines) relation = 'diverged';
    if (relation === 'diverged' && first === null) first = Math.min(lh.length, ch.length) + 1;
    files.push({ file: path, local_lines: lh.length, cloud_lines: ch.length, first_differing_line: first, relation });
  }
  const rels = new Set(files.map((f) => f.relation));
  const relation: Relation =
    rels.has('diverged') || (rels.has('local_longer') && rels.has('cloud_longer'))
      ? 'diverged'
      : rels.has('local_longer')
        ? 'local_longer'
        : rels.has('cloud_longer')
          ? 'cloud_longer'
          : 'same';
  return { relation, files };
}
