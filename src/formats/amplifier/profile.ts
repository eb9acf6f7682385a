// What the tools need to know about Amplifier sessions (hooks of src/formats/profile.ts). Two
// ledgers record one session: the transcript (the conversation, as typed) and events.jsonl (hook
// events, with the outcomes of tool calls and one llm:response per call); each tool call and
// prompt is written to both, so every count reads one of them.

import type { StoredEvent } from '../../core/events.js';
import { defineProfile, type MessageRef } from '../profile.js';
import { amplifierContent, amplifierFailureText, amplifierMessageText, amplifierToolCallInput } from './payload.js';
import { amplifierMapper } from './replay.js';
import { amplifierRewind } from './rewind.js';
import { amplifierIsText, amplifierTextFreeSummary } from './timeline-text.js';

/** The transcript keeps prompts as typed; prompt:submit may be redacted by the logging hook. */
function amplifierUserTurns(events: readonly StoredEvent[]): StoredEvent[] {
  const transcript = events.filter((e) => e.ledger === 'transcript' && e.kind === 'user_message');
  return transcript.length > 0 ? transcript : events.filter((e) => e.type === 'prompt:submit');
}

/** Prompts are written to both ledgers: the transcript alone is read when there is one. */
function amplifierMessages(events: readonly StoredEvent[]): MessageRef[] {
  const hasTranscript = events.some((e) => e.ledger === 'transcript');
  const out: MessageRef[] = [];
  for (const e of events) {
    if (e.kind !== 'user_message' && e.kind !== 'assistant_message') continue;
    if (hasTranscript && e.ledger !== 'transcript') continue;
    out.push({ event: e, role: e.kind === 'user_message' ? 'user' : 'assistant' });
  }
  return out;
}

export const amplifierProfile = defineProfile({
  label: 'Amplifier',
  // The OTLP export's gen_ai.agent.name and gen_ai.provider.name (docs/otel.md). Amplifier talks to several providers: each call's provider comes from its model.
  agentIdentity: { agentName: 'Amplifier', providerName: null },
  userTurns: amplifierUserTurns,
  transcriptMessages: amplifierMessages,
  messageText: amplifierMessageText,
  eventContent: amplifierContent,
  toolCallInput: amplifierToolCallInput,
  failureText: amplifierFailureText,
  isTextEvent: amplifierIsText,
  textFreeSummary: amplifierTextFreeSummary,
  viewKind: (e) => (e.type.startsWith('hook:') ? 'hook' : null),
  // llm:response is the call; other records repeat its usage.
  countsUsage: (e) => e.kind === 'llm_call',
  /**
   * The transcript and events.jsonl both record every call (with the same tool_call_id; a fork's
   * transcript also repeats its parent's calls), so counting both would double them; like the
   * summariser, events.jsonl wins whenever the session has one (it has the outcomes).
   */
  toolLedger(session, events) {
    const fromSummary = session.attrs.toolCallLedger;
    if (typeof fromSummary === 'string' && fromSummary !== '') return fromSummary;
    return events.some((e) => e.ledger === 'events') ? 'events' : 'transcript';
  },
  replay: amplifierMapper,
  rewind: amplifierRewind,
});
