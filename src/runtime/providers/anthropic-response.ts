// Reading Messages API answers: stream events folded into one response (text, thinking, tool_use
// input from input_json_delta pieces, usage from message_start and message_delta), or a whole
// Message body. Pings, signatures and fields this runtime does not use are passed over.

import type { ChatDelta, ChatResponse, ProviderUsage } from '../model/chat.js';
import { readArguments } from './tool-arguments.js';

type Json = Record<string, unknown>;

function isRecord(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function num(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

interface Block {
  type: string;
  text: string;
  id: string;
  name: string;
  json: string;
  input: unknown;
}

/** Anthropic's input_tokens already leave out cache reads and writes. */
function mergeUsage(into: ProviderUsage, usage: unknown): void {
  if (!isRecord(usage)) return;
  into.inputTokens = num(usage.input_tokens) ?? into.inputTokens;
  into.outputTokens = num(usage.output_tokens) ?? into.outputTokens;
  into.cacheReadTokens = num(usage.cache_read_input_tokens) ?? into.cacheReadTokens;
  into.cacheCreationTokens = num(usage.cache_creation_input_tokens) ?? into.cacheCreationTokens;
  const details = usage.output_tokens_details;
  if (isRecord(details)) into.reasoningTokens = num(details.thinking_tokens) ?? into.reasoningTokens;
}

function emptyUsage(): ProviderUsage {
  return { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheCreationTokens: 0, reasoningTokens: 0 };
}

export class AnthropicStreamAccumulator {
  private blocks = new Map<number, Block>();
  private usage: ProviderUsage | null = null;
  private stopReason: string | null = null;
  private id: string | null = null;
  private model: string | null = null;
  /** message_stop arrived: the response is complete. */
  stopped = false;

  push(event: unknown): ChatDelta[] {
    if (!isRecord(event)) return [];
    switch (event.type) {
      case 'message_start': {
        const message = isRecord(event.message) ? event.message : {};
        if (typeof message.id === 'string') this.id = message.id;
        if (typeof message.model === 'string') this.model = message.model;
        if (isRecord(message.usage)) mergeUsage((this.usage ??= emptyUsage()), message.usage);
        return [];
      }
      case 'content_block_start': {
        const cb = isRecord(event.content_block) ? event.content_block : {};
        const block: Block = {
          type: typeof cb.type === 'string' ? cb.type : 'unknown',
          text: typeof cb.text === 'string' ? cb.text : typeof cb.thinking === 'string' ? cb.thinking : '',
          id: typeof cb.id === 'string' ? cb.id : '',
          name: typeof cb.name === 'string' ? cb.name : '',
          json: '',
          input: cb.input,
        };
        this.blocks.set(num(event.index) ?? this.blocks.size, block);
        if (block.type === 'tool_use') return [{ type: 'tool_call', index: this.toolIndex(block), name: block.name }];
        return [];
      }
      case 'content_block_delta': {
        const block = this.blocks.get(num(event.index) ?? -1);
        const delta = isRecord(event.delta) ? event.delta : {};
        if (!block) return [];
        if (delta.type === 'text_delta' && typeof delta.text === 'string' && delta.text) {
          block.text += delta.text;
          return [{ type: 'content', text: delta.text }];
        }
        if (delta.type === 'thinking_delta' && typeof delta.thinking === 'string' && delta.thinking) {
          block.text += delta.thinking;
          return [{ type: 'reasoning', text: delta.thinking }];
        }
        if (delta.type === 'input_json_delta' && typeof delta.partial_json === 'string') block.json += delta.partial_json;
        return [];
      }
      case 'message_delta': {
        const delta = isRecord(event.delta) ? event.delta : {};
        if (typeof delta.stop_reason === 'string') this.stopReason = delta.stop_reason;
        if (isRecord(event.usage)) mergeUsage((this.usage ??= emptyUsage()), event.usage);
        return [];
      }
      case 'message_stop':
        this.stopped = true;
        return [];
      default:
        return [];
    }
  }

  private toolIndex(block: Block): number {
    return [...this.blocks.values()].filter((b) => b.type === 'tool_use').indexOf(block);
  }

  result(fallbackModel: string): ChatResponse {
    const ordered = [...this.blocks.entries()].sort((a, b) => a[0] - b[0]).map(([, b]) => b);
    return assemble(ordered, {
      usage: this.usage,
      stopReason: this.stopReason,
      id: this.id,
      model: this.model ?? fallbackModel,
    });
  }
}

function assemble(blocks: Block[], meta: { usage: ProviderUsage | null; stopReason: string | null; id: string | null; model: string }): ChatResponse {
  const text = blocks.filter((b) => b.type === 'text').map((b) => b.text).join('');
  const thinking = blocks.filter((b) => b.type === 'thinking').map((b) => b.text).join('\n');
  return {
    content: text.length > 0 ? text : null,
    reasoning: thinking.length > 0 ? thinking : null,
    toolCalls: blocks
      .filter((b) => b.type === 'tool_use')
      .map((b) => ({
        id: b.id,
        name: b.name,
        arguments: b.json.trim() !== '' ? readArguments(b.json) : isRecord(b.input) ? b.input : {},
      })),
    usage: meta.usage,
    finishReason: meta.stopReason,
    responseId: meta.id,
    model: meta.model,
  };
}

/** A whole (non-streamed) Message; null when it is not one. */
export function readAnthropicMessage(body: unknown, fallbackModel: string): ChatResponse | null {
  if (!isRecord(body) || !Array.isArray(body.content)) return null;
  const blocks: Block[] = body.content.filter(isRecord).map((cb) => ({
    type: typeof cb.type === 'string' ? cb.type : 'unknown',
    text: typeof cb.text === 'string' ? cb.text : typeof cb.thinking === 'string' ? cb.thinking : '',
    id: typeof cb.id === 'string' ? cb.id : '',
    name: typeof cb.name === 'string' ? cb.name : '',
    json: '',
    input: cb.input,
  }));
  let usage: ProviderUsage | null = null;
  if (isRecord(body.usage)) mergeUsage((usage = emptyUsage()), body.usage);
  return assemble(blocks, {
    usage,
    stopReason: typeof body.stop_reason === 'string' ? body.stop_reason : null,
    id: typeof body.id === 'string' ? body.id : null,
    model: typeof body.model === 'string' ? body.model : fallbackModel,
  });
}
