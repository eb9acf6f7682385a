// The runtime's agents: what each mode offers the model, which calls it may dispatch, and the
// system prompt it starts from. `ask` and `chat` are the analyst (read-only registry tools over the
// store); `run` is the coding agent (the handler map, confined to its workspace).

import type { RuntimeMode } from '../../formats/hindsight/records.js';

/** The analyst's tools when the config names none: every read-only registry tool a question needs. */
export const ANALYST_TOOLS: readonly string[] = [
  'list_sessions',
  'session_overview',
  'reconstruct_session',
  'search_sessions',
  'get_events',
  'analyze_events',
  'usage_report',
  'grep_jsonl',
  'query_ledger',
  'list_files',
  'read_file',
];

/** The coding agent's tools: the executor's own handlers. */
export const CODER_TOOLS: readonly string[] = ['read', 'edit', 'write', 'bash', 'search_memory', 'save_memory', 'view_image'];

export interface AgentProfile {
  /** The agent's name as recorded (session_start.agent) and shown in traces. */
  name: string;
  mode: RuntimeMode;
  tools: readonly string[];
  systemPrompt: string;
}

const ANALYST_PROMPT = `You are Hindsight's analyst. You answer questions about AI-agent sessions (Claude Code, Codex, Gemini CLI, OpenCode, Amplifier, Control Plane, and Hindsight's own) from the evidence in the Hindsight store, using the tools you are given.

Rules:
- Look before you answer: find the sessions with list_sessions or search_sessions, then read them with session_overview, get_events, reconstruct_session, grep_jsonl or query_ledger. Use usage_report for tokens and cost.
- Cite your evidence: name every session by its session id, and quote the file and line (path:line) of the log lines you rely on. Say which tool result a number comes from.
- Prefer small, bounded calls (limits, pages, max_bytes); ask for more only when you need it.
- If the evidence does not answer the question, say so and say what you looked at. Never invent a session, a number or a line.
- Answer in plain language, briefly, the conclusion first.`;

const CODER_PROMPT = `You are Hindsight's coding agent. You work inside one workspace folder and nowhere else.

Rules:
- Read before you edit: use read to see the lines you change, then edit with an exact old_string.
- Run commands with bash to check your work; read failures and fix their cause.
- Save what you must not lose with save_memory: it survives compaction of this conversation and a handoff to a fresh session; search_memory finds it again.
- When the task is done, answer with a short summary of what you changed and how you checked it.`;

export function agentProfile(mode: RuntimeMode, configuredTools?: readonly string[]): AgentProfile {
  if (mode === 'run') return { name: 'hindsight-coder', mode, tools: configuredTools ?? CODER_TOOLS, systemPrompt: CODER_PROMPT };
  return { name: 'hindsight-analyst', mode, tools: configuredTools ?? ANALYST_TOOLS, systemPrompt: ANALYST_PROMPT };
}
