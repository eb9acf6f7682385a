// What the tools need to know about Codex sessions (hooks of src/formats/profile.ts). A rollout is
// one file per session; each line is one record (one event). The person's prompts are event_msg
// user_message, the answers response_item messages; the other copies are mirrors (system events).

import { Omitter } from '../shared/payload-omitter.js';
import { cutText, note } from '../shared/replay-text.js';
import { summariseArgs, summariseResult } from '../shared/tool-summary.js';
import type { StoredEvent } from '../importer.js';
import { defineProfile, type ContentOptions, type MessageRef, type ReplayMapper } from '../profile.js';
import { asObj, asString, contentText, parseArguments, type Obj } from './json.js';
import { userTurns } from './session-view.js';

const payloadOf = (line: Obj): Obj => asObj(line.payload) ?? line;

/** The person's prompts and the assistant's messages, in order (mirrors left out). */
function transcriptMessages(events: readonly StoredEvent[]): MessageRef[] {
  const turns = new Set(userTurns(events));
  const out: MessageRef[] = [];
  for (const e of events) {
    if (turns.has(e)) out.push({ event: e, role: 'user' });
    else if (e.kind === 'assistant_message') out.push({ event: e, role: 'assistant' });
  }
  return out;
}

function messageText(ref: MessageRef, line: Obj): string | null {
  const p = payloadOf(line);
  if (typeof p.message === 'string') return p.message;
  const text = contentText(p.content, Number.MAX_SAFE_INTEGER);
  return text === '' ? null : text;
}

/** Session instructions, developer messages and encrypted reasoning are prompts; tool arguments and outputs are payloads. */
function eventContent(e: StoredEvent, line: Obj, opts: ContentOptions): Obj {
  const o = new Omitter();
  const payload = asObj(line.payload) ? { ...(line.payload as Obj) } : undefined;
  const content: Obj = payload ? { ...line, payload } : { ...line };
  const target = payload ?? content;
  const label = payload ? 'payload.' : '';
  // Opaque to everyone but the model provider: never useful in a timeline.
  o.take(target, 'encrypted_content', `${label}encrypted_content`);
  if (!opts.includePrompts) {
    if (e.type === 'session_meta') {
      o.take(target, 'base_instructions', `${label}base_instructions`);
      o.take(target, 'instructions', `${label}instructions`);
      o.take(target, 'dynamic_tools', `${label}dynamic_tools`);
    }
    if (e.type === 'turn_context') {
      o.take(target, 'user_instructions', `${label}user_instructions`);
      o.take(target, 'developer_instructions', `${label}developer_instructions`);
      const mode = asObj(target.collaboration_mode);
      if (mode) {
        // Its settings repeat the developer instructions sent with the turn.
        const copy = { ...mode };
        target.collaboration_mode = copy;
        o.take(copy, 'settings', `${label}collaboration_mode.settings`);
      }
    }
    if (e.type === 'response_item:message' && e.kind === 'system') o.take(target, 'content', `${label}content`);
  }
  if (!opts.includeToolPayloads && (e.kind === 'tool_call' || e.kind === 'tool_result' || e.attrs.mirrorOf === 'tool_result')) {
    for (const k of ['arguments', 'input', 'output', 'action', 'aggregated_output', 'stdout', 'stderr', 'formatted_output', 'changes']) o.take(target, k, `${label}${k}`);
  }
  return o.finish(content);
}

function toolCallInput(_e: StoredEvent, line: Obj): Obj | undefined {
  const p = payloadOf(line);
  if (p.type === 'custom_tool_call') {
    const input = asString(p.input) ?? '';
    const files = [...input.matchAll(/^\*\*\* (?:Update|Add|Delete) File: (.+)$/gm)].map((m) => m[1]!.trim());
    return files.length > 0 ? { file_path: files[0], files, patch: input } : { input };
  }
  if (p.type === 'local_shell_call') return asObj(p.action);
  return parseArguments(p.arguments);
}

function outputText(p: Obj): string {
  const out = p.output;
  if (typeof out === 'string') {
    const parsed = out.startsWith('{') ? parseArguments(out) : undefined;
    return asString(parsed?.output) ?? out;
  }
  return asString(asObj(out)?.content) ?? (Array.isArray(out) ? out.map((x) => asString(asObj(x)?.text) ?? '').join('\n') : '');
}

function failureText(e: StoredEvent, line: Obj): string | undefined {
  if (e.kind !== 'tool_result') return undefined;
  return outputText(payloadOf(line));
}

/** Codex tool names in the words of the replay's tool families. */
function replayTool(name: string): string {
  if (name === 'exec_command' || name === 'shell' || name === 'local_shell' || name === 'container.exec') return 'bash';
  return name;
}

function callArgs(name: string, p: Obj): Obj {
  const input = toolCallInput({} as StoredEvent, p) ?? {};
  const command = input.cmd ?? input.command;
  if (command !== undefined) return summariseArgs('bash', { command: Array.isArray(command) ? command.join(' ') : command });
  return summariseArgs(replayTool(name), input);
}

const codexReplay: ReplayMapper = {
  needsLine: (e) => e.kind === 'user_message' || e.kind === 'assistant_message' || e.kind === 'tool_call' || e.kind === 'tool_result' || e.kind === 'thinking',
  map(e, line, cx) {
    const p = line ? payloadOf(line) : {};
    switch (e.kind) {
      case 'user_message':
        return [{ r: 'user', ...cutText(asString(p.message) ?? contentText(p.content, Number.MAX_SAFE_INTEGER) ?? e.summary, cx.userTextLimit) }];
      case 'assistant_message':
        return [{ r: 'assistant', m: contentText(p.content, Number.MAX_SAFE_INTEGER) || e.summary }];
      case 'thinking':
        return cx.detail && !e.attrs.empty ? [{ r: 'assistant', thinking: true, m: e.summary }] : [{ r: 'assistant', thinking: true }];
      case 'tool_call': {
        const name = e.toolName ?? 'unknown';
        return [{ r: 'assistant', tool: replayTool(name), args: line ? callArgs(name, p) : {} }];
      }
      case 'tool_result': {
        const name = replayTool(e.toolName ?? 'unknown');
        const isError = e.toolStatus === 'error';
        const text = line ? outputText(p) : '';
        const facts = summariseResult(name, { text, isError, structured: typeof e.attrs.exitCode === 'number' ? { exit_code: e.attrs.exitCode } : undefined });
        return [{ r: 'user', tool_result: name, status: isError ? 'error' : 'success', ...facts }];
      }
      case 'error':
        return [note(e.summary, true)];
      case 'warning':
      case 'compaction':
        return [note(e.summary)];
      default:
        return [];
    }
  },
};

export const codexProfile = defineProfile({
  label: 'Codex CLI',
  // The OTLP export's gen_ai.agent.name and gen_ai.provider.name (docs/otel.md). Codex CLI calls OpenAI's Responses API.
  agentIdentity: { agentName: 'Codex', providerName: 'openai' },
  userTurns,
  transcriptMessages,
  messageText,
  eventContent,
  toolCallInput,
  failureText,
  // token_count events that counted a call carry usage; nothing else does.
  countsUsage: (e) => e.kind === 'llm_call',
  replay: codexReplay,
  rewind: null,
  rewindRefusal:
    'Codex resumes a session from its whole rollout and forks copy it, so cutting a rollout back is not done here; use `codex resume` and fork from the turn you want instead.',
});
