// The `markdown` export: a readable transcript rendered from the replay entries (user text not
// cut): a heading per user turn, user and assistant text as written, tool calls and results as
// one-line summaries, sub-agent activity as block quotes under a "Sub-agent <id>" marker.

import type { Obj } from './summarise-tool.js';

const FACT_KEYS = ['size', 'count', 'exit', 'code', 'cut'];

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

/** Markdown lines for one entry (without the sub-agent quote prefix). */
function render(entry: Obj, state: { turn: number; inAgent: boolean }): string[] {
  const r = entry.r;
  if (r === 'user' && entry.m !== undefined) {
    if (entry.kind !== undefined) return [`*${String(entry.kind)}${when(entry)}:* ${text(entry.m).replace(/\s+/g, ' ')}`, ''];
    const head = state.inAgent ? [`**Prompt**${when(entry)}`] : [`## Turn ${++state.turn}${when(entry)}`, '', '**User**'];
    return [...head, '', ...text(entry.m).split('\n'), ''];
  }
  if (r === 'assistant' && entry.m !== undefined) {
    return [`**Assistant**${entry.status === 'error' ? ' (error)' : ''}`, '', ...text(entry.m).split('\n'), ''];
  }
  if (r === 'assistant' && entry.thinking === true) return ['*(thinking)*', ''];
  if (r === 'assistant' && entry.tool !== undefined) return [`- tool \`${String(entry.tool)}\` ${inlineArgs(entry.args)}`.trimEnd()];
  if (r === 'user' && entry.tool_result !== undefined) {
    const detail = [facts(entry), text(entry.msg)].filter(Boolean).join(' — ');
    return [`  - → ${String(entry.status)}${detail ? `: ${detail.replace(/\s+/g, ' ')}` : ''}`, ''];
  }
  if (r === 'agent') {
    const who = entry.agent !== undefined ? ` ${String(entry.agent)}` : '';
    return [`- launches sub-agent${who}${entry.type !== undefined ? ` (${String(entry.type)})` : ''}: ${text(entry.task).replace(/\s+/g, ' ')}`, ''];
  }
  if (r === 'agent_result') {
    const who = entry.agent !== undefined ? ` ${String(entry.agent)}` : '';
    const detail = [facts(entry), text(entry.msg)].filter(Boolean).join(' — ').replace(/\s+/g, ' ');
    return [`- sub-agent${who} ${String(entry.status)}${detail ? `: ${detail}` : ''}`, ''];
  }
  if (entry.msg !== undefined) return [`*${entry.status === 'error' ? 'error' : 'note'}${when(entry)}:* ${text(entry.msg).replace(/\s+/g, ' ')}`, ''];
  return [];
}

/**
 * Markdown lines from replay entries (header first).
 *
 * @example for await (const line of markdownLines(replayEntries(store, session, opts))) …
 */
export async function* markdownLines(entries: AsyncIterable<Obj>): AsyncGenerator<string> {
  const state = { turn: 0, inAgent: false };
  let first = true;
  for await (const entry of entries) {
    if (first) {
      first = false;
      yield `# Session ${String(entry.session)}`;
      yield '';
      for (const k of ['format', 'title', 'cwd', 'branch', 'started']) if (entry[k] !== undefined) yield `- ${k}: ${String(entry[k]).replace(/\s+/g, ' ')}`;
      yield '';
      continue;
    }
    if (entry.ctx === 'agent') {
      state.inAgent = entry.v !== 'main';
      yield state.inAgent ? `> **Sub-agent ${String(entry.v)}**${when(entry)}` : `**Back to the main session**${when(entry)}`;
      yield state.inAgent ? '>' : '';
      continue;
    }
    if (entry.ctx !== undefined) {
      const line = `*${String(entry.ctx)} → ${String(entry.v)}*`;
      yield state.inAgent ? `> ${line}` : line;
      yield state.inAgent ? '>' : '';
      continue;
    }
    for (const line of render(entry, state)) yield state.inAgent ? (line === '' ? '>' : `> ${line}`) : line;
  }
}
