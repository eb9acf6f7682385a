// Reading Chat Completions answers: the chunks of a stream folded into one response, a whole JSON
// body, and the usage block. Written against what real servers send (the provider-streams
// fixtures): sparse tool-call indexes, empty ids, a call whole in one chunk, `reasoning` or
// `reasoning_content`, reasoning counted only in total_tokens.

import type { ChatDelta, ProviderUsage, ToolCallRequest } from '../model/chat.js';
import { readArguments, type IdMinter } from './tool-arguments.js';

/** A response before the text parser (--parser) has had its say. */
export interface RawOpenAIResponse {
  content: string | null;
  reasoning: string | null;
  toolCalls: ToolCallRequest[];
  usage: ProviderUsage | null;
  finishReason: string | null;
  responseId: string | null;
  model: string | null;
}

type Json = Record<string, unknown>;

function isRecord(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

/**
 * OpenAI's usage block as ProviderUsage. Cached prompt tokens are taken out of inputTokens. When
 * total_tokens exceeds prompt + completion (xAI, Gemini: reasoning counted only in the total) the
 * difference is output the model produced, so it joins outputTokens and counts as reasoning.
 */
export function usageFromOpenAI(usage: unknown): ProviderUsage | null {
  if (!isRecord(usage)) return null;
  const prompt = num(usage.prompt_tokens);
  const completion = num(usage.completion_tokens);
  const total = num(usage.total_tokens);
  const cached = isRecord(usage.prompt_tokens_details) ? num(usage.prompt_tokens_details.cached_tokens) : 0;
  let reasoning = isRecord(usage.completion_tokens_details) ? num(usage.completion_tokens_details.reasoning_tokens) : 0;
  const hidden = total > prompt + completion ? total - prompt - completion : 0;
  if (hidden > 0) reasoning = Math.max(reasoning, hidden);
  return {
    inputTokens: Math.max(0, prompt - cached),
    outputTokens: completion + hidden,
    cacheReadTokens: cached,
    cacheCreationTokens: 0,
    reasoningTokens: reasoning,
  };
}

function reasoningOf(obj: Json): string | null {
  if (typeof obj.reasoning_content === 'string') return obj.reasoning_content;
  if (typeof obj.reasoning === 'string') return obj.reasoning;
  return null;
}

interface PendingCall {
  index: number;
  id: string;
  name: string;
  args: string;
}

/** Folds stream chunks into one response; push() returns the deltas a terminal may show. */
export class OpenAIStreamAccumulator {
  private content = '';
  private reasoning = '';
  private calls = new Map<number, PendingCall>();
  private lastIndex = -1;
  private usage: ProviderUsage | null = null;
  finishReason: string | null = null;
  private responseId: string | null = null;
  private model: string | null = null;

  constructor(private readonly mintId: IdMinter) {}

  push(chunk: Json): ChatDelta[] {
    const deltas: ChatDelta[] = [];
    if (typeof chunk.id === 'string' && chunk.id && !this.responseId) this.responseId = chunk.id;
    if (typeof chunk.model === 'string' && chunk.model) this.model = chunk.model;
    if (isRecord(chunk.usage)) this.usage = usageFromOpenAI(chunk.usage);
    const choices = Array.isArray(chunk.choices) ? chunk.choices : [];
    for (const choice of choices) {
      if (!isRecord(choice) || num(choice.index) !== 0) continue;
      if (typeof choice.finish_reason === 'string') this.finishReason = choice.finish_reason;
      const delta = isRecord(choice.delta) ? choice.delta : null;
      if (!delta) continue;
      const thought = reasoningOf(delta);
      if (thought) {
        this.reasoning += thought;
        deltas.push({ type: 'reasoning', text: thought });
      }
      if (typeof delta.content === 'string' && delta.content) {
        this.content += delta.content;
        deltas.push({ type: 'content', text: delta.content });
      }
      if (Array.isArray(delta.tool_calls)) {
        for (const part of delta.tool_calls) if (isRecord(part)) this.pushCallPart(part, deltas);
      }
    }
    return deltas;
  }

  private pushCallPart(part: Json, deltas: ChatDelta[]): void {
    const fn = isRecord(part.function) ? part.function : {};
    const id = typeof part.id === 'string' ? part.id : '';
    // Servers that leave `index` out start a new call with each new id.
    let index = typeof part.index === 'number' ? part.index : this.lastIndex;
    if (typeof part.index !== 'number' && (index < 0 || (id && id !== this.calls.get(index)?.id))) index = this.lastIndex + 1;
    this.lastIndex = index;
    let call = this.calls.get(index);
    if (!call) {
      call = { index, id: '', name: '', args: '' };
      this.calls.set(index, call);
    }
    if (id && !call.id) call.id = id;
    if (typeof fn.name === 'string' && fn.name && !call.name) {
      call.name = fn.name;
      deltas.push({ type: 'tool_call', index: this.calls.size - 1, name: fn.name });
    }
    if (typeof fn.arguments === 'string') call.args += fn.arguments;
  }

  result(): RawOpenAIResponse {
    const toolCalls = [...this.calls.values()]
      .sort((a, b) => a.index - b.index)
      .map((c) => ({ id: c.id || this.mintId(), name: c.name, arguments: readArguments(c.args) }));
    return {
      content: this.content.length > 0 ? this.content : null,
      reasoning: this.reasoning.length > 0 ? this.reasoning : null,
      toolCalls,
      usage: this.usage,
      finishReason: this.finishReason,
      responseId: this.responseId,
      model: this.model,
    };
  }
}

/** A whole (stream:false) Chat Completions body; null when it has no first choice to read. */
export function readOpenAIJson(body: unknown, mintId: IdMinter): RawOpenAIResponse | null {
  if (!isRecord(body) || !Array.isArray(body.choices)) return null;
  const choice = body.choices.find((c) => isRecord(c) && num(c.index) === 0) ?? body.choices[0];
  if (!isRecord(choice) || !isRecord(choice.message)) return null;
  const message = choice.message;
  const calls = Array.isArray(message.tool_calls) ? message.tool_calls.filter(isRecord) : [];
  return {
    content: typeof message.content === 'string' && message.content.length > 0 ? message.content : null,
    reasoning: reasoningOf(message),
    toolCalls: calls.map((c) => {
      const fn = isRecord(c.function) ? c.function : {};
      const args = fn.arguments;
      return {
        id: typeof c.id === 'string' && c.id ? c.id : mintId(),
        name: typeof fn.name === 'string' ? fn.name : '',
        arguments: typeof args === 'string' ? readArguments(args) : isRecord(args) ? args : {},
      };
    }),
    usage: usageFromOpenAI(body.usage),
    finishReason: typeof choice.finish_reason === 'string' ? choice.finish_reason : null,
    responseId: typeof body.id === 'string' && body.id ? body.id : null,
    model: typeof body.model === 'string' ? body.model : null,
  };
}
