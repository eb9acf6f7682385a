// Which ledger files a call means. One place decides it for every ledger tool: a Control Plane
// ledger by name (of the only plane root, of `root`, or of a session's plane root), or a Claude
// Code / Amplifier session's ledger by name. Live files only, in reading order (rotated segments
// first), so every row can name its file and its own line number.

import { z } from 'zod';
import { defineError, InvalidArguments, LedgerNotFound, SessionNotFound } from '../core/errors.js';
import type { Format } from '../core/model.js';
import type { FormatProfile, SharedLedgers } from '../formats/profile.js';
import { FORMATS, profileOf } from '../formats/registry.js';
import { sameRootPath } from '../ingest/root-path.js';
import type { LedgerInfo, SessionRow, Store } from '../store/store.js';

export const NoPlaneRoot = defineError('NO_PLANE_ROOT', (detail: string) => `No Control Plane root to read: ${detail}`);
export const AmbiguousRoot = defineError(
  'AMBIGUOUS_ROOT',
  (roots: string[]) => `Several Control Plane roots are in the store; pass root (one of: ${roots.join(', ')}) or a session_id.`,
);
export const UnknownLedger = defineError(
  'UNKNOWN_LEDGER',
  (ledger: string, valid: readonly string[]) => `Unknown ledger: ${ledger}. Valid: ${valid.join(', ')}.`,
);

/** The arguments every ledger tool takes to say which ledger it means (spread into its input). */
export const ledgerAddressArgs = {
  root: z
    .string()
    .min(1)
    .optional()
    .describe('Control Plane root as it was ingested (see `sources`); needed only when several plane roots are in the store.'),
  session_id: z
    .string()
    .min(1)
    .optional()
    .describe(
      "A session: for a Control Plane session, its plane root's ledger limited to that session's entries; for a session of any other format, its own ledgers (get_session lists them).",
    ),
};

export interface LedgerAddressArgs {
  ledger?: string | undefined;
  root?: string | undefined;
  session_id?: string | undefined;
}

export interface LedgerFile {
  fileId: number;
  /** Path relative to the root, as rows report it. */
  file: string;
  lines: number;
  /** The source file, and its size, mtime and complete-line offset when last ingested. */
  path: string;
  size: number;
  mtimeMs: number;
  offset: number;
}

export interface LedgerSelection {
  format: Format;
  /** The format's profile (how its lines read as entries). */
  profile: FormatProfile;
  /** The plane root (Control Plane) or the root the session was ingested from. */
  root: string | null;
  ledger: string;
  /** Every ledger name valid here (for messages and results). */
  ledgers: string[];
  session: SessionRow | null;
  /** Entries must be limited to this session: Control Plane ledgers are shared by all sessions of a root. */
  entrySessionId: string | null;
  files: LedgerFile[];
  fileIds: number[];
}

export interface ResolveOptions {
  /**
   * Ledger when none is named. `governance` (the seed's default of query_ledger): governance for
   * Control Plane, the main ledger for other sessions. `main`: the session's main ledger (ho2m
   * for Control Plane sessions), governance when there is no session.
   */
  defaultLedger: 'governance' | 'main';
}

/** `root` as the caller typed it against a stored (real) root path: symlinks resolved (ingest/root-path.ts). */
function sameRoot(given: string, stored: string): boolean {
  return sameRootPath(given, stored);
}

/** A format whose roots hold ledgers shared by every session (Control Plane), with its profile. */
interface SharedFormat {
  format: Format;
  profile: FormatProfile;
  shared: SharedLedgers;
}

/** Every registered format with shared ledgers, in registry order. */
async function sharedLedgerFormats(): Promise<SharedFormat[]> {
  const out: SharedFormat[] = [];
  for (const format of FORMATS) {
    const profile = await profileOf(format);
    if (profile.sharedLedgers) out.push({ format, profile, shared: profile.sharedLedgers });
  }
  return out;
}

/** True when the store holds a root of a format with shared ledgers (a plane root). */
export async function hasPlaneRoot(store: Store): Promise<boolean> {
  for (const f of await sharedLedgerFormats()) if ((await store.listRoots(f.format)).length > 0) return true;
  return false;
}

/** The ingested plane root a call means: `root`, the session's, or the only one in the store. */
export async function resolvePlaneRoot(
  store: Store,
  args: Pick<LedgerAddressArgs, 'root' | 'session_id'>,
): Promise<{ root: string; session: SessionRow | null; format: Format }> {
  const formats = await sharedLedgerFormats();
  const roots: { path: string; format: Format }[] = [];
  for (const f of formats) for (const r of await store.listRoots(f.format)) roots.push({ path: r.path, format: f.format });
  let session: SessionRow | null = null;
  if (args.session_id !== undefined) {
    session = await store.getSession(args.session_id);
    if (!session) throw SessionNotFound(args.session_id);
    if (!formats.some((f) => f.format === session!.format) || !session.root) {
      const labels = formats.map((f) => f.profile.label).join(' or ') || 'plane';
      throw NoPlaneRoot(`session ${args.session_id} is a ${session.format} session, not a ${labels} one.`);
    }
    if (args.root !== undefined && !sameRoot(args.root, session.root)) {
      throw InvalidArguments(`session ${session.id} belongs to the plane root ${session.root}, not ${args.root}; pass one of them.`);
    }
    return { root: session.root, session, format: session.format };
  }
  if (args.root !== undefined) {
    const found = roots.find((r) => sameRoot(args.root!, r.path));
    if (!found) throw NoPlaneRoot(`"${args.root}" is not an ingested plane root; known: ${roots.map((r) => r.path).join(', ') || '(none)'}.`);
    return { root: found.path, session: null, format: found.format };
  }
  if (roots.length === 0) throw NoPlaneRoot('none has been ingested (hindsight ingest PLANE_ROOT).');
  if (roots.length > 1) throw AmbiguousRoot(roots.map((r) => r.path));
  return { root: roots[0]!.path, session: null, format: roots[0]!.format };
}

