// Message content for a session's spans, only when the export is asked for it (--include-content):
// prompts and replies as `gen_ai.input.messages` / `gen_ai.output.messages` on chat spans, tool
// arguments and failure text on execute_tool spans. Read from the evidence lines through the
// format's own hooks (messageText, toolCallInput, failureText), redacted unless told otherwise.

import type { StoredEvent } from '../core/events.js';
import { redactText, redactValue } from '../core/redact.js';
import type { FormatProfile, MessageRef, Obj } from '../formats/profile.js';
import type { Store } from '../store/store.js';

export interface SessionContent {
  /** A message event's text (the format's messageText, else its stored summary). */
  text(ref: MessageRef): string;
  /** The input a tool call was given, as JSON text. */
  toolArguments(call: StoredEvent): string | null;
  /** What a failed tool call sent back. */
  failure(result: StoredEvent): string | null;
}

const parse = (raw: Buffer): Obj | null => {
  try {
    const v = JSON.parse(raw.toString('utf8')) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : null;
  } catch {
    return null;
  }
};

/** Read the evidence lines the session's content needs, once, and answer from them. */
export async function sessionContent(store: Store, profile: FormatProfile, events: readonly StoredEvent[], redact: boolean): Promise<SessionContent> {
  const wanted = events.filter((e) => e.kind === 'user_message' || e.kind === 'assistant_message' || e.kind === 'tool_call' || e.kind === 'tool_result');
  const address = (e: StoredEvent) => `${e.fileId}:${e.lineNumber}`;
  const unique = new Map(wanted.map((e) => [address(e), { fileId: e.fileId, lineNumber: e.lineNumber }]));
  const lines = new Map<string, Obj | null>();
  const refs = [...unique.values()];
  for (let i = 0; i < refs.length; i += 500) {
    for (const row of await store.evidenceLines(refs.slice(i, i + 500))) lines.set(`${row.fileId}:${row.lineNumber}`, parse(row.raw));
  }
  const lineOf = (e: StoredEvent) => lines.get(address(e)) ?? null;
  const clean = (text: string) => (redact ? redactText(text) : text);
  return {
    text(ref) {
      const line = lineOf(ref.event);
      return clean((line && profile.messageText(ref, line)) ?? ref.event.summary);
    },
    toolArguments(call) {
      const line = lineOf(call);
      const input = line ? profile.toolCallInput(call, line) : undefined;
      return input === undefined ? null : JSON.stringify(redact ? redactValue(input) : input);
    },
    failure(result) {
      const line = lineOf(result);
      const text = (line && profile.failureText(result, line)) ?? result.summary;
      return text ? clean(text) : null;
    },
  };
}
