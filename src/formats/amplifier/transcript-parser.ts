// transcript.jsonl → events: `{role, content, metadata:{timestamp}}` per line; turns counted from
// real user messages (a persisted <system-reminder> is the orchestrator talking, not the user).

import type { EventInput, LineContext, LineParser, SourceFile } from '../importer.js';
import { scanString, topLevelRegion } from './head-scan.js';
import { asRecord, asString, clip, contentText, previewJson } from './text.js';
import { outcomeOfContent } from './tool-result.js';

interface TranscriptState {
  /** Real user messages seen so far (the current turn number). */
  turn: number;
}

const REMINDER_RE = /^\s*<system-reminder>/;

/**
 * A user-role message the orchestrator injected: it opens with <system-reminder>, or carries the
 * reminder hook's `reminder_placement` flag. `persisted` alone is not enough: it only says the
 * message was saved.
 */
export function isSystemReminder(text: string, metadata: Record<string, unknown> | undefined): boolean {
  return REMINDER_RE.test(text) || metadata?.reminder_placement !== undefined;
}

export function createTranscriptParser(_file: SourceFile, resumeState?: unknown): LineParser {
  const state: TranscriptState = { turn: 0 };
  const saved = asRecord(resumeState);
  if (saved && typeof saved.turn === 'number') state.turn = saved.turn;

  const turnOrNull = () => (state.turn > 0 ? state.turn : null);

  function user(obj: Record<string, unknown>, ctx: LineContext, timestamp: string | undefined): void {
    const metadata = asRecord(obj.metadata);
    const text = contentText(obj.content);
    if (isSystemReminder(text, metadata)) {
      ctx.emit({
        timestamp,
        type: 'user',
        kind: 'system',
        actor: 'system',
        turn: turnOrNull(),
        summary: clip(text),
        attrs: { systemReminder: true },
      });
      return;
    }
    state.turn++;
    ctx.emit({ timestamp, type: 'user', kind: 'user_message', actor: 'user', turn: state.turn, summary: clip(text), text });
  }

  function assistant(obj: Record<string, unknown>, ctx: LineContext, timestamp: string | undefined): void {
    const base = { timestamp, type: 'assistant', actor: 'assistant', turn: turnOrNull() } as const;
    const seen = new Set<string>();
    let part = 0;
    if (typeof obj.content === 'string') {
      ctx.emit({ ...base, part: part++, kind: 'assistant_message', summary: clip(obj.content), text: obj.content });
    } else if (Array.isArray(obj.content)) {
      for (const raw of obj.content) {
        const block = asRecord(raw) ?? {};
        const type = asString(block.type) ?? 'unknown';
        const p = part++;
        if (type === 'text') {
          const text = asString(block.text) ?? '';
          ctx.emit({ ...base, part: p, kind: 'assistant_message', summary: clip(text), text });
        } else if (type === 'thinking' || type === 'redacted_thinking') {
          const text = asString(block.thinking) ?? asString(block.text) ?? '';
          ctx.emit({ ...base, part: p, kind: 'thinking', summary: clip(text), text, attrs: { blockType: type } });
        } else if (type === 'tool_call' || type === 'tool_use') {
          const id = asString(block.id);
          const name = asString(block.name) ?? asString(block.tool) ?? 'unknown';
          if (id) seen.add(id);
          ctx.emit({
            ...base,
            part: p,
            kind: 'tool_call',
            toolName: name,
            ids: id ? { toolCall: id } : undefined,
            summary: `${name} ${previewJson(block.input ?? block.arguments, 200)}`,
          });
        } else {
          ctx.emit({ ...base, part: p, kind: 'other', summary: `${type} block`, attrs: { blockType: type } });
        }
      }
    }
    // `tool_calls[]` repeats the tool_call blocks; only calls missing from the content are new.
    if (Array.isArray(obj.tool_calls)) {
      for (const raw of obj.tool_calls) {
        const call = asRecord(raw);
        const id = asString(call?.id);
        if (!call || (id && seen.has(id))) continue;
        const name = asString(call.tool) ?? asString(call.name) ?? 'unknown';
        if (id) seen.add(id);
        ctx.emit({
          ...base,
          part: part++,
          kind: 'tool_call',
          toolName: name,
          ids: id ? { toolCall: id } : undefined,
          summary: `${name} ${previewJson(call.arguments ?? call.input, 200)}`,
          attrs: { fromToolCallsList: true },
        });
      }
    }
    if (part === 0) ctx.emit({ ...base, kind: 'assistant_message', summary: '' });
  }

  function tool(obj: Record<string, unknown>, ctx: LineContext, timestamp: string | undefined): void {
    const name = asString(obj.name) ?? 'unknown';
    const id = asString(obj.tool_call_id);
    const outcome = outcomeOfContent(obj.content);
    ctx.emit({
      timestamp,
      type: 'tool',
      kind: 'tool_result',
      actor: 'tool',
      turn: turnOrNull(),
      toolName: name,
      toolStatus: outcome.status,
      ids: id ? { toolCall: id } : undefined,
      summary: `${name} ${outcome.status}: ${outcome.preview}`,
    });
  }

  return {
    line(obj, ctx) {
      // Entries added by the CLI's orphan repair have no timestamp: normal, they inherit the position.
      const timestamp = asString(asRecord(obj.metadata)?.timestamp);
      const role = asString(obj.role) ?? 'unknown';
      if (role === 'user') user(obj, ctx, timestamp);
      else if (role === 'assistant') assistant(obj, ctx, timestamp);
      else if (role === 'tool') tool(obj, ctx, timestamp);
      else {
        const text = contentText(obj.content);
        ctx.emit({ timestamp, type: role, kind: 'system', actor: role, turn: turnOrNull(), summary: clip(text) });
      }
    },
    hugeLine(head, ctx) {
      // Role, tool name and call id precede `content`; the timestamp follows it, so it is inherited.
      const region = topLevelRegion(head, ['content', 'metadata']);
      const role = scanString(region, 'role', 32) ?? 'unknown';
      const event: EventInput = {
        type: role,
        kind: role === 'tool' ? 'tool_result' : role === 'assistant' ? 'assistant_message' : 'other',
        actor: role,
        turn: turnOrNull(),
        summary: `${role} entry of ${ctx.byteLength} bytes (too large to parse; raw_lines has it)`,
        attrs: { huge: true, bytes: ctx.byteLength },
      };
      if (role === 'tool') {
        const id = scanString(region, 'tool_call_id', 128);
        event.toolName = scanString(region, 'name', 128) ?? 'unknown';
        if (id) event.ids = { toolCall: id };
      }
      // A huge user line is still a turn: count it so later turn numbers stay right.
      if (role === 'user') {
        state.turn++;
        event.kind = 'user_message';
        event.turn = state.turn;
      }
      ctx.emit(event);
    },
    snapshot() {
      return { turn: state.turn };
    },
  };
}
