// `hindsight timeline` as a conversation: what the user and the assistant said (whole), each tool
// call with its key argument and a one-line result under it, thinking folded to its size, hooks
// and other plumbing as dim one-liners. It reads reconstruct_session's full rows, the same
// envelope `--json` prints.

import type { Paint } from './colour.js';
import { cut } from './table.js';
import { time } from './render-tools.js';
import { DEFAULT_VIEW_KINDS } from '../../tools/reconstruct-session/view-kind.js';
import { stripControl } from '../../core/control-chars.js';

/** Escape sequences a terminal would act on are removed before printing (core/control-chars.ts). */
export { stripControl };

type Obj = Record<string, any>;

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Text of a content value: a string, or text blocks joined. */
function textOf(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const parts = content.map((b) => (typeof b === 'string' ? b : (str(b?.text) ?? ''))).filter((t) => t !== '');
  return parts.length ? parts.join('\n') : undefined;
}

/** The words of a row from its full payload, in every format; undefined when it has none. */
export function rowText(row: Obj): string | undefined {
  const p: Obj = row.payload ?? {};
  const block: Obj | undefined = typeof p.block === 'object' && p.block !== null ? p.block : undefined;
  if (row.kind === 'thinking') return str(block?.thinking) ?? str(block?.text) ?? str(p.content) ?? textOf(p.content);
  if (row.kind === 'tool_result') return textOf(block?.content) ?? textOf(p.content) ?? str(p.data?.result) ?? (p.data?.result !== undefined ? JSON.stringify(p.data.result) : undefined);
  const m: Obj | undefined = p.metadata;
  if (row.event_type === 'TURN_RECORDED' && m) return [str(m.user_message) && `user: ${m.user_message}`, str(m.response) && `response: ${m.response}`].filter(Boolean).join('\n');
  return str(block?.text) ?? textOf(p.content) ?? str(p.data?.prompt) ?? str(p.data?.response) ?? str(p.data?.block?.text);
}

function indent(text: string, prefix: string): string[] {
  return stripControl(text).trimEnd().split('\n').map((l) => `${prefix}${l}`);
}

function bytes(n: number): string {
  return n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : n >= 1024 ? `${(n / 1024).toFixed(1)} KB` : `${n} B`;
}

/** A tool result in one line: status, first line of output, and its size. */
function resultLine(row: Obj, paint: Paint, full: boolean): string[] {
  const text = rowText(row) ?? '';
  const failed = row.payload?.tool_status === 'error' || row.payload?.tool_status === 'failed' || row.payload?.block?.is_error === true;
  const status = failed ? paint('red', 'error') : paint('green', 'ok');
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const size = text ? ` ${paint('dim', `(${lines.length} line${lines.length === 1 ? '' : 's'}, ${bytes(Buffer.byteLength(text))})`)}` : '';
  // A failed command says what went wrong at its end; other results at their start.
  const pick = failed ? lines[lines.length - 1] : lines[0];
  const head = `      ↳ ${status}${pick ? `: ${cut(stripControl(pick), 140)}` : ''}${size}`;
  return full && lines.length > 1 ? [head, ...indent(text, '        ')] : [head];
}

function sameKinds(a: unknown, b: readonly string[]): boolean {
  return Array.isArray(a) && a.length === b.length && b.every((k) => a.includes(k));
}

export interface ConversationOptions {
  full: boolean;
  /** The `hindsight timeline …` command that repeats this view, for the next-page hint. */
  command: string;
}

export function renderConversation(r: Obj, paint: Paint, o: ConversationOptions): string {
  const rows = (r.timeline ?? []) as Obj[];
  const out: string[] = [];
  for (const row of rows) {
    const at = paint('dim', time(row.timestamp));
    const who = row.session_id && row.session_id !== r.session_id ? paint('dim', ` [sub-agent ${String(row.session_id).split(':').pop()}]`) : '';
    const text = rowText(row);
    switch (row.view_kind) {
      case 'user':
        out.push('', `${paint('bold', paint('cyan', 'User'))}${who}  ${at}`, ...indent(text ?? row.summary, '  '));
        break;
      case 'assistant':
        // A text block of only whitespace (Claude Code writes "\n\n" before a tool call) says nothing.
        if (text !== undefined && text.trim() === '') break;
        out.push('', `${paint('bold', paint('magenta', 'Assistant'))}${who}  ${at}`, ...indent(text ?? row.summary, '  '));
        break;
      case 'thinking':
        if (o.full && text) out.push(`  ${paint('dim', `thinking${who}:`)}`, ...indent(text, '  │ ').map((l) => paint('dim', l)));
        else out.push(`  ${paint('dim', `(thinking${who}, ${(text ?? '').length} chars; --full unfolds it)`)}`);
        break;
      case 'tool':
        if (row.kind === 'tool_call') out.push(`  ${paint('yellow', '▸')} ${cut(stripControl(row.summary), 160)}${who}  ${at}`);
        else out.push(...resultLine(row, paint, o.full));
        break;
      case 'error':
        out.push(`  ${paint('red', `! ${row.event_type}`)}${who}  ${at}  ${cut(stripControl(row.summary), 160)}`);
        break;
      default:
        out.push(paint('dim', `  · ${row.view_kind ?? row.kind} ${cut(stripControl(row.summary), 150)}${who}  ${time(row.timestamp)}`));
    }
  }
  const notes: string[] = [];
  if (!rows.length) notes.push(`No events of these kinds in this range (${r.event_count ?? 0} events in all).`);
  const shown = `${r.returned ?? 0} of ${r.count ?? 0} events`;
  const hidden = (r.event_count ?? 0) - (r.count ?? 0);
  const hiddenNote = hidden > 0 ? `; ${hidden} ${sameKinds(r.kinds, DEFAULT_VIEW_KINDS) ? 'hook events' : 'events of other kinds'} hidden (--kind all shows every event)` : '';
  const next = r.has_more ? `; next page: ${o.command} --offset ${r.next_offset}` : '';
  notes.push(paint('dim', `${shown}${hiddenNote}${next}`));
  return [...out.slice(out[0] === '' ? 1 : 0), '', ...notes].join('\n');
}
