// Verifies a ledger's hash chain entry by entry, carrying a small state across lines, appended
// lines (resume) and rotated segments (chain groups), so a break is reported where it happens.

import * as crypto from 'node:crypto';
import { createHash } from 'node:crypto';
import type { DefectInput } from '../importer.js';
import { canonicalPythonJson } from './python-json.js';

/** What the next entry of a ledger must link to. Kept small: it is saved with every checkpoint. */
export interface ChainState {
  v: 1;
  /** `entry_hash` of the last entry seen (null before the ledger's first entry). */
  lastHash: string | null;
  lastId: string | null;
  /** relPath of the file holding that entry (messages name it across segment boundaries). */
  lastFile: string | null;
  entries: number;
  breaks: number;
}

export function initialChainState(): ChainState {
  return { v: 1, lastHash: null, lastId: null, lastFile: null, entries: 0, breaks: 0 };
}

/** Accept a snapshot from resumeState / chainState, or start afresh when it is not ours. */
export function restoreChainState(value: unknown): ChainState | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Partial<ChainState>;
  if (v.v !== 1 || (v.lastHash !== null && typeof v.lastHash !== 'string')) return null;
  return {
    v: 1,
    lastHash: v.lastHash ?? null,
    lastId: typeof v.lastId === 'string' ? v.lastId : null,
    lastFile: typeof v.lastFile === 'string' ? v.lastFile : null,
    entries: typeof v.entries === 'number' ? v.entries : 0,
    breaks: typeof v.breaks === 'number' ? v.breaks : 0,
  };
}

/**
 * SHA-256 of the entry as the writer hashed it (Python json.dumps, sorted keys, without
 * `entry_hash`), or null when the raw text is not a JSON object.
 */
export function computeEntryHash(raw: string): string | null {
  let text: string;
  try {
    text = canonicalPythonJson(raw, 'entry_hash');
  } catch {
    return null;
  }
  return oneShot ? oneShot('sha256', text, 'hex') : createHash('sha256').update(text, 'utf8').digest('hex');
}

// The one-shot crypto.hash (Node >= 20.12) skips a Hash object per entry (strings are hashed as UTF-8).
const oneShot = (crypto as unknown as { hash?: (alg: string, data: string, enc: 'hex') => string }).hash;

const short = (h: string) => (h === '' ? '""' : `${h.slice(0, 12)}…`);

export interface EntryLink {
  id: string | null;
  previousHash: unknown;
  entryHash: unknown;
  /** The recomputed hash; null when it could not be computed (oversized line). */
  computed: string | null;
}

/**
 * Check one entry against the chain and advance the state. The stored `entry_hash` (not the
 * recomputed one) becomes what the next entry must link to: after a tampered hash the next
 * entry still names the true hash, and that broken link is itself a finding (the manifests'
 * `verify_chain_expected_failures`).
 */
export function verifyLink(state: ChainState, link: EntryLink, relPath: string, sessionId: string | null): DefectInput[] {
  const found: DefectInput[] = [];
  const stored = typeof link.entryHash === 'string' ? link.entryHash : null;
  const who = link.id ?? 'entry';
  if (stored === null) {
    found.push({ severity: 'error', kind: 'hash_mismatch', sessionId, message: `${who} has no entry_hash; the chain cannot vouch for it` });
  } else if (link.computed !== null && link.computed !== stored) {
    found.push({
      severity: 'error',
      kind: 'hash_mismatch',
      sessionId,
      message: `${who}: stored entry_hash ${short(stored)} but the entry hashes to ${short(link.computed)}; the entry or its hash was changed after it was written`,
    });
  }
  const expected = state.lastHash ?? '';
  if (link.previousHash !== expected) {
    const got = typeof link.previousHash === 'string' ? short(link.previousHash) : 'nothing';
    const before =
      state.lastHash === null
        ? 'an empty previous_hash (first entry of the ledger)'
        : `the entry_hash ${short(expected)} of ${state.lastId ?? 'the entry before'}${state.lastFile && state.lastFile !== relPath ? ` in ${state.lastFile}` : ''}`;
    found.push({
      severity: 'error',
      kind: 'previous_hash_mismatch',
      sessionId,
      message: `${who}: previous_hash is ${got} but should be ${before}; an entry was removed, inserted or altered before this one`,
    });
  }
  state.lastHash = stored ?? link.computed;
  state.lastId = link.id;
  state.lastFile = relPath;
  state.entries++;
  state.breaks += found.length;
  return found;
}
