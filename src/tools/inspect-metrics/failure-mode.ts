// Why a failed session failed, as a short label that groups well across sessions ("API error:
// overloaded_error", "interrupted during Bash", "DEGRADATION: budget exhausted"), taken from the
// session's last error, or from how it stopped when it was interrupted.

import type { SessionRow } from '../../store/store.js';
import type { StoredEvent } from '../../core/events.js';
import { isErrorEvent } from '../../analysis/session-events.js';
import { answeredToolCalls } from '../../analysis/session-stats.js';

const LABEL_CHARS = 80;

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

function clip(text: string): string {
  const one = text.replace(/\s+/g, ' ');
  return one.length > LABEL_CHARS ? `${one.slice(0, LABEL_CHARS - 1)}…` : one;
}

/** A stable label of one error event: its kind of failure, not its particulars (ids, paths). */
export function errorLabel(e: StoredEvent): string {
  if (e.attrs.apiError === true) return clip(`API error: ${str(e.attrs.errorType) ?? str(e.attrs.error) ?? e.summary.split(/[.:\n]/)[0] ?? 'unknown'}`);
  if (e.toolStatus === 'error') return `${e.toolName ?? 'tool'} failed`;
  const detail = str(e.attrs.errorType) ?? str(e.attrs.code) ?? str(e.attrs.reason)?.split(/[.\n]/)[0];
  return clip(detail ? `${e.type}: ${detail}` : e.type);
}

/** The failure mode of an errored or interrupted session from its own events; null otherwise. */
export function failureMode(session: Pick<SessionRow, 'status'>, events: readonly StoredEvent[]): string | null {
  if (session.status === 'interrupted') {
    const answered = answeredToolCalls(events);
    const pending = [...events].reverse().find((e) => e.kind === 'tool_call' && e.ids.toolCall !== undefined && !answered.has(e.ids.toolCall));
    if (pending) return `interrupted during ${pending.toolName ?? 'a tool call'}`;
    return 'interrupted by the user';
  }
  if (session.status !== 'errored') return null;
  const last = [...events].reverse().find(isErrorEvent);
  return last ? errorLabel(last) : 'errored (no error event recorded)';
}
