// The `markdown` export: a readable transcript rendered from the replay entries in detail mode
// (user text not cut, thinking text and tool call ids kept): a heading per user turn, user and
// assistant text as written, each tool call as a one-liner with its result right under it
// (parallel calls matched to their results by call id), thinking folded into a <details> block,
// sub-agent activity as block quotes under a "Sub-agent <id>" marker. Hooks, progress mirrors and
// timing notes are not replay entries, so they stay out. Terminal escapes are stripped: a
// markdown viewer would print them as junk.

import { stripControl } from '../../core/control-chars.js';
import type { Obj } from '../../formats/shared/tool-summary.js';

const FACT_KEYS = ['size', 'count', 'exit', 'code', 'cut'];
/** Calls held back waiting for their results before they are written anyway (bounds memory). */
const MAX_PENDING_CALLS = 256;

function inlineArgs(args: unknown): string {
  if (typeof args !== 'object' || args === null) return '';
  return Object.entries(args as Obj)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v.replace(/\s+/g, ' ') : JSON.stringify(v)}`)
    .join(' ');
}

function facts(entry: Obj): string {
  return FACT_KEYS.filter((k) => entry[k] !== undefined)
    .map((k) => `${k} ${String(entry[k])}`)
    .join(', ');
}

const when = (entry: Obj): string => (typeof entry.t === 'string' ? ` (${entry.t})` : '');
const text = (v: unknown): string => (typeof v === 'string' ? v : '');

const isCall = (entry: Obj): boolean => (entry.r === 'assistant' && entry.tool !== undefined) || entry.r === 'agent';
const isResult = (entry: Obj): boolean => (entry.r === 'user' && entry.tool_result !== undefined) || entry.r === 'agent_result';

/** Thinking folded: the reader opens it when they want the reasoning. */
function thinkingBlock(entry: Obj): string[] {
  const body = text(entry.text).trim();
  if (body === '') return ['*(thinking)*', ''];
  // A literal closing tag in the text would end the fold early.
  const safe = body.replace(/<\/details>/gi, '&lt;/details>');
  return ['<details>', `<summary>Thinking (${body.length} chars)</summary>`, '', ...safe.split('\n'), '', '</details>', ''];
}

/** Markdown lines for one entry (without the sub-agent quote prefix). */
function render(entry: Obj, state: { turn: number; inAgent: boolean }): string[] {
  const r = entry.r;
  if (r === 'user' && entry.m !== undefined) {
    if (entry.kind !== undefined) return [`*${String(entry.kind)}${when(entry)}:* ${text(entry.m).replace(/\s+/g, ' ')}`, ''];
    const head = state.inAgent ? [`**Prompt**${when(entry)}`] : [`## Turn ${++state.turn}${when(entry)}`, '', '**User**'];
    return [...head, '', ...text(entry.m).split('\n'), ''];
  }
  if (r === 'assistant' && entry.m !== undefined) {
    // Claude Code writes a text block of only "\n\n" before a tool call: it says nothing.
    if (text(entry.m).trim() === '') return [];
    return [`**Assistant**${entry.status === 'error' ? ' (error)' : ''}`, '', ...text(entry.m).trim().split('\n'), ''];
  }
  if (r === 'assistant' && entry.thinking === true) return thinkingBlock(entry);
  if (r === 'assistant' && entry.tool !== undefined) return [`- tool \`${String(entry.tool)}\` ${inlineArgs(entry.args)}`.trimEnd()];
  if (r === 'user' && entry.tool_result !== undefined) {
    const detail = [facts(entry), text(entry.msg)].filter(Boolean).join(' — ');
    return [`  - → ${String(entry.status)}${detail ? `: ${detail.replace(/\s+/g, ' ')}` : ''}`];
  }
  if (r === 'agent') {
    const who = entry.agent !== undefined ? ` ${String(entry.agent)}` : '';
    return [`- launches sub-agent${who}${entry.type !== undefined ? ` (${String(entry.type)})` : ''}: ${text(entry.task).replace(/\s+/g, ' ')}`];
  }
  if (r === 'agent_result') {
    const who = entry.agent !== undefined ? ` ${String(entry.agent)}` : '';
    const detail = [facts(entry), text(entry.msg)].filter(Boolean).join(' — ').replace(/\s+/g, ' ');
    return [`  - sub-agent${who} ${String(entry.status)}${detail ? `: ${detail}` : ''}`];
  }
  if (entry.msg !== undefined) return [`*${entry.status === 'error' ? 'error' : 'note'}${when(entry)}:* ${text(entry.msg).replace(/\s+/g, ' ')}`, ''];
  return [];
}

