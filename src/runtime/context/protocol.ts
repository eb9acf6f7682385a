// The tool-call protocol every request must keep: an assistant message's tool calls are answered
// by tool messages placed right after it, one per call, and no tool message stands anywhere else.
// Providers reject a request that breaks this (an orphan call or result), so compaction cuts only
// at boundaries that keep each call with its results, and assembly repairs what a crash left.

import type { ChatMessage } from '../model/chat.js';

type ToolMessage = Extract<ChatMessage, { role: 'tool' }>;

/** The ids of the calls an assistant message makes (none for every other message). */
export function toolCallIds(message: ChatMessage): string[] {
  return message.role === 'assistant' && message.toolCalls ? message.toolCalls.map((c) => c.id) : [];
}

function hasToolCalls(message: ChatMessage): boolean {
  return message.role === 'assistant' && (message.toolCalls?.length ?? 0) > 0;
}

/** How many messages at the start are system messages (the head that compaction always keeps). */
export function leadingSystemCount(messages: readonly ChatMessage[]): number {
  let i = 0;
  while (i < messages.length && messages[i]!.role === 'system') i++;
  return i;
}

/**
 * The starts of the protocol units from `from` on: an assistant message with its tool results is
 * one unit, every other message is a unit alone. Cutting at a unit start never splits a call from
 * its results (on a conversation that keeps the protocol).
 */
export function unitStarts(messages: readonly ChatMessage[], from = 0): number[] {
  const starts: number[] = [];
  let i = from;
  while (i < messages.length) {
    starts.push(i);
    const m = messages[i]!;
    i++;
    if (hasToolCalls(m)) {
      const ids = new Set(toolCallIds(m));
      while (i < messages.length) {
        const next = messages[i]!;
        if (next.role !== 'tool' || !ids.has(next.toolCallId)) break;
        i++;
      }
    }
  }
  return starts;
}

/**
 * Whether keeping `messages[keepFrom..]` (with the leading system messages) keeps every kept tool
 * result with its call and every kept call with its results; the first kept message after the
 * system head is never a tool result.
 */
export function isProtocolSafeCompactionBoundary(messages: readonly ChatMessage[], keepFrom: number): boolean {
  const head = leadingSystemCount(messages);
  if (keepFrom < head) keepFrom = head;
  if (keepFrom >= messages.length) return true;
  if (messages[keepFrom]!.role === 'tool') return false;
  const droppedCalls = new Set<string>();
  const droppedResults = new Set<string>();
  for (let i = head; i < keepFrom; i++) {
    const m = messages[i]!;
    for (const id of toolCallIds(m)) droppedCalls.add(id);
    if (m.role === 'tool') droppedResults.add(m.toolCallId);
  }
  for (let i = keepFrom; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role === 'tool' && droppedCalls.has(m.toolCallId)) return false;
    for (const id of toolCallIds(m)) if (droppedResults.has(id)) return false;
  }
  return true;
}

/**
 * The nearest safe boundary at or before `keepFrom`: a boundary inside an assistant's tool results
 * moves back to that assistant message, so the pair is kept whole. A tool result with no call
 * before it (a broken conversation) is skipped forward instead, so it is never the first kept message.
 */
export function adjustKeepFromForToolIntegrity(messages: readonly ChatMessage[], keepFrom: number): number {
  const head = leadingSystemCount(messages);
  let k = Math.max(head, Math.min(keepFrom, messages.length));
  while (k < messages.length && !isProtocolSafeCompactionBoundary(messages, k)) {
    const owner = ownerOf(messages, k);
    if (owner !== null && owner >= head) {
      k = owner;
      continue;
    }
    k++;
  }
  return k;
}

/** The index of the assistant message whose call the tool message at `i` answers, or null. */
function ownerOf(messages: readonly ChatMessage[], i: number): number | null {
  const m = messages[i]!;
  if (m.role !== 'tool') {
    // A kept assistant whose results were dropped: the boundary is fine only past it.
    return null;
  }
  for (let j = i - 1; j >= 0; j--) {
    const p = messages[j]!;
    if (p.role === 'tool') continue;
    return toolCallIds(p).includes(m.toolCallId) ? j : null;
  }
  return null;
}

/**
 * Every way `messages` breaks the protocol, as sentences naming the message index (empty when it
 * keeps it). Strict: results must follow their assistant message directly, one per call.
 */
export function findPairingProblems(messages: readonly ChatMessage[]): string[] {
  const problems: string[] = [];
  let i = 0;
  while (i < messages.length) {
    const m = messages[i]!;
    if (m.role === 'tool') {
      problems.push(`message ${i}: tool result ${JSON.stringify(m.toolCallId)} does not follow the assistant message that called it`);
      i++;
      continue;
    }
    const at = i;
    i++;
    if (!hasToolCalls(m)) continue;
    // Counts, not a set: a model may repeat an id within one message, and then owes two results.
    const open = new Map<string, number>();
    for (const id of toolCallIds(m)) open.set(id, (open.get(id) ?? 0) + 1);
    while (i < messages.length && messages[i]!.role === 'tool') {
      const r = messages[i] as ToolMessage;
      const n = open.get(r.toolCallId) ?? 0;
      if (n > 0) open.set(r.toolCallId, n - 1);
      else problems.push(`message ${i}: tool result ${JSON.stringify(r.toolCallId)} answers no open call of message ${at}`);
      i++;
    }
    for (const [id, n] of open) if (n > 0) problems.push(`message ${at}: tool call ${JSON.stringify(id)} has no result after it`);
  }
  return problems;
}

/** The content of the result put in place of one a crash or an abort never wrote. */
export const MISSING_RESULT_TEXT = 'No result was recorded for this tool call (the step was interrupted before it finished).';

/**
 * `messages` with the protocol restored, the same array when it already holds: each call's result
 * is moved right after its assistant message (looked for up to the next assistant message), a call
 * without one gets an error result saying so, and tool messages that answer no call are dropped.
 */
export function repairToolPairing(messages: readonly ChatMessage[]): readonly ChatMessage[] {
  if (findPairingProblems(messages).length === 0) return messages;
  const out: ChatMessage[] = [];
  const used = new Set<number>();
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role === 'tool') continue;
    out.push(m);
    if (m.role !== 'assistant' || !m.toolCalls || m.toolCalls.length === 0) continue;
    for (const call of m.toolCalls) {
      let found: ToolMessage | null = null;
      for (let j = i + 1; j < messages.length; j++) {
        const r = messages[j]!;
        if (r.role === 'assistant') break;
        if (r.role === 'tool' && r.toolCallId === call.id && !used.has(j)) {
          used.add(j);
          found = r;
          break;
        }
      }
      out.push(found ?? { role: 'tool', toolCallId: call.id, name: call.name, content: MISSING_RESULT_TEXT, isError: true });
    }
  }
  return out;
}
