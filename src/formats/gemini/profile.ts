// What the tools need to know about Gemini CLI sessions (hooks of src/formats/profile.ts). One
// ledger per session: the chat, whose lines are message records (JSONL) or, for older CLIs, one
// JSON document holding messages[]. Each message's parts are separate events, found again in the
// line by what they are (payload.ts). Usage rides on one `llm_call` event per reply.

import type { StoredEvent } from '../importer.js';
import { defineProfile } from '../profile.js';
import { DOCUMENT_LEDGER, LEGACY_LEDGER } from './layout.js';
import { geminiContent, geminiFailureText, geminiMessageText, geminiToolCallInput } from './payload.js';
import { geminiMapper } from './replay.js';
import { GEMINI_TOOL_ALIASES } from './tool-names.js';

function eventFacts(e: StoredEvent): Record<string, unknown> {
  if (e.kind !== 'llm_call') return {};
  const out: Record<string, unknown> = {};
  // The split of the reply's tokens as Gemini wrote it (thoughts are the call's reasoning kind).
  for (const k of ['candidates', 'thoughts', 'toolTokens']) if (typeof e.attrs[k] === 'number' && e.attrs[k] !== 0) out[k] = e.attrs[k];
  return out;
}

export const geminiProfile = defineProfile({
  label: 'Gemini CLI',
  // The OTLP export's gen_ai.agent.name and gen_ai.provider.name (docs/otel.md). Gemini CLI calls the Gemini API (generativelanguage.googleapis.com).
  agentIdentity: { agentName: 'Gemini CLI', providerName: 'gcp.gemini' },
  messageText: geminiMessageText,
  eventContent: geminiContent,
  toolCallInput: geminiToolCallInput,
  failureText: geminiFailureText,
  eventFacts,
  countsUsage: (e) => e.kind === 'llm_call',
  // The chat records no call latency; replies are stamped when written.
  latencyBetweenLines: true,
  toolAliases: GEMINI_TOOL_ALIASES,
  problemType: (e) => (e.kind === 'error' ? 'gemini_error' : e.kind === 'warning' ? 'gemini_warning' : null),
  isDocumentLedger: (ledger) => ledger === DOCUMENT_LEDGER || ledger === LEGACY_LEDGER || ledger.startsWith(`${DOCUMENT_LEDGER}-copy-`),
  replay: geminiMapper,
  rewind: null,
  rewindRefusal:
    'Hindsight does not rewind Gemini CLI chats: the CLI rewinds a chat itself by appending a $rewindTo record (which Hindsight reads), and an older chat is one JSON document that cannot be cut by lines.',
});
