// parse_tool_calls: raw model output (whole, or as streamed deltas) → the tool calls, content and
// leaked reasoning a parser of the runtime's pipeline finds in it (docs/parsers.md). Pure: it
// reads no store and no files. The same function backs `hindsight parse-tools`.

import { z } from 'zod';
import { defineError } from '../../core/errors.js';
import { builtInParsers } from '../../runtime/parsers/index.js';
import { parseToolCallDeltas, parseToolCalls } from '../../runtime/parsers/pipeline.js';
import type { ParseResult, ToolSchema } from '../../runtime/parsers/types.js';
import { defineTool } from '../tool.js';
import { examples } from './examples.js';

/** The most model output one call parses: far above a real turn, low enough to answer quickly. */
export const MAX_PARSE_INPUT_CHARS = 4_000_000;
export const MAX_PARSE_DELTAS = 200_000;

export const UnknownParser = defineError(
  'UNKNOWN_PARSER',
  (id: string, valid: string[]) => `Unknown parser "${id}". Valid parsers: ${valid.join(', ')}.`,
);
export const ParseInputTooLarge = defineError(
  'INPUT_TOO_LARGE',
  (what: string, size: number, max: number) => `${what} is ${size.toLocaleString('en-US')} long; parse_tool_calls takes at most ${max.toLocaleString('en-US')}. Split the output or parse the part that holds the calls.`,
);

const toolSchema = z.object({ name: z.string().min(1), parameters: z.record(z.unknown()).optional() }).passthrough();

const input = z
  .object({
    parser: z.string().min(1).describe('Parser id or alias (hermes, qwen3_xml, kimi_k2, …; an unknown id lists the valid ones).'),
    text: z.string().optional().describe('The whole model output. Give this or deltas.'),
    deltas: z.array(z.string()).optional().describe('The output as streamed pieces, fed to the streaming parser one by one.'),
    tools: z.array(toolSchema).optional().describe('Declared tools [{name, parameters}]: XML-style string parameters become their declared types.'),
  })
  .strict()
  .refine((a) => (a.text === undefined) !== (a.deltas === undefined), { message: 'give exactly one of text and deltas' });

export interface ParseRequest {
  parser: string;
  text?: string;
  deltas?: readonly string[];
  tools?: readonly ToolSchema[];
}

/** The one function behind the tool and the CLI: checks bounds and the parser id, then parses. */
export function runParseRequest(req: ParseRequest): ParseResult & { parser: string } & Record<string, unknown> {
  const registry = builtInParsers();
  if (!registry.has(req.parser)) throw UnknownParser(req.parser, registry.ids());
  if (req.deltas) {
    if (req.deltas.length > MAX_PARSE_DELTAS) throw ParseInputTooLarge('deltas', req.deltas.length, MAX_PARSE_DELTAS);
    const total = req.deltas.reduce((n, d) => n + d.length, 0);
    if (total > MAX_PARSE_INPUT_CHARS) throw ParseInputTooLarge('the deltas together', total, MAX_PARSE_INPUT_CHARS);
    return { parser: req.parser, ...parseToolCallDeltas(req.parser, req.deltas, { tools: req.tools }) };
  }
  const text = req.text ?? '';
  if (text.length > MAX_PARSE_INPUT_CHARS) throw ParseInputTooLarge('text', text.length, MAX_PARSE_INPUT_CHARS);
  return { parser: req.parser, ...parseToolCalls(req.parser, text, { tools: req.tools }) };
}

export const parseToolCallsTool = defineTool({
  name: 'parse_tool_calls',
  mcpSets: [],
  examples,
  title: 'Parse tool calls from model output',
  description:
    "Run a model family's tool-call parser over raw model output (text, or streamed deltas): the calls with their arguments (parsed JSON; the raw string when no repair could make it JSON), the content outside the calls, leaked reasoning (<think>…) and parse_errors. For debugging local models served by vLLM, llama.cpp, Ollama or SGLang. Input is bounded (4,000,000 characters).",
  input,
  output: z.object({
    status: z.literal('ok'),
    parser: z.string(),
    calls: z.array(z.object({ name: z.string(), arguments: z.union([z.record(z.unknown()), z.string()]) })),
    content: z.string().nullable(),
    reasoning: z.string().nullable(),
    parse_errors: z.array(z.object({ code: z.string(), message: z.string() })),
  }),
  async handler(args) {
    return runParseRequest({ parser: args.parser, text: args.text, deltas: args.deltas, tools: args.tools as ToolSchema[] | undefined });
  },
});