const live = (files: LedgerInfo['files']): LedgerFile[] =>
  files
    .filter((f) => !f.superseded)
    .map((f) => ({ fileId: f.fileId, file: f.relPath, lines: f.lines, path: f.path, size: f.size, mtimeMs: f.mtimeMs, offset: f.offset }));

function selection(base: Omit<LedgerSelection, 'fileIds'>): LedgerSelection {
  return { ...base, fileIds: base.files.map((f) => f.fileId) };
}

/**
 * Resolve `{ledger, root, session_id}` to the live files of one ledger.
 *
 * @example
 * const sel = await resolveLedger(store, { ledger: 'ho2m' }, { defaultLedger: 'governance' });
 * await store.ledgerEntries({ fileIds: sel.fileIds, sessionId: sel.entrySessionId ?? undefined, offset: 0, limit: 10 });
 */
/** The session with this exact id and its ledgers (null: not read), in one read where the store has it. */
async function sessionAndLedgers(store: Store, id: string): Promise<[SessionRow | null, LedgerInfo[] | null]> {
  if (store.sessionWithLedgers) {
    // A failure is left to the reads it would have saved, which run again below.
    const both = await store.sessionWithLedgers(id).catch(() => null);
    if (both) return [both.session, both.ledgers];
  }
  return Promise.all([store.getSession(id), store.sessionLedgers(id).catch(() => null)]);
}

export async function resolveLedger(store: Store, args: LedgerAddressArgs, options: ResolveOptions): Promise<LedgerSelection> {
  // The session's own ledgers are read together with its row (on a server, one statement where the
  // store can, else two in parallel: never two round trips in turn): they need only the id. For a
  // session whose format shares ledgers by root (Control Plane) they are not used; a failure of
  // their read is left to the read it would have saved, which runs again.
  const [session, early] = args.session_id !== undefined ? await sessionAndLedgers(store, args.session_id) : [null, null];
  if (args.session_id !== undefined && !session) throw SessionNotFound(args.session_id);

  const profile = session ? await profileOf(session.format) : null;
  if (session && profile && !profile.sharedLedgers) {
    if (args.root !== undefined && session.root && !sameRoot(args.root, session.root)) {
      throw InvalidArguments(`session ${session.id} was ingested from ${session.root}, not ${args.root}; pass one of them.`);
    }
    // getSession matches the id exactly, so `early` is this session's (else read it again).
    const ledgers = early && session.id === args.session_id ? early : await store.sessionLedgers(session.id);
    const names = ledgers.map((l) => l.ledger);
    const main = session.mainLedger && names.includes(session.mainLedger) ? session.mainLedger : names[0];
    const wanted = args.ledger ?? main;
    const info = ledgers.find((l) => l.ledger === wanted);
    if (wanted === undefined || !info) throw LedgerNotFound(args.ledger ?? '(main)', session.id, names);
    return selection({ format: session.format, profile, root: session.root, ledger: wanted, ledgers: names, session, entrySessionId: null, files: live(info.files) });
  }

  // A plane ledger: the session's format, else the one format with shared ledgers that has this name.
  const formats = await sharedLedgerFormats();
  const plane = (session && formats.find((f) => f.format === session.format)) ?? formats.find((f) => args.ledger === undefined || f.shared.names.includes(args.ledger)) ?? formats[0];
  if (!plane) throw NoPlaneRoot('no format of this build keeps ledgers by root.');
  const { shared } = plane;
  // The default ledger first, then the others in the format's order: how messages and results list them.
  const valid = [shared.defaultLedger, ...shared.names.filter((n) => n !== shared.defaultLedger)];
  const ledger = args.ledger ?? (options.defaultLedger === 'main' && session ? (session.mainLedger ?? shared.mainLedger) : shared.defaultLedger);
  if (!valid.includes(ledger)) throw UnknownLedger(ledger, valid);
  const { root } = await resolvePlaneRoot(store, args);
  const info = (await store.rootLedgers(root)).find((l) => l.ledger === ledger);
  return selection({
    format: plane.format,
    profile: plane.profile,
    root,
    ledger,
    ledgers: valid,
    session,
    entrySessionId: session?.id ?? null,
    files: live(info?.files ?? []),
  });
}
