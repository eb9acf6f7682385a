// The overview's errors and warnings: error/warning events of the session, its failed tool calls
// (each once, as tool_error), and the findings about its logs (tampered entries, unanswered tool
// calls, bad lines) that name it. Each item cites its evidence (ledger, file, line) and carries a
// snake_case type the about paragraph groups by.

import type { Defect } from '../../core/model.js';
import { keyToIso } from '../../core/time.js';
import type { FailedCall } from '../../analysis/session-stats.js';
import type { StoredEvent } from '../../core/events.js';
import type { FormatProfile } from '../../formats/profile.js';
import { snakeCase } from '../../analysis/words.js';

export interface ProblemItem {
  type: string;
  message: string;
  timestamp: string | null;
  source: string | null;
  file: string | null;
  line_number: number | null;
  session_id: string;
  /** The tool the error is about (a failed call, a tool error event); null otherwise. */
  tool_name: string | null;
  tool_call_id: string | null;
}

/** What the about paragraph needs to group a problem (never in the output). */
export interface Problem {
  item: ProblemItem;
  /** 'event' for error/warning events; 'log' for findings about the log files. */
  origin: 'event' | 'log';
  /** Native event type ('WO_FAILED', 'tool:error', …) or the finding's kind. */
  native: string;
  /** The error code the writer gave (Control Plane error_code), when there is one. */
  code: string | null;
  /** The event names a tool (its failure is already told as a failed tool call). */
  tool: boolean;
  /** The event the item was made from (null for findings about the log files). */
  event: StoredEvent | null;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** The type of an error or warning event: the format's name for it (or its native type), in snake_case. */
export function problemType(profile: FormatProfile, e: StoredEvent): string {
  const named = profile.problemType(e);
  if (named !== null) return snakeCase(named);
  return snakeCase(e.type) || e.kind;
}

/** Where each event sits, so that a finding about a line takes that line's time and place in the order. */
function lineIndex(events: readonly StoredEvent[]): Map<string, { index: number; event: StoredEvent }> {
  const map = new Map<string, { index: number; event: StoredEvent }>();
  events.forEach((event, index) => {
    const key = `${event.file}#${event.lineNumber}`;
    if (!map.has(key)) map.set(key, { index, event });
  });
  return map;
}

export interface Problems {
  errors: Problem[];
  warnings: Problem[];
}

function eventProblem(type: string, e: StoredEvent): Problem {
  return {
    item: {
      type,
      message: e.summary,
      timestamp: keyToIso(e.tsKey),
      source: e.ledger,
      file: e.file,
      line_number: e.lineNumber,
      session_id: e.sessionId,
      tool_name: e.toolName,
      tool_call_id: e.ids.toolCall ?? null,
    },
    origin: 'event',
    native: e.type,
    code: str(e.attrs.error_code),
    tool: e.toolName !== null,
    event: e,
  };
}

/**
 * Errors and warnings in timeline order (findings about a line sit where that line's event is;
 * findings without one follow, by file and line). `failures` are the failed tool calls as the
 * tool counts tally them: each becomes one `tool_error` unless an error event already tells it,
 * so error_count and the failed-call count agree. `ledgerOf` maps a file to its ledger.
 */
export function collectProblems(
  profile: FormatProfile,
  sessionId: string,
  events: readonly StoredEvent[],
  defects: readonly Defect[],
  ledgerOf: (file: string) => string | null,
  failures: readonly FailedCall[] = [],
): Problems {
  const errors: [number, Problem][] = [];
  const warnings: [number, Problem][] = [];
  const position = new Map<StoredEvent, number>();
  const toldCalls = new Set<string>();
  events.forEach((e, index) => {
    position.set(e, index);
    if (e.kind !== 'error' && e.kind !== 'warning') return;
    if (e.kind === 'error' && e.ids.toolCall) toldCalls.add(e.ids.toolCall);
    (e.kind === 'error' ? errors : warnings).push([index, eventProblem(problemType(profile, e), e)]);
  });
  for (const f of failures) {
    if (f.event.kind === 'error' || (f.callId !== null && toldCalls.has(f.callId))) continue;
    const problem = eventProblem('tool_error', f.event);
    problem.item.tool_name = f.name;
    problem.tool = true; // told in the about paragraph as a failed tool call, never twice
    errors.push([position.get(f.event) ?? Number.MAX_SAFE_INTEGER, problem]);
  }
  const at = lineIndex(events);
  for (const d of defects) {
    if (d.severity === 'info') continue;
    const found = d.line !== null ? at.get(`${d.file}#${d.line}`) : undefined;
    const problem: Problem = {
      item: {
        type: snakeCase(d.kind),
        message: d.message,
        timestamp: keyToIso(found?.event.tsKey),
        source: ledgerOf(d.file),
        file: d.file || null,
        line_number: d.line,
        session_id: d.sessionId ?? sessionId,
        tool_name: null,
        tool_call_id: null,
      },
      origin: 'log',
      native: d.kind,
      code: null,
      tool: false,
      event: null,
    };
    (d.severity === 'error' ? errors : warnings).push([found ? found.index + 0.5 : Number.MAX_SAFE_INTEGER, problem]);
  }
  const cmp = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  const order = (a: [number, Problem], b: [number, Problem]) =>
    a[0] - b[0] ||
    cmp(a[1].item.file ?? '', b[1].item.file ?? '') ||
    (a[1].item.line_number ?? 0) - (b[1].item.line_number ?? 0) ||
    cmp(a[1].item.type, b[1].item.type);
  return { errors: errors.sort(order).map(([, p]) => p), warnings: warnings.sort(order).map(([, p]) => p) };
}
