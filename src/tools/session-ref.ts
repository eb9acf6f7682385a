// Resolving what a caller typed as a session: a full id, or a unique prefix of one (the analyst
// seed's "full or partial session ID"). Every analyst tool resolves through here so that an
// ambiguous or unknown reference fails the same way everywhere.

import { defineError, SessionNotFound } from '../core/errors.js';
import type { SessionRow, Store } from '../store/store.js';

/** Shortest prefix accepted: shorter ones match too much to be a reference. */
export const MIN_PREFIX = 4;
/** Candidates named in an AMBIGUOUS_SESSION message. */
export const MAX_CANDIDATES = 10;
const PAGE = 1000;

export const AmbiguousSession = defineError(
  'AMBIGUOUS_SESSION',
  (prefix: string, candidates: string[], total: number) =>
    `"${prefix}" is the start of ${total} session ids: ${candidates.join(', ')}${total > candidates.length ? `, … (${total - candidates.length} more)` : ''}. Pass more characters of the id.`,
);

/** Same code as SessionNotFound; the message also says how prefixes work. */
const PrefixNotFound = defineError(
  SessionNotFound.code,
  (ref: string) =>
    `No session has the id "${ref}" or an id starting with it (a prefix needs at least ${MIN_PREFIX} characters). Run list_sessions to see the ids, or ingest its logs first.`,
);

/**
 * Sessions whose id starts with `prefix`, in id order, at most `limit`, and how many match.
 * Pages over store.listSessions (every session is read): a store-side `id LIKE prefix%` would
 * make this one indexed query.
 */
export async function findSessionsByPrefix(store: Store, prefix: string, limit: number): Promise<{ total: number; sessions: SessionRow[] }> {
  const matches: SessionRow[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const { total, sessions } = await store.listSessions({ limit: PAGE, offset });
    for (const s of sessions) if (s.id.startsWith(prefix)) matches.push(s);
    if (sessions.length === 0 || offset + sessions.length >= total) break;
  }
  matches.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { total: matches.length, sessions: matches.slice(0, limit) };
}

/**
 * Matches that are not sub-agents of another match. A Claude Code sub-agent's id is
 * `<parent>:<agentId>`, so a prefix of the parent also matches its sub-agents; the caller meant
 * the parent, whose own id the prefix is the start of.
 */
function outermost(matches: SessionRow[]): SessionRow[] {
  const ids = new Set(matches.map((m) => m.id));
  return matches.filter((m) => {
    for (let i = m.id.indexOf(':'); i !== -1; i = m.id.indexOf(':', i + 1)) if (ids.has(m.id.slice(0, i))) return false;
    return true;
  });
}

/**
 * The session `ref` names: its exact id, else the one session whose id starts with it (sub-agents
 * of that session aside). Throws SESSION_NOT_FOUND or AMBIGUOUS_SESSION (listing candidates).
 */
export async function resolveSession(store: Store, ref: string): Promise<SessionRow> {
  const exact = await store.getSession(ref);
  if (exact) return exact;
  const prefix = ref.trim();
  if (prefix.length < MIN_PREFIX) throw PrefixNotFound(ref);
  const { sessions } = await findSessionsByPrefix(store, prefix, Number.MAX_SAFE_INTEGER);
  const top = outermost(sessions);
  if (top.length === 1) return top[0]!;
  if (top.length === 0) throw PrefixNotFound(ref);
  throw AmbiguousSession(prefix, top.slice(0, MAX_CANDIDATES).map((s) => s.id), top.length);
}
