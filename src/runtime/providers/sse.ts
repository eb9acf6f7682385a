// Server-sent events from a fetch body, through eventsource-parser. The reader only frames events;
// the protocol clients decide what an event means and whether the stream ended complete.

import { createParser, type EventSourceMessage } from 'eventsource-parser';

/**
 * Feed every SSE event of `body` to `onEvent`, in order; `keepAlive` is called per chunk received
 * (the timeout measures silence, not length). Resolves when the body ends; a body that breaks
 * off rejects with the underlying error (the caller turns it into a dropped-stream error).
 */
export async function readSseEvents(
  body: ReadableStream<Uint8Array>,
  onEvent: (event: EventSourceMessage) => void,
  keepAlive: () => void,
): Promise<void> {
  let failure: unknown = null;
  const parser = createParser({
    onEvent(event) {
      if (failure !== null) return;
      try {
        onEvent(event);
      } catch (err) {
        failure = err;
      }
    },
  });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      keepAlive();
      parser.feed(decoder.decode(value, { stream: true }));
      if (failure !== null) throw failure;
    }
    // An event without its closing blank line is left unread: the body broke off inside it.
    parser.feed(decoder.decode());
    if (failure !== null) throw failure;
  } finally {
    reader.releaseLock();
    if (failure !== null) await body.cancel().catch(() => undefined);
  }
}
