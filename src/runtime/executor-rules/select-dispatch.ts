// Which of a model response's tool calls the executor runs, and whether the turn is over
// (seed control-plane-classify-fix §3, §4 step 1). Two rules, both always applied:
// 1. `output_json` is not a tool. Anthropic-style providers return structured output as a tool
//    call of that name; unless the agent really offers a tool called output_json (it is in
//    tools_allowed), every such call is removed and the first one's input is the structured result.
// 2. Only tools in tools_allowed are dispatched; an empty or absent list dispatches nothing.
// When nothing dispatchable is left the turn finishes now with the content it has: a pseudo call or
// an undeclared tool must never cost an extra model turn or end in a turn-limit failure.

import type { ToolCallRequest } from '../model/chat.js';

export interface DispatchInput {
  toolCalls: readonly ToolCallRequest[];
  /** The response's text (some providers also serialise the structured output into it). */
  content: string | null;
  /** The tools the agent may run; undefined, null or [] → nothing is dispatched. */
  toolsAllowed?: readonly string[] | null;
}

export interface DispatchDecision {
  /** The calls to run, in the model's order, their JSON-string arguments parsed. */
  dispatch: ToolCallRequest[];
  /** The first intercepted output_json call's input; undefined when none was intercepted. */
  structuredOutput: unknown;
  /** JSON text of structuredOutput when one was intercepted, else the response's content. */
  finalContent: string | null;
  /** Names of the calls dropped because tools_allowed does not list them (output_json calls not included). */
  filtered: string[];
  /** How many output_json calls were removed. */
  intercepted: number;
  /** Nothing left to dispatch: finish the turn with finalContent, without another model step. */
  done: boolean;
}

/**
 * Whether a tool name means the structured-output pseudo tool. Matched defensively, since the name
 * is a provider's implementation detail: surrounding whitespace and a `functions.` prefix (how some
 * OpenAI-style templates qualify names) are ignored, case is ignored, and the separator may be `_`,
 * `-` or none — output_json, OUTPUT_JSON, output-json, outputJson, functions.output_json all match.
 */
export function isOutputJsonName(name: string): boolean {
  const bare = name.trim().replace(/^functions\./i, '').trim().toLowerCase();
  return /^output[_-]?json$/.test(bare);
}

/** Arguments sent as a JSON string become the object they spell; anything else stays as it is. */
export function normalizeArguments(args: Record<string, unknown> | string): Record<string, unknown> | string {
  if (typeof args !== 'string') return args;
  const parsed = parseJson(args);
  return parsed.ok && isPlainObject(parsed.value) ? parsed.value : args;
}

/** The structured value an output_json call carries: its input, a JSON string read as the value it spells. */
function structuredValueOf(args: Record<string, unknown> | string): unknown {
  if (typeof args !== 'string') return args;
  const parsed = parseJson(args);
  return parsed.ok ? parsed.value : args;
}

export function selectDispatch(input: DispatchInput): DispatchDecision {
  const allowed = new Set(input.toolsAllowed ?? []);
  const outputJsonIsATool = [...allowed].some(isOutputJsonName);

  let remaining: readonly ToolCallRequest[] = input.toolCalls;
  let structuredOutput: unknown = undefined;
  let intercepted = 0;
  if (!outputJsonIsATool) {
    const pseudo = input.toolCalls.filter((call) => isOutputJsonName(call.name));
    intercepted = pseudo.length;
    if (pseudo.length > 0) {
      structuredOutput = structuredValueOf(pseudo[0]!.arguments);
      remaining = input.toolCalls.filter((call) => !isOutputJsonName(call.name));
    }
  }

  const dispatch: ToolCallRequest[] = [];
  const filtered: string[] = [];
  for (const call of remaining) {
    if (allowed.has(call.name)) dispatch.push({ ...call, arguments: normalizeArguments(call.arguments) });
    else filtered.push(call.name);
  }

  return {
    dispatch,
    structuredOutput,
    finalContent: intercepted > 0 ? (JSON.stringify(structuredOutput) ?? null) : input.content,
    filtered,
    intercepted,
    done: dispatch.length === 0,
  };
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
