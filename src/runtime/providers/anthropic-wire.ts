// The runtime's chat vocabulary in Messages API terms: system text apart, tool results as user
// `tool_result` blocks (consecutive ones in one user message), assistant calls as `tool_use`
// blocks, structured output as the `output_json` tool.

import type { ChatMessage, ChatRequest, ModelToolSpec } from '../model/chat.js';

/** The name of the pseudo tool that carries structured output (the executor rules intercept it). */
export const OUTPUT_JSON_TOOL = 'output_json';

/** Used when a request names no output limit: the seed's reservedOutputTokens default. */
export const DEFAULT_MAX_OUTPUT_TOKENS = 8192;

type Block =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'tool_result'; tool_use_id: string; content: string; is_error?: boolean };

export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: Block[];
}

export interface AnthropicRequestBody {
  model: string;
  max_tokens: number;
  messages: AnthropicMessage[];
  system?: string;
  tools?: { name: string; description: string; input_schema: Record<string, unknown> }[];
  tool_choice?: { type: 'tool'; name: string } | { type: 'any' };
}

/** tool_use input must be an object: arguments that were never JSON travel as their text. */
function inputOf(args: Record<string, unknown> | string): Record<string, unknown> {
  if (typeof args !== 'string') return args;
  try {
    const value = JSON.parse(args) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through: keep the text
  }
  return { raw_arguments: args };
}

function blocksOf(m: Exclude<ChatMessage, { role: 'system' }>): Block[] {
  switch (m.role) {
    case 'user':
      return m.content.length > 0 ? [{ type: 'text', text: m.content }] : [];
    case 'tool':
      return [{ type: 'tool_result', tool_use_id: m.toolCallId, content: m.content, ...(m.isError ? { is_error: true } : {}) }];
    case 'assistant': {
      // Thinking is not sent back: without its signature the API refuses it.
      const blocks: Block[] = m.content ? [{ type: 'text', text: m.content }] : [];
      for (const c of m.toolCalls ?? []) blocks.push({ type: 'tool_use', id: c.id, name: c.name, input: inputOf(c.arguments) });
      return blocks;
    }
  }
}

/** Messages with system text taken out and same-role neighbours merged (tool results first in their turn). */
export function toAnthropicMessages(messages: readonly ChatMessage[]): { system: string | null; messages: AnthropicMessage[] } {
  const system: string[] = [];
  const out: AnthropicMessage[] = [];
  for (const m of messages) {
    if (m.role === 'system') {
      system.push(m.content);
      continue;
    }
    const role = m.role === 'assistant' ? 'assistant' : 'user';
    const blocks = blocksOf(m);
    if (blocks.length === 0) continue;
    const last = out[out.length - 1];
    if (last && last.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  }
  return { system: system.length > 0 ? system.join('\n\n') : null, messages: out };
}

function toAnthropicTool(t: ModelToolSpec): { name: string; description: string; input_schema: Record<string, unknown> } {
  return { name: t.name, description: t.description, input_schema: t.parameters };
}

export function anthropicRequestBody(request: ChatRequest, model: string): AnthropicRequestBody {
  const { system, messages } = toAnthropicMessages(request.messages);
  const body: AnthropicRequestBody = { model, max_tokens: request.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS, messages };
  if (system !== null) body.system = system;
  const tools = request.tools.map(toAnthropicTool);
  if (request.structuredOutput) {
    tools.push({
      name: OUTPUT_JSON_TOOL,
      description: 'Give your final answer as this tool call: its input is the answer, matching the schema.',
      input_schema: request.structuredOutput.schema,
    });
    // Alone, the answer tool is forced; beside real tools the model must call one of them each step.
    body.tool_choice = request.tools.length === 0 ? { type: 'tool', name: OUTPUT_JSON_TOOL } : { type: 'any' };
  }
  if (tools.length > 0) body.tools = tools;
  return body;
}
