// What the per-format replay mappers share: the context they read and update while the timeline
// streams past, and the text helpers (byte-bounded cuts, tool result text).

import type { StoredEvent } from '../../formats/importer.js';
import { asObj, type Obj } from './summarise-tool.js';

export interface MapContext {
  /** User text longer than this (bytes) is cut and the entry says how much (`cut`). */
  userTextLimit: number;
  /** Claude Code Task / Agent call id → the sub-agent it ran (known from results and progress lines). */
  agentOfCall: Map<string, string>;
  /** The session the event being mapped belongs to (the exported one or a sub-agent). */
  sessionId: string;
  /** Working directory and branch per session, to report changes as `ctx` lines; a new sub-agent starts from the header's. */
  places: Map<string, Place>;
  start: Place;
  /** For the markdown transcript: thinking text and tool call ids too (the replay format has neither). */
  detail: boolean;
}

export interface Place {
  cwd: string | undefined;
  branch: string | undefined;
}

/** A mapper turns one timeline event (and its parsed raw line, when it needed one) into replay entries (without `t`). */
export interface FormatMapper {
  needsLine(e: StoredEvent): boolean;
  map(e: StoredEvent, line: Obj | undefined, cx: MapContext): Obj[];
}

/**
 * `{m}` with `text` cut to `limit` UTF-8 bytes (on a character boundary) and `cut` the number of
 * bytes left out, so a reader knows the message went on.
 */
export function cutText(text: string, limit: number, key = 'm'): Obj {
  const bytes = Buffer.byteLength(text);
  if (bytes <= limit) return { [key]: text };
  let kept = Buffer.from(text).subarray(0, limit).toString('utf8');
  // A split character decodes as U+FFFD at the end: drop it so the text stays a true prefix.
  if (kept.endsWith('\uFFFD') && !text.startsWith(kept)) kept = kept.slice(0, -1);
  return { [key]: kept, cut: bytes - Buffer.byteLength(kept) };
}

/** The text of a tool result content: a string, or its text blocks joined (images as markers). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((b) => {
        const o = asObj(b);
        if (o?.type === 'text' && typeof o.text === 'string') return o.text;
        if (o?.type === 'image') return '[image]';
        return typeof b === 'string' ? b : '';
      })
      .join('\n');
  }
  if (content === undefined || content === null) return '';
  return JSON.stringify(content) ?? '';
}

/** A system note: something that happened that is neither said by someone nor a tool call. */
export function note(msg: string, error = false): Obj {
  return error ? { r: 'system', msg, status: 'error' } : { r: 'system', msg };
}
