// Text for generated Control Plane sessions: user messages, KB-size prompts and responses, tool
// calls with results — shaped like the fixtures so sizes and search behave realistically.

import type { PyValue } from './control-plane-pyjson.js';
import type { Random } from './control-plane-random.js';

export const USER_MESSAGES: readonly string[] = [
  'good morning',
  'hello',
  'yo',
  'what budget mode are we running in?',
  'which sessions ended with errors today?',
  'search governance for TIMEOUT errors',
  'summarize the current session',
  'what does the latest BUDGET_DEBIT say?',
  'list the installed packages',
  'why did the last work order fail?',
  'Please reconstruct the previous session.\nFocus on:\n- tool calls\n- quality gate decisions\n- anything that failed',
  '列出会话\n然后总结一下 😀\n\tthanks',
  'is the 👩‍💻 emoji (ZWJ) stored intact? also 🇯🇵 and 𝒳 and café',
  'paste from a web page: line one\u2028line two\u2029next paragraph\u0085after NEL',
  'Привет! как дела с бюджетом?',
  'show me the quality gate rejections and the escalations they caused',
  'thanks, bye',
];

const SENTENCES: readonly string[] = [
  'The gateway retries TIMEOUT, RATE_LIMITED and SERVER_ERROR up to the configured limit.',
  'Rotated ledger segments keep the same hash chain as the active file.',
  'Budget debits are written per work-order scope, so remaining tokens are per WO.',
  'A rejected quality gate triggers up to two retries before an escalation is recorded.',
  'Sessions that never wrote SESSION_END are still considered active.',
  'Each work order runs on HO1 and reports its cost back to the supervisor.',
  'The classify step decides whether the utterance is a question, a command or a greeting.',
  'Tool results larger than the inline limit are summarised before they reach the model.',
  'Nothing here required a file write; all operations were read-only.',
  'The projection compared the attention context with the projected context and found no drift.',
];

type PyObject = { [key: string]: PyValue };

const TOOLS: readonly { id: string; args: () => PyObject }[] = [
  { id: 'list_packages', args: () => ({}) },
  { id: 'read_file', args: () => ({ path: 'HOT/config/budget.json' }) },
  { id: 'grep_jsonl', args: () => ({ source: 'governance', pattern: '"error_code": "TIMEOUT"', limit: 20 }) },
  { id: 'session_overview', args: () => ({ session_id: 'latest' }) },
  { id: 'reconstruct_session', args: () => ({ session_id: 'latest', max_entries: 200 }) },
  { id: 'query_ledger_full', args: () => ({ source: 'ho2m', event_type: 'WO_QUALITY_GATE', max_entries: 50 }) },
];

/** A paragraph of `n` sentences. */
export function paragraph(rng: Random, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(rng.pick(SENTENCES));
  return out.join(' ');
}

/** A prompt of roughly `bytes` bytes: instructions, the user's input, and context fragments. */
export function prompt(rng: Random, kind: string, userMessage: string, bytes: number): string {
  const parts = [
    `You ${kind === 'classify' ? 'classify user utterances' : 'answer the user'} for the admin agent of a governed control plane.`,
    'Read the input below and follow the rules exactly.',
    '',
    'Input:',
    userMessage,
    '',
    'Context:',
  ];
  let size = parts.join('\n').length;
  while (size < bytes) {
    const p = `- ${paragraph(rng, rng.int(1, 4))}`;
    parts.push(p);
    size += p.length + 1;
  }
  return parts.join('\n');
}

/** A classify result, as the model returns it. */
export function classifyResponse(rng: Random): string {
  const act = rng.pick(['greeting', 'question', 'command', 'farewell']);
  const domain = rng.pick(['system', 'config', 'session', 'tools', 'docs', 'general']);
  return JSON.stringify({ speech_act: act, ambiguity: rng.pick(['low', 'medium']), labels: { domain, task: 'inspect' } });
}

/** A response of roughly `bytes` bytes. */
export function response(rng: Random, bytes: number): string {
  const parts: string[] = [];
  let size = 0;
  while (size < bytes) {
    const p = paragraph(rng, rng.int(1, 5));
    parts.push(p);
    size += p.length + 2;
  }
  return parts.join('\n\n');
}

export interface ToolCall {
  toolId: string;
  args: PyObject;
  result: PyObject;
  error: string;
}

/** A tool call; `fail` gives it an error result. */
export function toolCall(rng: Random, fail: boolean): ToolCall {
  const tool = rng.pick(TOOLS);
  const args = tool.args();
  if (fail) {
    const error = rng.pick(['file not found', 'maximum recursion depth exceeded while calling a Python object', 'permission denied']);
    return { toolId: tool.id, args, result: { status: 'error', error }, error };
  }
  const rows = Array.from({ length: rng.int(1, 40) }, (_, i) => ({ n: i + 1, note: rng.pick(SENTENCES) }));
  return { toolId: tool.id, args, result: { status: 'ok', count: rows.length, rows }, error: '' };
}