/**
 * Consecutive tool calls waiting for their results. Claude Code writes parallel calls one after
 * another and their results after all of them; each result is placed under its own call (by call
 * id), and the group is written once something other than a call or a matching result arrives.
 */
class PendingCalls {
  private calls: { id: unknown; call: Obj; result?: Obj }[] = [];

  add(call: Obj): void {
    this.calls.push({ id: call.call_id, call });
  }

  /** Attaches a result to its waiting call; false when no call waits for it. */
  attach(result: Obj): boolean {
    if (result.call_id === undefined) return false;
    const waiting = this.calls.find((c) => c.id === result.call_id && c.result === undefined);
    if (!waiting) return false;
    waiting.result = result;
    return true;
  }

  get size(): number {
    return this.calls.length;
  }

  /** The group's lines, each call followed by its result, then a blank line; empties the group. */
  drain(state: { turn: number; inAgent: boolean }): string[] {
    if (this.calls.length === 0) return [];
    const out = this.calls.flatMap((c) => [...render(c.call, state), ...(c.result ? render(c.result, state) : [])]);
    this.calls = [];
    return [...out, ''];
  }
}

/**
 * Markdown lines from replay entries in detail mode (header first).
 *
 * @example for await (const line of markdownLines(replayEntries(store, session, { ...opts, detail: true }))) …
 */
export async function* markdownLines(entries: AsyncIterable<Obj>): AsyncGenerator<string> {
  const state = { turn: 0, inAgent: false };
  const pending = new PendingCalls();
  const quote = (line: string): string => stripControl(state.inAgent ? (line === '' ? '>' : `> ${line}`) : line);
  let first = true;
  for await (const entry of entries) {
    if (first) {
      first = false;
      yield `# Session ${String(entry.session)}`;
      yield '';
      for (const k of ['format', 'title', 'cwd', 'branch', 'started']) if (entry[k] !== undefined && entry[k] !== null) yield stripControl(`- ${k}: ${String(entry[k]).replace(/\s+/g, ' ')}`);
      yield '';
      continue;
    }
    if (isCall(entry)) {
      pending.add(entry);
      if (pending.size >= MAX_PENDING_CALLS) for (const line of pending.drain(state)) yield quote(line);
      continue;
    }
    if (isResult(entry) && pending.attach(entry)) continue;
    for (const line of pending.drain(state)) yield quote(line);
    if (entry.ctx === 'agent') {
      state.inAgent = entry.v !== 'main';
      yield stripControl(state.inAgent ? `> **Sub-agent ${String(entry.v)}**${when(entry)}` : `**Back to the main session**${when(entry)}`);
      yield state.inAgent ? '>' : '';
      continue;
    }
    if (entry.ctx !== undefined) {
      yield quote(`*${String(entry.ctx)} → ${String(entry.v)}*`);
      yield quote('');
      continue;
    }
    const lines = render(entry, state);
    // A result with no call before it (its call was on an earlier page of the group) stands alone.
    if (isResult(entry)) lines.push('');
    for (const line of lines) yield quote(line);
  }
  for (const line of pending.drain(state)) yield quote(line);
}
