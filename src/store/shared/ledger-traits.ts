// How a format lays its ledgers out, asked of the format itself (never by its id): whether a
// root's ledger files hold many sessions (Control Plane: a session's ledgers are its root's files
// that name no session) and whether a child session's files are also its parent's ledgers (Claude
// Code's sub-agent files). An Amplifier sub-agent or fork is a folder of its own whose files carry
// the parent's ledger names: merging those would put a child's lines into the parent's transcript.

import { loadImporter, profileOf } from '../../formats/registry.js';

export interface LedgerTraits {
  /** The root's files that name no session are ledgers of every session of the root. */
  shared: boolean;
  /** Descendants' files are the session's ledgers too. */
  nested: boolean;
}

/** The traits of `format`; a format this build does not know (a newer store) has neither. */
export async function ledgerTraits(format: string): Promise<LedgerTraits> {
  const shared = (await profileOf(format)).sharedLedgers !== null;
  let nested = false;
  try {
    nested = (await loadImporter(format)).nestedChildLedgers === true;
  } catch {
    // An unknown format: its sessions still read, with their own files only.
  }
  return { shared, nested };
}

/**
 * The roots among `roots` that are projects of a scope (store.ts ProjectScope): named by one of
 * `projects`, and of a format whose root files are shared ledgers. Only such a root is a project: a
 * root of per-session files holds many projects, so naming its path gives nothing.
 */
export async function projectRoots<R extends { path: string; format: string }>(roots: readonly R[], projects: readonly string[]): Promise<R[]> {
  const named = roots.filter((r) => projects.includes(r.path));
  const shared = await Promise.all(named.map(async (r) => (await ledgerTraits(r.format)).shared));
  return named.filter((_, i) => shared[i]);
}
