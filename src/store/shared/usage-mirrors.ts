// Mirrored LLM calls: Claude Code writes a sub-agent's messages, usage included, both into the
// sub-agent's own file (a child session) and into the parent's `progress` lines. The importer keeps
// a mirror's usage (src/formats/claude-code/usage.ts), because when the sub-agent's file is
// absent the mirror is the only record of the call; before summarising, the writer drops the usage
// of every mirror whose call (message.id:requestId) a child session records itself. Each API
// response then counts once in the session tree wherever it was written — the rule ccusage's daily
// report follows (formats.md, "Token usage traps"). Dropping is one-way: a call a child recorded
// once stays the child's.
//
// The statements are plain SQL that SQLite and PostgreSQL both run as written, so the two engines
// decide alike (the conformance suite compares them).

/**
 * Parents of changed Claude Code sessions are summarised again: a child that now records a call
 * may cover a mirror of its parent (the parent's file may not have changed).
 */
export const MARK_MIRROR_PARENTS_DIRTY = `UPDATE sessions SET dirty = 1
WHERE dirty = 0 AND format = 'claude-code'
  AND id IN (SELECT parent_id FROM sessions WHERE dirty = 1 AND parent_id IS NOT NULL)`;

/** A mirror: the usage of a progress line (stored under its own usage_key, see compactUsageKey). */
const MIRROR = `type = 'progress' AND tok_in IS NOT NULL AND usage_key IS NOT NULL`;

/** Drop the usage of the changed sessions' mirrors whose call a child session records on its own line. */
export const DROP_COVERED_MIRRORS = `UPDATE events SET tok_in = NULL, tok_out = NULL, tok_cw = NULL, tok_cr = NULL
WHERE ${MIRROR}
  AND sid IN (SELECT sid FROM sessions WHERE dirty = 1 AND format = 'claude-code')
  AND usage_key IN (
    SELECT child_event.message_id || ':' || child_event.request_id
    FROM sessions parent
    JOIN sessions child ON child.parent_id = parent.id
    JOIN events child_event ON child_event.sid = child.sid
    WHERE parent.dirty = 1 AND parent.format = 'claude-code'
      AND child_event.tok_in IS NOT NULL AND child_event.type <> 'progress'
      AND child_event.message_id IS NOT NULL AND child_event.request_id IS NOT NULL
  )`;

interface MirrorEvent {
  type: string;
  usage: { key: string } | null;
  ids: { message?: string | undefined; request?: string | undefined };
}

/**
 * The same rule in memory, for a pipeline without a store (the importers' test harness): the
 * usage of a mirror is dropped when a child session records its call.
 */
export function dropCoveredMirrors(sessions: ReadonlyMap<string, { parentId: string | null; events: MirrorEvent[] }>): void {
  const childCalls = new Map<string, Set<string>>();
  for (const s of sessions.values()) {
    if (s.parentId === null) continue;
    const keys = childCalls.get(s.parentId) ?? new Set<string>();
    for (const e of s.events) if (e.usage && e.type !== 'progress' && e.ids.message !== undefined && e.ids.request !== undefined) keys.add(`${e.ids.message}:${e.ids.request}`);
    childCalls.set(s.parentId, keys);
  }
  for (const [id, s] of sessions) {
    const covered = childCalls.get(id);
    if (!covered) continue;
    for (const e of s.events) if (e.type === 'progress' && e.usage && covered.has(e.usage.key)) e.usage = null;
  }
}
