// The runtime's one vocabulary for talking to a model: the messages of a conversation, the tools
// offered, what a provider client returns. Providers translate these to their wire protocols;
// the session, the executor, compaction and the recorder only ever see these shapes.

/** A tool call the model asked for. `arguments` is the raw text when it could not be read as a JSON object. */
export interface ToolCallRequest {
  /** The provider's call id (tool_use id, tool_calls[].id), or one minted for text-parsed calls. */
  id: string;
  name: string;
  arguments: Record<string, unknown> | string;
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | {
      role: 'assistant';
      content: string | null;
      /** Thinking text, kept for the record; providers that cannot take it back drop it. */
      reasoning?: string | null;
      toolCalls?: ToolCallRequest[];
    }
  | { role: 'tool'; toolCallId: string; name: string; content: string; isError?: boolean };

export type ChatRole = ChatMessage['role'];

/** A tool as the model sees it: name, description and a JSON Schema for its arguments. */
export interface ModelToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** Token counts as the provider reported them (zeros for kinds it does not report). */
export interface ProviderUsage {
  /** Input tokens not read from or written to a prompt cache. */
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheCreationTokens: number;
  /** Reasoning tokens, when the provider counts them apart (they are also inside outputTokens for OpenAI). */
  reasoningTokens: number;
}

/** What streams out while a response is produced (for terminals); the final ChatResponse is the truth. */
export type ChatDelta =
  | { type: 'content'; text: string }
  | { type: 'reasoning'; text: string }
  | { type: 'tool_call'; index: number; name: string };

export interface ChatRequest {
  messages: readonly ChatMessage[];
  tools: readonly ModelToolSpec[];
  maxOutputTokens?: number;
  /**
   * Ask for structured output: the answer is one JSON value matching `schema`. Anthropic-style
   * providers deliver it as an `output_json` tool call (the executor rules intercept it).
   */
  structuredOutput?: { name?: string; schema: Record<string, unknown> };
  signal?: AbortSignal;
  onDelta?: (delta: ChatDelta) => void;
}

export interface ChatResponse {
  content: string | null;
  reasoning: string | null;
  toolCalls: ToolCallRequest[];
  /** Null when the provider sent no usage block (the token counter then estimates). */
  usage: ProviderUsage | null;
  /** The provider's own word: stop, tool_calls, length, end_turn, tool_use, max_tokens… */
  finishReason: string | null;
  responseId: string | null;
  /** The model that answered, as the provider named it. */
  model: string;
  /** Calls parsed out of text by a `--parser`, and what the parser could not read. */
  parseErrors?: { code: string; message: string }[];
}

/** A provider client. Errors are ProviderError (providers/errors.ts) with a kind the session can act on. */
export interface ModelClient {
  chat(request: ChatRequest): Promise<ChatResponse>;
  /** The models the provider lists (doctor), when it has such an endpoint. */
  listModels?(signal?: AbortSignal): Promise<string[]>;
}
