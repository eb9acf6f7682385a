// The runtime's chat vocabulary in Chat Completions terms: the request body a
// POST {baseUrl}/chat/completions takes.

import type { ChatMessage, ChatRequest, ModelToolSpec } from '../model/chat.js';

export interface OpenAIRequestOptions {
  model: string;
  stream: boolean;
  /** OpenAI's own API wants max_completion_tokens; compatible servers read max_tokens. */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
}

export type OpenAIMessage =
  | { role: 'system' | 'user'; content: string }
  | {
      role: 'assistant';
      content: string | null;
      tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
    }
  | { role: 'tool'; tool_call_id: string; content: string };

/**
 * Reasoning is not sent back: DeepSeek refuses `reasoning_content` in input messages and the other
 * servers ignore it.
 */
export function toOpenAIMessages(messages: readonly ChatMessage[]): OpenAIMessage[] {
  return messages.map((m): OpenAIMessage => {
    switch (m.role) {
      case 'system':
      case 'user':
        return { role: m.role, content: m.content };
      case 'tool':
        return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
      case 'assistant': {
        const calls = m.toolCalls ?? [];
        if (calls.length === 0) return { role: 'assistant', content: m.content ?? '' };
        return {
          role: 'assistant',
          content: m.content && m.content.length > 0 ? m.content : null,
          tool_calls: calls.map((c) => ({
            id: c.id,
            type: 'function',
            function: { name: c.name, arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments) },
          })),
        };
      }
    }
  });
}

export function toOpenAITools(tools: readonly ModelToolSpec[]): unknown[] {
  return tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }));
}

export function openAIRequestBody(request: ChatRequest, options: OpenAIRequestOptions): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: options.model,
    messages: toOpenAIMessages(request.messages),
    stream: options.stream,
  };
  if (options.stream) body.stream_options = { include_usage: true };
  if (request.tools.length > 0) body.tools = toOpenAITools(request.tools);
  if (request.maxOutputTokens !== undefined) body[options.maxTokensField ?? 'max_tokens'] = request.maxOutputTokens;
  if (request.structuredOutput) {
    body.response_format = {
      type: 'json_schema',
      json_schema: { name: request.structuredOutput.name ?? 'output', schema: request.structuredOutput.schema },
    };
  }
  return body;
}
