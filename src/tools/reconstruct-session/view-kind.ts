// What a reader of a timeline calls an event: user, assistant, thinking, tool, hook, agent, error,
// llm or system. One mapping for every format, so `hindsight timeline --kind`, the viewer's chips
// and reconstruct_session's `kinds` filter agree. Hooks are their own kind because a Claude Code
// transcript is mostly hook progress lines (110 of the first 200 rows of one real session).

import type { StoredEvent } from '../../core/events.js';
import type { FormatProfile } from '../../formats/profile.js';

export const VIEW_KINDS = ['user', 'assistant', 'thinking', 'tool', 'hook', 'agent', 'error', 'llm', 'system'] as const;
export type ViewKind = (typeof VIEW_KINDS)[number];

/** Every kind but hooks: what people see unless they ask for hooks. */
export const DEFAULT_VIEW_KINDS: readonly ViewKind[] = VIEW_KINDS.filter((k) => k !== 'hook');

/** Claude Code text wrappers the agent's harness wrote, not the person (user-text.ts names them). */
const HARNESS_WRAPPERS = new Set(['caveat', 'system-reminder', 'meta', 'empty', 'task-notification', 'compact-summary', 'local-command-output']);

/** The format decides hooks and mirrored sub-agent messages (its profile's viewKind); the event's kind the rest. */
export function viewKindOf(profile: FormatProfile, e: StoredEvent): ViewKind {
  const own = profile.viewKind(e);
  if (own !== null) return own;
  switch (e.kind) {
    case 'user_message':
      return typeof e.attrs.wrapper === 'string' && HARNESS_WRAPPERS.has(e.attrs.wrapper) ? 'system' : 'user';
    case 'assistant_message':
      return 'assistant';
    case 'thinking':
      return 'thinking';
    case 'tool_call':
    case 'tool_result':
      return 'tool';
    case 'subagent_start':
    case 'subagent_end':
      return 'agent';
    case 'error':
    case 'warning':
      return 'error';
    case 'llm_call':
      return 'llm';
    default:
      return 'system';
  }
}
