// The summary that stands in for the messages compaction drops: a compact markdown block written
// from the messages alone (no model call), the same messages always giving the same text. It says
// what was asked, which tools ran and how often, which files were read, edited and written (from
// the calls' arguments), the errors seen, what the assistant decided and last said.

import { capText, groupDigits } from '../../analysis/text-cap.js';
import { clipWords, oneLine } from '../../analysis/words.js';
import type { ChatMessage, ToolCallRequest } from '../model/chat.js';
import { describeCall, pathsOf, toolActivity } from './tool-facts.js';

export const SUMMARY_HEADING = '## Summary of the earlier conversation';
/** The line that ends a summary; text after it in the same message is a user's own message. */
export const SUMMARY_END = '(end of summary)';

export type SummaryStyle = 'full' | 'short';

interface Limits {
  taskChars: number;
  tasksShown: number;
  filesShown: number;
  errorsShown: number;
  errorChars: number;
  decisionsShown: number;
  lastChars: number;
  earlierChars: number;
}

const LIMITS: Record<SummaryStyle, Limits> = {
  full: { taskChars: 300, tasksShown: 5, filesShown: 20, errorsShown: 5, errorChars: 160, decisionsShown: 5, lastChars: 400, earlierChars: 2_000 },
  short: { taskChars: 160, tasksShown: 2, filesShown: 8, errorsShown: 2, errorChars: 100, decisionsShown: 2, lastChars: 160, earlierChars: 500 },
};

/** The facts a summary is written from, gathered in one pass over the dropped messages. */
export interface SummaryFacts {
  messages: number;
  tasks: string[];
  /** Tool name → [calls, failed results]. */
  tools: Map<string, { calls: number; failed: number }>;
  filesRead: string[];
  filesEdited: string[];
  filesWritten: string[];
  errors: string[];
  decisions: string[];
  lastAssistant: string | null;
  /** Earlier summaries found among the dropped messages (a conversation compacted before). */
  earlier: string[];
}

// Sentences in which the assistant commits to a course: "I'll…", "Let's…", "Instead…", "Decided…".
const DECISION =
  /^(?:I(?:'ll| will| am going to|'m going to| decided| chose)|Let's|Let me|We(?:'ll| will| should)|Decided|Decision:|Plan:|The plan|Instead\b|Going with|Switching to)/i;

/** How many of the newest assistant answers are read for decisions. */
const DECISION_WINDOW = 20;

/** A message that holds an earlier summary, split into that summary and what followed it. */
export function splitSummary(content: string): { summary: string; rest: string } | null {
  if (!content.startsWith(SUMMARY_HEADING)) return null;
  const end = content.indexOf(SUMMARY_END);
  if (end < 0) return { summary: content, rest: '' };
  return { summary: content.slice(0, end).trimEnd(), rest: content.slice(end + SUMMARY_END.length).trim() };
}

function addUnique(list: string[], seen: Set<string>, values: readonly string[]): void {
  for (const v of values) {
    if (seen.has(v)) continue;
    seen.add(v);
    list.push(v);
  }
}

function firstLine(text: string): string {
  // Walks line by line without splitting the whole text (an error result can be megabytes).
  for (let start = 0; start < text.length; ) {
    const end = text.indexOf('\n', start);
    const line = text.slice(start, end < 0 ? text.length : end).trim();
    if (line !== '') return line;
    if (end < 0) break;
    start = end + 1;
  }
  return '';
}

/**
 * Gather the facts of `dropped` (the messages a compaction removes, system head excluded).
 * `maxDecisions` bounds the decisions kept (the newest), so that only the last assistant messages
 * are read sentence by sentence.
 */
