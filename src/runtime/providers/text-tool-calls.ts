// `--parser`: for servers that hand a local model's tool calls back as text (no native
// tool_calls), the parser pipeline reads them out of the content. While streaming, content goes
// through the pipeline's streamer first, so a terminal never shows the call markup.

import type { ChatDelta, ChatResponse, ModelToolSpec } from '../model/chat.js';
import { builtInParsers } from '../parsers/index.js';
import { createToolCallStreamer, parseToolCalls } from '../parsers/pipeline.js';
import type { StreamEvent, ToolCallStreamer } from '../parsers/types.js';
import type { RawOpenAIResponse } from './openai-response.js';
import type { IdMinter } from './tool-arguments.js';

/** Whether `parserId` names a parser (an id or alias of the registry). */
export function isKnownParser(parserId: string): boolean {
  return builtInParsers().has(parserId);
}

export function knownParserIds(): string[] {
  return builtInParsers().ids();
}

/** Streamed content through the parser's streamer: the deltas a terminal may show. */
export class ParsedDeltaFilter {
  private readonly streamer: ToolCallStreamer;

  constructor(parserId: string, tools: readonly ModelToolSpec[], private readonly onDelta: (delta: ChatDelta) => void) {
    this.streamer = createToolCallStreamer(parserId, { tools });
  }

  push(delta: ChatDelta): void {
    if (delta.type !== 'content') return this.onDelta(delta);
    this.emit(this.streamer.push(delta.text));
  }

  finish(): void {
    this.emit(this.streamer.finish());
  }

  private emit(events: StreamEvent[]): void {
    for (const e of events) {
      if (e.type === 'content' || e.type === 'reasoning') this.onDelta({ type: e.type, text: e.text });
      else if (e.type === 'call') this.onDelta({ type: 'tool_call', index: e.index, name: e.name });
    }
  }
}

/**
 * The response after the parser: native tool calls win (the server parsed them itself); else the
 * calls read from the content, with minted ids, the content outside them, and what could not be read.
 */
export function applyTextParser(
  raw: RawOpenAIResponse,
  parserId: string,
  tools: readonly ModelToolSpec[],
  mintId: IdMinter,
): Pick<ChatResponse, 'content' | 'reasoning' | 'toolCalls' | 'parseErrors'> {
  if (raw.toolCalls.length > 0 || !raw.content) {
    return { content: raw.content, reasoning: raw.reasoning, toolCalls: raw.toolCalls };
  }
  const parsed = parseToolCalls(parserId, raw.content, { tools });
  const reasoning = [raw.reasoning, parsed.reasoning].filter((r): r is string => !!r).join('\n');
  return {
    content: parsed.content,
    reasoning: reasoning.length > 0 ? reasoning : null,
    toolCalls: parsed.calls.map((c) => ({ id: mintId(), name: c.name, arguments: c.arguments })),
    parseErrors: parsed.parse_errors.map((e) => ({ code: e.code, message: e.message })),
  };
}
