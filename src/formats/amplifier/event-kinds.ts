// Which EventKind each Amplifier hook event is. The native name stays in `type`; the kind is
// what tools filter and count on, so only one ledger may claim user turns, tool calls and usage.

import type { EventKind } from '../../core/model.js';

const EXACT: Record<string, EventKind> = {
  'session:start': 'session_start',
  'session:resume': 'session_start',
  // Logged first by a spawned sub-agent: its own start, with the parent in data.parent.
  'session:fork': 'session_start',
  'session:end': 'session_end',
  'prompt:submit': 'user_message',
  'llm:response': 'llm_call',
  'tool:pre': 'tool_call',
  'tool:post': 'tool_result',
  'tool:error': 'error',
  'provider:error': 'error',
  'provider:retry': 'warning',
  'provider:throttle': 'warning',
  'delegate:agent_spawned': 'subagent_start',
  'delegate:agent_completed': 'subagent_end',
  'context:compaction': 'compaction',
  'context:compact': 'compaction',
};

/** Lifecycle and plumbing: real, but neither conversation nor failure. */
const SYSTEM_PREFIXES = [
  'session:',
  'prompt:',
  'execution:',
  'orchestrator:',
  'cleanup:',
  'provider:',
  'llm:request',
  'mentions:',
  'artifact:',
  'delegate:',
  'cancel:',
  'context:',
  'approval:',
  'plan:',
  'policy:',
];

/**
 * The kind of an event record. ERROR-level records become `error` unless they are a tool call or
 * result (those must stay pairable); the level itself is kept in attrs for exact error counts.
 */
export function kindOf(event: string, level: string | undefined): EventKind {
  let kind: EventKind = EXACT[event] ?? 'other';
  if (kind === 'other' && SYSTEM_PREFIXES.some((p) => event.startsWith(p))) kind = 'system';
  if (level === 'ERROR' && kind !== 'tool_call' && kind !== 'tool_result') kind = 'error';
  return kind;
}
