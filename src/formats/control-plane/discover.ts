// Finds a plane root's ledger files (rotated segments, then the active file, per ledger), and
// the roots named by the environment. Reads only: a reader must never write into a plane root.

import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Defect } from '../../core/model.js';
import { entryProblemNote, ledgerEntryProblem } from '../entry-problems.js';
import type { SourceFile } from '../importer.js';
import { LEDGERS, ROOT_ENV, activeFileName, isLedgerFileName, isSegmentName, type LedgerSpec } from './layout.js';
import { chainOrder, readFileEdges } from './segment-order.js';

async function listDir(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch {
    return [];
  }
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/** True when `path` holds at least one ledger file (active or rotated) of any of the three ledgers. */
export async function isPlaneRoot(path: string): Promise<boolean> {
  for (const spec of LEDGERS) {
    const names = await listDir(join(path, ...spec.dir.split('/')));
    for (const name of names) {
      if (isLedgerFileName(spec, name) && (await isFile(join(path, ...spec.dir.split('/'), name)))) return true;
    }
  }
  return false;
}

/** Roots from HINDSIGHT_CP_ROOT (comma-separated) that exist as directories. */
export async function rootsFromEnv(env: NodeJS.ProcessEnv): Promise<string[]> {
  const out: string[] = [];
  for (const part of (env[ROOT_ENV] ?? '').split(',')) {
    const p = part.trim();
    if (p && (await isDirectory(p)) && !out.includes(resolve(p))) out.push(resolve(p));
  }
  return out;
}

async function ledgerFiles(root: string, spec: LedgerSpec, rootNotes?: Defect[]): Promise<SourceFile[]> {
  const dir = join(root, ...spec.dir.split('/'));
  const names = await listDir(dir);
  const segments = names.filter((n) => isSegmentName(spec, n)).sort();
  const ordered = [...segments];
  if (names.includes(activeFileName(spec))) ordered.push(activeFileName(spec));
  const files: SourceFile[] = [];
  for (const name of ordered) {
    const path = join(dir, name);
    const relPath = `${spec.dir}/${name}`;
    // A FIFO or a dangling symlink named like a ledger is skipped, and said so.
    const problem = await ledgerEntryProblem(path);
    if (problem) rootNotes?.push(entryProblemNote(problem, relPath));
    if (!(await isFile(path))) continue; // idx/ and friends are directories; never ledgers
    const notes: Defect[] = [];
    if (name !== activeFileName(spec)) {
      notes.push({
        severity: 'info',
        kind: 'rotated_segment',
        file: relPath,
        line: null,
        message: `rotated segment of the ${spec.name} ledger; its entries precede the active file's in the hash chain`,
        sessionId: null,
      });
    }
    files.push({ path, root, relPath, ledger: spec.name, ledgerRank: spec.rank, kind: 'jsonl', chainGroup: spec.name, notes });
  }
  return orderByChain(files);
}

/** Follow the chain when it disagrees with name order, and say so (decisions.md). */
function orderByChain(files: SourceFile[]): SourceFile[] {
  if (files.length < 2) return files;
  const byChain = chainOrder(files, (f) => readFileEdges(f.path));
  if (!byChain || byChain.every((f, i) => f === files[i])) return files;
  const first = byChain.find((f, i) => f !== files[i])!;
  first.notes = [
    ...(first.notes ?? []),
    {
      severity: 'warning',
      kind: 'segment_order_disagreement',
      file: first.relPath,
      line: null,
      message: `the hash chain orders this ledger's files as ${byChain.map((f) => f.relPath).join(' → ')}, not by name; read in chain order`,
      sessionId: null,
    },
  ];
  return byChain;
}

/**
 * Every ledger file under `root`, per ledger in chain order (name order when they agree):
 * ho2m, ho1m, governance.
 */
export async function discoverPlane(root: string, rootNotes?: Defect[]): Promise<SourceFile[]> {
  const abs = resolve(root);
  const out: SourceFile[] = [];
  for (const spec of LEDGERS) out.push(...(await ledgerFiles(abs, spec, rootNotes)));
  return out;
}
