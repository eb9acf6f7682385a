// The `about` paragraph: what the session was about, in plain words, from the data alone (no
// LLM). Template sentences in a fixed order — how it started, what mostly happened, what went
// wrong, how it ended, compactions — so the same session always reads the same.

import type { SessionKind, SessionStatus } from '../../core/model.js';
import type { EndingFacts, FormatProfile } from '../../formats/profile.js';
import type { Problem } from './problems.js';
import { toolPhrases } from '../../analysis/tool-words.js';
import { capitalize, clipWords, codeWords, count, counted, listing, oneLine, times } from '../../analysis/words.js';

export interface AboutInput {
  /** The format's sentence for an errored session (its profile's hook). */
  erroredEnding: FormatProfile['erroredEnding'];
  /** The format's tool names in generic terms (its profile's toolAliases). */
  toolAliases?: FormatProfile['toolAliases'];
  kind: SessionKind;
  /** The sub-agent's name (agent type), when known. */
  agentName: string | null;
  parentId: string | null;
  status: SessionStatus;
  turnCount: number;
  /** First user message, cleaned and (unless asked otherwise) redacted. */
  firstUserMessage: string | null;
  workOrdersByType: Readonly<Record<string, number>>;
  /** Tool name → calls. */
  toolCalls: Readonly<Record<string, number>>;
  /** Names of the failed calls, in order. */
  failedTools: readonly string[];
  errors: readonly Problem[];
  warnings: readonly Problem[];
  ending: EndingFacts;
  compactions: number;
}

const QUOTE_CHARS = 120;
const REASON_CHARS = 160;
const NAMED_KINDS = 3;

/** Singular and plural words for the problem types a reader meets most. */
const LABELS: Readonly<Record<string, readonly [string, string]>> = {
  budget_warning: ['budget warning', 'budget warnings'],
  escalation: ['escalation', 'escalations'],
  prompt_rejected: ['rejected prompt', 'rejected prompts'],
  quality_gate_rejected: ['rejected quality-gate check', 'rejected quality-gate checks'],
  degradation: ['degradation', 'degradations'],
  provider_retry: ['provider retry', 'provider retries'],
  provider_throttle: ['provider throttling', 'provider throttlings'],
  provider_error: ['provider error', 'provider errors'],
  api_retry: ['API retry', 'API retries'],
  api_error: ['API error', 'API errors'],
  orchestrator_complete: ['failed orchestrator run', 'failed orchestrator runs'],
};

function label(type: string, severity: 'error' | 'warning'): readonly [string, string] {
  const known = LABELS[type];
  if (known) return known;
  const words = codeWords(type);
  const noun = /\b(error|warning|failure|retry)\b/.test(words) ? words : `${words} ${severity}`;
  return [noun, `${noun}s`];
}

const quote = (text: string) => `“${clipWords(oneLine(text), QUOTE_CHARS)}”`;
const stripEnd = (text: string) => text.replace(/[\s.!?;:,]+$/u, '');

