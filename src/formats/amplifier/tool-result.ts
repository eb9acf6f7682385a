// Whether a tool result failed, and a short preview of it, from either ledger's shape:
// events carry `result` as an object; the transcript carries it JSON-encoded in a string.

import { asRecord, asString, clip, previewJson } from './text.js';

/** Tool outputs above this are not parsed again just to read `success` (the tail is enough). */
const PARSE_LIMIT_CHARS = 1024 * 1024;

export interface ToolOutcome {
  status: 'ok' | 'error';
  /** One-line preview: the error message, or the start of the output. */
  preview: string;
}

function errorMessage(error: unknown): string | undefined {
  if (error === null || error === undefined || error === '') return undefined;
  if (typeof error === 'string') return error;
  const rec = asRecord(error);
  const msg = asString(rec?.message) ?? asString(rec?.msg);
  return msg ?? previewJson(error, 200);
}

/**
 * Amplifier's ToolResult is `{success, output, error}`. A result fails when `success` is false,
 * or when `success` is absent and `error` is set (the CLI's orphan repair writes
 * `{"error": "unknown_error", "message": …}` with no `success`).
 */
export function outcomeOfObject(result: Record<string, unknown>): ToolOutcome {
  const err = errorMessage(result.error);
  const failed = result.success === false || (result.success !== true && err !== undefined);
  if (failed) {
    const message = err ?? asString(result.message) ?? 'tool reported success: false';
    return { status: 'error', preview: clip(message, 300) };
  }
  const output = result.output ?? result.message;
  return { status: 'ok', preview: typeof output === 'string' ? clip(output, 300) : previewJson(output, 300) };
}

/**
 * The transcript's `content` of a tool message. Non-JSON strings are the orchestrator's own
 * words; an unknown tool comes back as a plain `Error: Tool 'x' not found`.
 */
export function outcomeOfContent(content: unknown): ToolOutcome {
  const rec = asRecord(content);
  if (rec) return outcomeOfObject(rec);
  if (typeof content !== 'string') return { status: 'ok', preview: previewJson(content, 300) };
  const trimmed = content.trimStart();
  if (trimmed.startsWith('{')) {
    if (content.length <= PARSE_LIMIT_CHARS) {
      try {
        const parsed = asRecord(JSON.parse(content));
        if (parsed) return outcomeOfObject(parsed);
      } catch {
        // Not JSON after all: fall through to the plain-text reading.
      }
    } else {
      // Keys are written sorted, so `success` closes the object: read the tail only.
      const tail = content.slice(-256);
      const failed = /"success"\s*:\s*false\s*}\s*$/.test(tail);
      return { status: failed ? 'error' : 'ok', preview: clip(content, 300) };
    }
  }
  const failed = /^(error\b|traceback\b)/i.test(trimmed);
  return { status: failed ? 'error' : 'ok', preview: clip(content, 300) };
}
