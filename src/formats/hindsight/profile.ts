// What the tools need to know about runtime sessions (hooks of src/formats/profile.ts). A session
// is one file of records (records.ts); an assistant message line carries its text, its thinking
// and its tool calls as separate events, each tool call found again by its id in the line.

import type { StoredEvent } from '../importer.js';
import { defineProfile, type ContentOptions, type EndingFacts, type FormatEnding, type MessageRef, type ReplayMapper } from '../profile.js';
import { asObj, asString, type Obj } from '../shared/json-values.js';
import { Omitter } from '../shared/payload-omitter.js';
import { cutText, note } from '../shared/replay-text.js';
import { summariseArgs, summariseResult } from '../shared/tool-summary.js';
import { callArguments } from './parser.js';
import { lastTerminalState, userTurns } from './session-view.js';

/** The tool call of an assistant line that `e` stands for (by its id, else by its place). */
function callOf(e: StoredEvent, line: Obj): Obj | undefined {
  const calls = Array.isArray(line.tool_calls) ? line.tool_calls.map(asObj).filter((c): c is Obj => c !== undefined) : [];
  if (e.ids.toolCall) return calls.find((c) => c.id === e.ids.toolCall);
  return calls.length === 1 ? calls[0] : undefined;
}

function messageText(ref: MessageRef, line: Obj): string | null {
  return asString(line.content) ?? null;
}

/** The system prompt and handoff manifests are prompts; tool arguments and results are payloads. */
function eventContent(e: StoredEvent, line: Obj, opts: ContentOptions): Obj {
  const o = new Omitter();
  const content: Obj = { ...line };
  if (!opts.includePrompts) {
    if (line.type === 'message' && line.role === 'system') o.take(content, 'content', 'content');
    if (line.type === 'handoff') o.take(content, 'manifest', 'manifest');
  }
  if (!opts.includeToolPayloads) {
    if (line.type === 'tool_result') o.take(content, 'content', 'content');
    if (Array.isArray(line.tool_calls)) {
      // Keep which calls were made; leave their arguments out.
      const calls = line.tool_calls.map((c) => ({ ...(asObj(c) ?? {}) }));
      calls.forEach((c, i) => o.take(c, 'arguments', `tool_calls[${i}].arguments`));
      content.tool_calls = calls;
    }
  }
  return o.finish(content);
}

function toolCallInput(e: StoredEvent, line: Obj): Obj | undefined {
  const call = callOf(e, line);
  return call ? callArguments(call) : undefined;
}

function failureText(e: StoredEvent, line: Obj): string | undefined {
  if (e.kind === 'tool_result') return asString(line.content);
  if (line.type === 'turn_end') return asString(line.error);
  return undefined;
}

function ending(events: readonly StoredEvent[]): FormatEnding {
  return { degradation: null, budgetExhausted: lastTerminalState(events) === 'budget_exhausted' };
}

/** Why the last turn failed, in the runtime's words. */
function erroredEnding(facts: EndingFacts, reason: (text: string) => string): string | null {
  if (facts.budgetExhausted) return 'The last turn stopped when its budget (context or cost) was exhausted.';
  if (facts.lastError && /ended step_limit/.test(facts.lastError)) return 'The last turn stopped at the step limit before the model gave a final answer.';
  if (facts.lastError) return `The last turn ended in an error: ${reason(facts.lastError)}.`;
  return null;
}

const hindsightReplay: ReplayMapper = {
  needsLine: (e) => e.kind === 'user_message' || e.kind === 'assistant_message' || e.kind === 'tool_call' || e.kind === 'tool_result',
  map(e, line, cx) {
    const l = line ?? {};
    switch (e.kind) {
      case 'user_message': {
        const text = asString(l.content) ?? e.summary;
        return e.attrs.nonHuman === true ? [note(e.summary)] : [{ r: 'user', ...cutText(text, cx.userTextLimit) }];
      }
      case 'assistant_message':
        return e.attrs.empty === true ? [] : [{ r: 'assistant', m: asString(l.content) ?? e.summary }];
      case 'thinking':
        return cx.detail ? [{ r: 'assistant', thinking: true, m: e.summary }] : [{ r: 'assistant', thinking: true }];
      case 'tool_call': {
        const name = e.toolName ?? 'unknown';
        const call = line ? callOf(e, l) : undefined;
        return [{ r: 'assistant', tool: name, args: call ? summariseArgs(name, callArguments(call) ?? call.arguments) : {} }];
      }
      case 'tool_result': {
        const name = e.toolName ?? 'unknown';
        const isError = e.toolStatus === 'error';
        return [{ r: 'user', tool_result: name, status: isError ? 'error' : 'success', ...summariseResult(name, { text: asString(l.content) ?? '', isError }) }];
      }
      case 'error':
        return [note(e.summary, true)];
      case 'warning':
      case 'compaction':
      case 'subagent_start':
        return [note(e.summary)];
      default:
        return [];
    }
  },
};

export const hindsightProfile = defineProfile({
  label: 'Hindsight runtime',
  // The runtime talks to whichever provider its config names: each call's provider comes from its model.
  agentIdentity: { agentName: 'Hindsight', providerName: null },
  userTurns,
  messageText,
  eventContent,
  toolCallInput,
  failureText,
  // model_call records are the calls; nothing else carries usage.
  countsUsage: (e) => e.kind === 'llm_call',
  ending,
  erroredEnding,
  replay: hindsightReplay,
  rewind: null,
  rewindRefusal:
    'A runtime session file is the record the runtime resumes from and is only ever appended to, so Hindsight does not cut it back; resume the session and continue from where you want instead.',
});