/** Group equal keys, most frequent first, then by key: a stable order for lists in sentences. */
function tally(keys: readonly string[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

function namedList(groups: [string, number][], nounOf: (key: string, n: number) => string, rest: string): string {
  const shown = groups.slice(0, NAMED_KINDS).map(([k, n]) => nounOf(k, n));
  const others = groups.slice(NAMED_KINDS).reduce((sum, [, n]) => sum + n, 0);
  if (others > 0) shown.push(`${count(others)} ${rest}`);
  return listing(shown);
}

function opening(a: AboutInput): string {
  const message = a.firstUserMessage;
  if (a.kind === 'compaction') return 'The context-compaction helper was asked to summarise the conversation so far.';
  if (a.kind === 'subagent' || a.kind === 'sidechain') {
    const who = a.agentName ? `Sub-agent ${a.agentName}` : 'A sub-agent';
    return message ? `${who} was asked: ${quote(message)}.` : `${who} was started without a request.`;
  }
  const fork = a.kind === 'fork' && a.parentId ? `This session is a fork of ${a.parentId}. ` : '';
  if (a.turnCount === 0 || !message) return `${fork}The session has no user turns.`;
  const turns = a.turnCount > 1 ? ` (${counted(a.turnCount, 'turn')} in all)` : '';
  return `${fork}The user started with ${quote(message)}${turns}.`;
}

function activity(a: AboutInput): string | null {
  const woTypes = Object.entries(a.workOrdersByType);
  const woTotal = woTypes.reduce((sum, [, n]) => sum + n, 0);
  const wo = woTotal > 0 ? `ran ${listing(woTypes.map(([type, n]) => `${count(n)} ${type}`))} work order${woTotal === 1 ? '' : 's'}` : null;
  const tools = toolPhrases(a.toolCalls, a.toolAliases);
  if (wo && tools.length) return `It ${wo}; the agent ${listing(tools)}.`;
  if (wo) return `It ${wo}.`;
  if (tools.length) return `It ${listing(tools)}.`;
  const asked = a.kind === 'subagent' || a.kind === 'sidechain' ? a.firstUserMessage !== null : a.turnCount > 0;
  return asked ? 'No tools were called.' : null;
}

/** "One work order failed: budget exhausted." / "Three LLM calls failed: invalid request (2) and timeout (1)." */
function failures(noun: string, plural: string, problems: readonly Problem[]): string | null {
  if (problems.length === 0) return null;
  const codes = tally(problems.map((p) => (p.code ? codeWords(p.code) : '')).filter((c) => c !== ''));
  const head = capitalize(`${count(problems.length)} ${problems.length === 1 ? noun : plural} failed`);
  if (codes.length === 0) return `${head}.`;
  if (codes.length === 1) return `${head}: ${codes[0]![0]}.`;
  return `${head}: ${namedList(codes, (c, n) => `${c} (${n})`, 'with other codes')}.`;
}

/** "Two degradations, one provider error and three budget warnings occurred." (errors first) */
function occurred(errors: readonly Problem[], warnings: readonly Problem[]): string | null {
  const phrases = (list: readonly Problem[], severity: 'error' | 'warning') =>
    tally(list.map((p) => p.item.type)).map(([type, n]) => `${count(n)} ${label(type, severity)[n === 1 ? 0 : 1]}`);
  const all = [...phrases(errors, 'error'), ...phrases(warnings, 'warning')];
  if (all.length === 0) return null;
  const shown = all.length > NAMED_KINDS + 1 ? [...all.slice(0, NAMED_KINDS), 'other problems'] : all;
  return `${capitalize(listing(shown))} occurred.`;
}

/** Findings about the log files, in plain words (singular, plural). */
const LOG_LABELS: Readonly<Record<string, readonly [string, string]>> = {
  hash_mismatch: ['entry changed after it was written', 'entries changed after they were written'],
  previous_hash_mismatch: ['break in the hash chain', 'breaks in the hash chain'],
  chain_break: ['break in the hash chain', 'breaks in the hash chain'],
  missing_timestamp: ['entry without a timestamp', 'entries without a timestamp'],
  malformed_json: ['unreadable line', 'unreadable lines'],
  non_object_json: ['line that is not an object', 'lines that are not objects'],
  object_not_entry: ['line that is not an entry', 'lines that are not entries'],
  truncated_line: ['truncated line', 'truncated lines'],
  incomplete_last_line: ['unfinished last line', 'unfinished last lines'],
  invalid_utf8: ['line with invalid UTF-8', 'lines with invalid UTF-8'],
  recovered_record: ['recovered torn line', 'recovered torn lines'],
  rewind_backup: ['rewind backup (history was rewritten)', 'rewind backups (history was rewritten)'],
  transcript_shorter_than_events: ['transcript shorter than its event log', 'transcripts shorter than their event logs'],
  missing_metadata: ['missing metadata file', 'missing metadata files'],
  invalid_document_json: ['unreadable metadata file', 'unreadable metadata files'],
};

function logLabel(kind: string, n: number): string {
  const known = LOG_LABELS[kind];
  return `${count(n)} ${known ? known[n === 1 ? 0 : 1] : codeWords(kind)}`;
}

function problems(a: AboutInput): string[] {
  const out: (string | null)[] = [];
  const events = a.errors.filter((p) => p.origin === 'event');
  out.push(failures('work order', 'work orders', events.filter((p) => p.native === 'WO_FAILED')));
  out.push(failures('LLM call', 'LLM calls', events.filter((p) => p.native === 'EXCHANGE')));
  // A failed tool call is told once, as a failed tool call, even when it is also an error event.
  const otherErrors = events.filter((p) => p.native !== 'WO_FAILED' && p.native !== 'EXCHANGE' && !p.tool);
  out.push(occurred(otherErrors, a.warnings.filter((p) => p.origin === 'event')));
  if (a.failedTools.length > 0) {
    const names = [...new Set(a.failedTools)];
    const shown = names.length > NAMED_KINDS ? `${names.slice(0, NAMED_KINDS).join(', ')} and others` : listing(names);
    out.push(`${capitalize(counted(a.failedTools.length, 'tool call'))} failed (${shown}).`);
  }
  const logs = [...a.errors, ...a.warnings].filter((p) => p.origin === 'log');
  const orphans = logs.filter((p) => p.native === 'orphan_tool_call');
  const toldInEnding = a.status === 'interrupted' && a.ending.unansweredTool !== null;
  if (orphans.length > 0 && !(toldInEnding && orphans.length === 1)) {
    out.push(`${capitalize(counted(orphans.length, 'tool call'))} never got a result.`);
  }
  const other = tally(logs.filter((p) => p.native !== 'orphan_tool_call').map((p) => p.native));
  if (other.length > 0) {
    const n = other.reduce((sum, [, c]) => sum + c, 0);
    out.push(`The logs show ${counted(n, 'problem')}: ${namedList(other, logLabel, 'more')}.`);
  }
  return out.filter((s): s is string => s !== null);
}

function ending(a: AboutInput): string {
  const e = a.ending;
  switch (a.status) {
    case 'completed':
      return 'Session ended cleanly.';
    case 'active':
      return e.budgetExhausted ? 'It stopped when the budget was exhausted (no end recorded).' : 'It is still active (no end recorded).';
    case 'interrupted':
      if (e.unansweredTool) return `It was interrupted with an unanswered ${e.unansweredTool} call.`;
      return e.interruptedByUser ? 'The user interrupted it.' : 'It was interrupted.';
    case 'errored': {
      const reason = (text: string) => stripEnd(clipWords(oneLine(text), REASON_CHARS));
      const told = a.erroredEnding(e, reason);
      if (told !== null) return told;
      return e.lastError ? `It ended with an error: ${reason(e.lastError)}.` : 'It ended with an error.';
    }
  }
}

/**
 * The about paragraph. Deterministic: the same input gives the same string.
 *
 * @example about({ ...input, turnCount: 0, status: 'completed' }) // 'The session has no user turns. Session ended cleanly.'
 */
export function about(a: AboutInput): string {
  const sentences = [opening(a), activity(a), ...problems(a), ending(a)];
  if (a.compactions > 0) sentences.push(`The context was compacted ${times(a.compactions)}.`);
  return sentences.filter((s): s is string => s !== null && s !== '').join(' ');
}
