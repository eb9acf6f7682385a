// `hindsight parse-tools --parser ID [--tools FILE] [--deltas] [FILE|-]`: run a tool-call parser
// over saved model output and print {"calls", "content", "reasoning", "parse_errors"} as JSON.
// The parse_tool_calls tool does the work; this reads the files and says what is wrong with them.

import { readFileSync } from 'node:fs';
import type { ToolSchema } from '../../runtime/parsers/types.js';
import { runParseRequest } from '../../tools/parse-tool-calls/index.js';
import { UsageError } from './usage-error.js';

export interface ParseToolsOptions {
  parser?: string;
  tools?: string;
  deltas: boolean;
  /** FILE, or '-' / nothing for stdin. */
  input?: string;
}

function readInput(path: string | undefined): string {
  const where = !path || path === '-' ? 0 : path;
  try {
    return readFileSync(where, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read ${where === 0 ? 'stdin' : path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

function readJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${what} is not JSON (${(err as Error).message})`);
  }
}

function readTools(path: string): ToolSchema[] {
  const value = readJson(readInput(path), `--tools ${path}`);
  // The fixtures' shape [{name, parameters}], also accepted in OpenAI's {"type": "function", "function": {…}} wrapping.
  if (!Array.isArray(value)) throw new UsageError(`--tools ${path} must hold a JSON array of {"name", "parameters"}`);
  return value.map((t, i) => {
    const def = t && typeof t === 'object' && 'function' in t ? (t as { function: unknown }).function : t;
    if (!def || typeof def !== 'object' || typeof (def as { name?: unknown }).name !== 'string') {
      throw new UsageError(`--tools ${path}: entry ${i} has no "name"`);
    }
    return def as ToolSchema;
  });
}

/** Runs the command: 0; an unknown parser or oversized input throws a HindsightError (exit 1), a bad command line a UsageError (exit 2). */
export function parseToolsCommand(opts: ParseToolsOptions, print: (line: string) => void): number {
  if (!opts.parser) throw new UsageError('parse-tools needs --parser ID (e.g. hermes, qwen3_xml, kimi_k2)');
  const tools = opts.tools ? readTools(opts.tools) : undefined;
  const text = readInput(opts.input);
  let deltas: string[] | undefined;
  if (opts.deltas) {
    const value = readJson(text, opts.input && opts.input !== '-' ? opts.input : 'stdin');
    if (!Array.isArray(value) || !value.every((d) => typeof d === 'string')) throw new UsageError('--deltas reads a JSON array of strings');
    deltas = value;
  }
  const result = runParseRequest({ parser: opts.parser, tools, ...(deltas ? { deltas } : { text }) });
  print(JSON.stringify({ calls: result.calls, content: result.content, reasoning: result.reasoning, parse_errors: result.parse_errors }, null, 2));
  return 0;
}
