// What the tools need to know about Claude Code sessions (hooks of src/formats/profile.ts). A
// transcript line is a message whose content blocks are events (one per part); prompts that start
// a turn are marked by the parser; hooks and sub-agent messages are mirrored as progress lines;
// no call latency is logged.

import type { StoredEvent } from '../../core/events.js';
import { defineProfile } from '../profile.js';
import { claudeContent, claudeFailureText, claudeMessageText, claudeToolCallInput } from './payload.js';
import { claudeMapper } from './replay.js';
import { claudeRewind } from './rewind.js';
import { claudeIsText, claudeTextFreeSummary } from './timeline-text.js';
import { SYNTHETIC_MODEL } from './usage.js';

/** Error and warning types the overview lists: API errors, and system lines by subtype. */
function claudeProblemType(e: StoredEvent): string | null {
  if (e.attrs.apiError === true) return 'api_error';
  if (e.type !== 'system') return null;
  const subtype = typeof e.attrs.subtype === 'string' && e.attrs.subtype !== '' ? e.attrs.subtype : null;
  // api_error system lines are retries of a request; the final failure is an assistant line.
  if (subtype === 'api_error') return 'api_retry';
  return subtype ?? (e.kind === 'error' ? 'system_error' : 'system_warning');
}

export const claudeProfile = defineProfile({
  label: 'Claude Code',
  // The OTLP export's gen_ai.agent.name and gen_ai.provider.name (docs/otel.md). Claude Code calls Anthropic's API (Bedrock and Vertex set-ups log the same lines).
  agentIdentity: { agentName: 'Claude Code', providerName: 'anthropic' },
  // The parser marks the prompts (and slash commands the model answers) that start a turn.
  userTurns: (events) => events.filter((e) => e.kind === 'user_message' && e.attrs.turnStart === true),
  messageText: claudeMessageText,
  eventContent: claudeContent,
  toolCallInput: claudeToolCallInput,
  failureText: claudeFailureText,
  isTextEvent: claudeIsText,
  textFreeSummary: claudeTextFreeSummary,
  viewKind(e) {
    if (e.attrs.progress === 'hook_progress' || e.attrs.subtype === 'stop_hook_summary') return 'hook';
    // Each sub-agent message is mirrored into the parent as a progress line.
    return e.attrs.progress === 'agent_progress' ? 'agent' : null;
  },
  latencyBetweenLines: true,
  placeholderModels: [SYNTHETIC_MODEL],
  problemType: claudeProblemType,
  // An errored Claude Code session is one whose last response was an API error (summarize.ts).
  erroredEnding: () => 'The last response was an API error.',
  replay: claudeMapper,
  rewind: claudeRewind,
});
