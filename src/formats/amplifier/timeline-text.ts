// Amplifier rows in compact mode: transcript messages, and the events that log prompts, responses
// and streamed text blocks; compact mode replaces their text with what it is and how long it was.

import { asObj, type Obj } from '../shared/tool-summary.js';
import type { StoredEvent } from '../../core/events.js';
import { amplifierBlockOf } from './payload.js';

const TEXT_EVENTS = new Set(['prompt:submit', 'prompt:complete', 'content_block:end']);
const TEXT_KINDS = new Set(['user_message', 'assistant_message', 'thinking', 'system']);

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const sized = (label: string, text: string | undefined): string => (text === undefined ? label : `${label} (${text.length} chars)`);

export function amplifierIsText(e: StoredEvent): boolean {
  if (e.ledger !== 'events') return TEXT_KINDS.has(e.kind);
  // A streamed tool_use block names its tool; only text and thinking blocks are conversation.
  if (e.type === 'content_block:end') return e.attrs.blockType === undefined || /text|thinking/.test(String(e.attrs.blockType));
  return TEXT_EVENTS.has(e.type);
}

/** Text of a transcript message's content (a string or text blocks). */
function messageText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  return content.map((b) => str(asObj(b)?.text) ?? '').join('');
}

export function amplifierTextFreeSummary(e: StoredEvent, line: Obj | null): string {
  if (e.ledger === 'events') {
    const data = asObj(line?.data);
    if (e.type === 'prompt:submit') return sized('Prompt submitted', line ? str(data?.prompt) : undefined);
    if (e.type === 'prompt:complete') {
      const response = str(data?.response);
      return response === undefined ? 'Prompt complete' : `Prompt complete (response ${response.length} chars)`;
    }
    const block = asObj(data?.block);
    return sized(`${str(block?.type) ?? str(e.attrs.blockType) ?? 'Content'} block ended`, str(block?.text));
  }
  if (e.kind === 'user_message') return sized('User message', line ? messageText(line.content) : undefined);
  if (e.kind === 'system') {
    const label = e.attrs.systemReminder === true ? 'System reminder' : `${e.actor ?? 'system'} message`;
    return sized(label, line ? messageText(line.content) : undefined);
  }
  const block = line ? amplifierBlockOf(e, line) : undefined;
  const text = typeof block === 'string' ? block : (str(block?.text) ?? str(block?.thinking));
  return sized(e.kind === 'thinking' ? 'Thinking' : 'Assistant text', text);
}