export function gatherSummaryFacts(dropped: readonly ChatMessage[], maxDecisions = Number.POSITIVE_INFINITY): SummaryFacts {
  const facts: SummaryFacts = {
    messages: dropped.length,
    tasks: [],
    tools: new Map(),
    filesRead: [],
    filesEdited: [],
    filesWritten: [],
    errors: [],
    decisions: [],
    lastAssistant: null,
    earlier: [],
  };
  const seen = { read: new Set<string>(), edit: new Set<string>(), write: new Set<string>(), decision: new Set<string>() };
  const calls = new Map<string, ToolCallRequest>();
  for (const m of dropped) {
    switch (m.role) {
      case 'system':
        break;
      case 'user': {
        const split = splitSummary(m.content);
        if (split) facts.earlier.push(split.summary);
        const text = (split ? split.rest : m.content).trim();
        if (text !== '') facts.tasks.push(text);
        break;
      }
      case 'assistant': {
        for (const call of m.toolCalls ?? []) {
          calls.set(call.id, call);
          const t = facts.tools.get(call.name) ?? { calls: 0, failed: 0 };
          t.calls++;
          facts.tools.set(call.name, t);
          const activity = toolActivity(call.name);
          if (activity === 'read') addUnique(facts.filesRead, seen.read, pathsOf(call));
          else if (activity === 'edit') addUnique(facts.filesEdited, seen.edit, pathsOf(call));
          else if (activity === 'write') addUnique(facts.filesWritten, seen.write, pathsOf(call));
        }
        break;
      }
      case 'tool': {
        if (!m.isError) break;
        const call = calls.get(m.toolCallId);
        const t = facts.tools.get(m.name);
        if (t) t.failed++;
        const what = call ? describeCall(call) : m.name;
        facts.errors.push(`${what}: ${firstLine(m.content)}`);
        break;
      }
    }
  }
  // The last statement, and decisions newest first from the last few answers (older plans were
  // usually superseded, and reading every answer sentence by sentence is the slow part).
  const newestFirst: string[] = [];
  let answers = 0;
  for (let i = dropped.length - 1; i >= 0 && answers < DECISION_WINDOW && newestFirst.length < maxDecisions; i--) {
    const m = dropped[i]!;
    if (m.role !== 'assistant' || !m.content || m.content.trim() === '') continue;
    answers++;
    facts.lastAssistant ??= m.content.trim();
    const sentences = m.content.split(/(?<=[.!?])\s+|\n+/);
    for (let k = sentences.length - 1; k >= 0 && newestFirst.length < maxDecisions; k--) {
      const s = sentences[k]!.replace(/^[\s*#>-]+/, '').trim();
      if (s.length < 12 || !DECISION.test(s) || seen.decision.has(s)) continue;
      seen.decision.add(s);
      newestFirst.push(s);
    }
  }
  facts.decisions = newestFirst.reverse();
  return facts;
}

// Cut first (generously: folding whitespace only shortens), so a long message is not folded whole.
const quoted = (text: string, max: number) => `“${clipWords(oneLine(text.slice(0, max * 4)), max)}”`;

function fileLine(label: string, files: readonly string[], shown: number): string | null {
  if (files.length === 0) return null;
  const more = files.length > shown ? ` (+${files.length - shown} more)` : '';
  return `- ${label}: ${files.slice(0, shown).join(', ')}${more}`;
}

/** The newest `n` items, with how many older ones were left out. */
function newest<T>(items: readonly T[], n: number): { shown: readonly T[]; older: number } {
  return items.length <= n ? { shown: items, older: 0 } : { shown: items.slice(items.length - n), older: items.length - n };
}

/**
 * The summary block for `dropped`. `tokens` is what the dropped messages held (said in the
 * heading). `short` is stage 3's: fewer and shorter items.
 */
export function buildCompactionSummary(dropped: readonly ChatMessage[], options: { tokens: number; style?: SummaryStyle }): string {
  const style = options.style ?? 'full';
  const lim = LIMITS[style];
  const f = gatherSummaryFacts(dropped, lim.decisionsShown);
  const out: string[] = [
    SUMMARY_HEADING,
    `(${groupDigits(f.messages)} earlier message${f.messages === 1 ? '' : 's'}, about ${groupDigits(options.tokens)} tokens, were replaced by this summary, written from them without a model; the session record keeps them in full.)`,
  ];
  if (f.earlier.length > 0) {
    // Only the newest earlier summary: it already carries the ones before it.
    const body = f.earlier[f.earlier.length - 1]!.slice(SUMMARY_HEADING.length).trim();
    out.push('', '### Before that', capText(body, lim.earlierChars).text);
  }
  if (f.tasks.length > 0) {
    out.push('', '### Tasks asked');
    const first = f.tasks[0]!;
    const rest = newest(f.tasks.slice(1), lim.tasksShown - 1);
    out.push(`1. ${quoted(first, lim.taskChars)}`);
    if (rest.older > 0) out.push(`   (${groupDigits(rest.older)} more in between)`);
    rest.shown.forEach((t, i) => out.push(`${i + 2 + rest.older}. ${quoted(t, lim.taskChars)}`));
  }
  if (f.tools.size > 0) {
    const tools = [...f.tools].sort((a, b) => b[1].calls - a[1].calls || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    const words = tools.map(([name, t]) => `${name} ×${t.calls}${t.failed > 0 ? ` (${t.failed} failed)` : ''}`);
    out.push('', '### Tools used', words.join(', '));
  }
  const files = [fileLine('read', f.filesRead, lim.filesShown), fileLine('edited', f.filesEdited, lim.filesShown), fileLine('written', f.filesWritten, lim.filesShown)].filter(
    (l): l is string => l !== null,
  );
  if (files.length > 0) out.push('', '### Files', ...files);
  if (f.errors.length > 0) {
    const e = newest(f.errors, lim.errorsShown);
    out.push('', `### Errors seen (${groupDigits(f.errors.length)}${e.older > 0 ? `, the last ${e.shown.length} shown` : ''})`);
    for (const err of e.shown) out.push(`- ${clipWords(oneLine(err), lim.errorChars)}`);
  }
  if (f.decisions.length > 0) {
    out.push('', '### Decisions');
    for (const d of newest(f.decisions, lim.decisionsShown).shown) out.push(`- ${clipWords(oneLine(d), lim.errorChars)}`);
  }
  if (f.lastAssistant !== null) out.push('', '### Last assistant statement', quoted(f.lastAssistant, lim.lastChars));
  out.push(SUMMARY_END);
  return out.join('\n');
}
