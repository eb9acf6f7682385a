// Lines too large to parse whole (a pasted image, a huge tool result): project the type and the
// few ids found in the head with bounded scans, and keep a generic event in the timeline.
//
// Assistant and user lines write `type`, `uuid` and `timestamp` after the message, so the head
// rarely holds them: the event takes the position of the line before (no timestamp) and carries
// no usage (a known undercount, reported by the pipeline's oversized_line note).

import type { Json } from './json-access.js';

const LEADING_TYPE_RE = /^\s*\{\s*"type"\s*:\s*"([^"]{1,64})"/;
const ROLE_RE = /"role"\s*:\s*"(user|assistant)"/;
const KNOWN_TYPE_RE = /"type"\s*:\s*"(progress|system|summary|attachment|queue-operation|file-history-snapshot)"/;
const FIELD_RE = (name: string) => new RegExp(`"${name}"\\s*:\\s*"([^"]{1,200})"`);
const PARENT_RE = FIELD_RE('parentUuid');
const SESSION_RE = FIELD_RE('sessionId');
const AGENT_RE = FIELD_RE('agentId');
const MESSAGE_ID_RE = /"id"\s*:\s*"(msg_[A-Za-z0-9_-]{1,120})"/;

/** A stand-in for the parsed line, holding only what a bounded scan of the head can tell. */
export function projectHead(head: string): { obj: Json; type: string; messageId?: string } {
  const type = LEADING_TYPE_RE.exec(head)?.[1] ?? ROLE_RE.exec(head)?.[1] ?? KNOWN_TYPE_RE.exec(head)?.[1] ?? 'unknown';
  const obj: Json = { type };
  const parent = PARENT_RE.exec(head)?.[1];
  const session = SESSION_RE.exec(head)?.[1];
  const agent = AGENT_RE.exec(head)?.[1];
  if (parent !== undefined) obj.parentUuid = parent;
  if (session !== undefined) obj.sessionId = session;
  if (agent !== undefined) obj.agentId = agent;
  if (/"isSidechain"\s*:\s*true/.test(head.slice(0, 4096))) obj.isSidechain = true;
  const messageId = type === 'assistant' ? MESSAGE_ID_RE.exec(head)?.[1] : undefined;
  return messageId !== undefined ? { obj, type, messageId } : { obj, type };
}
