// `hindsight chat --resume ID`: the conversation of a recorded runtime session, rebuilt from its
// evidence (the session's JSONL file) — messages and tool results in order, so the model sees what
// it saw before. The store is not needed: the file is the record.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RuntimeRecord } from '../../formats/hindsight/records.js';
import type { ChatMessage } from '../model/chat.js';

/** Every session file under the runtime's sessions root whose id starts with `prefix`. */
export function findSessionFiles(sessionsRoot: string, prefix: string): string[] {
  const found: string[] = [];
  const walk = (dir: string, depth: number): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.isDirectory() && depth < 4) walk(join(dir, e.name), depth + 1);
      else if (e.isFile() && e.name.endsWith('.jsonl') && e.name.startsWith(prefix)) found.push(join(dir, e.name));
    }
  };
  walk(sessionsRoot, 0);
  return found.sort();
}

export interface ResumedSession {
  sessionId: string;
  path: string;
  messages: ChatMessage[];
  turns: number;
}

/** The messages of a recorded session; an unreadable line is skipped (it cannot be part of the conversation). */
export function readRecordedConversation(path: string): ResumedSession {
  const messages: ChatMessage[] = [];
  let sessionId = '';
  let turns = 0;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    let rec: RuntimeRecord;
    try {
      rec = JSON.parse(line) as RuntimeRecord;
    } catch {
      continue;
    }
    if (rec.type === 'session_start') sessionId = rec.session_id;
    else if (rec.type === 'message') {
      if (rec.role === 'assistant') {
        messages.push({
          role: 'assistant',
          content: rec.content,
          ...(rec.tool_calls?.length ? { toolCalls: rec.tool_calls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })) } : {}),
        });
      } else messages.push({ role: rec.role, content: rec.content });
    } else if (rec.type === 'tool_result') {
      messages.push({ role: 'tool', toolCallId: rec.call_id, name: rec.name, content: rec.content, ...(rec.is_error ? { isError: true } : {}) });
    } else if (rec.type === 'turn_end') turns = Math.max(turns, rec.turn);
  }
  return { sessionId, path, messages: withAnsweredCalls(messages), turns };
}

/**
 * A session killed mid-step can end with tool calls that have no result; the provider would
 * refuse such a conversation, so each unanswered call gets a result saying it was interrupted.
 */
function withAnsweredCalls(messages: ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    out.push(m);
    if (m.role !== 'assistant' || !m.toolCalls?.length) continue;
    const answered = new Set<string>();
    for (let j = i + 1; j < messages.length && messages[j]!.role === 'tool'; j++) answered.add((messages[j] as { toolCallId: string }).toolCallId);
    const missing = m.toolCalls.filter((c) => !answered.has(c.id));
    // Results follow their call's message directly; the unanswered ones go after the answered ones.
    let k = i + 1;
    while (k < messages.length && messages[k]!.role === 'tool') out.push(messages[k++]!);
    for (const c of missing) out.push({ role: 'tool', toolCallId: c.id, name: c.name, content: 'not run: the session stopped before this call finished', isError: true });
    i = k - 1;
  }
  return out;
}
