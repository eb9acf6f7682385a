// Claude Code rows in compact mode: prompts, assistant text and thinking are content blocks, and
// queued prompts are queue-operation lines; compact mode replaces their text with what it is and
// how long it was.

import { asObj, type Obj } from '../shared/tool-summary.js';
import type { StoredEvent } from '../../core/events.js';
import { claudeBlockOf } from './payload.js';

const WRAPPER_LABELS: Record<string, string> = {
  command: 'Slash command',
  'local-command-output': 'Local command output',
  caveat: 'Local command caveat',
  'bash-input': 'Shell command',
  'bash-output': 'Shell output',
  'task-notification': 'Task notification',
  'system-reminder': 'System reminder',
  'compact-summary': 'Compaction summary',
  meta: 'Meta message',
  empty: 'Empty message',
};

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const sized = (label: string, text: string | undefined): string => (text === undefined ? label : `${label} (${text.length} chars)`);

export function claudeIsText(e: StoredEvent): boolean {
  if (e.type === 'queue-operation') return true;
  // An interruption marker is Claude Code's own words, and the one thing a reader must see.
  if (e.kind === 'user_message') return e.attrs.wrapper !== 'interrupt';
  return e.kind === 'assistant_message' || e.kind === 'thinking';
}

export function claudeTextFreeSummary(e: StoredEvent, line: Obj | null): string {
  if (e.type === 'queue-operation') {
    const op = str(e.attrs.operation) ?? '';
    const content = str(line?.content);
    return content === undefined ? `Queue ${op}`.trim() : sized(`Queue ${op}`.trim(), content);
  }
  const block = line ? asObj(claudeBlockOf(e, line)) : undefined;
  const text = str(block?.text) ?? str(block?.thinking);
  if (e.kind === 'user_message') {
    const wrapper = str(e.attrs.wrapper);
    return sized(wrapper ? (WRAPPER_LABELS[wrapper] ?? `${wrapper} text`) : 'User message', text);
  }
  if (e.kind === 'thinking') return sized(block?.type === 'redacted_thinking' ? 'Redacted thinking' : 'Thinking', text);
  return sized('Assistant text', text);
}
