// defineTool: a tool is its name, description, input and output schemas and handler, in one
// place. Every surface (CLI, MCP, HTTP, agent runtime, docs) is generated from these.

import { z } from 'zod';
import { HindsightError, toErrorShape } from '../core/errors.js';
import { boundDepth, MAX_JSON_DEPTH } from '../core/json-depth.js';
import type { Store } from '../store/store.js';

export interface ToolContext {
  store: Store;
  /** Workspace root for file tools (default: the current directory). */
  workspaceRoot?: string;
}

export interface ToolDefinition<I extends z.ZodTypeAny = z.ZodTypeAny, O extends Record<string, unknown> = Record<string, unknown>> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: z.ZodTypeAny;
  /**
   * The tool may modify files outside the store (e.g. rewind with apply). Surfaces derive their
   * hints from it (MCP readOnlyHint/destructiveHint); absent means read-only.
   */
  destructive?: boolean;
  /**
   * The tool reads the serving machine's own files or settings (the workspace, the sync remote),
   * not only the store. A team token sees its projects in the store and nothing else of the
   * machine, so servers refuse these tools to it.
   */
  machineLocal?: boolean;
  /** Returns the success body (without `status`); throws HindsightError for tool errors. */
  handler(args: z.infer<I>, ctx: ToolContext): Promise<O>;
}

export type AnyTool = ToolDefinition<z.ZodTypeAny, Record<string, unknown>>;

export interface ErrorEnvelope {
  status: 'error';
  error: string;
  code: string;
  [key: string]: unknown;
}
export type ToolResult = ({ status: 'ok' } & Record<string, unknown>) | ErrorEnvelope;

/**
 * Define a tool once.
 *
 * @example
 * export const ping = defineTool({ name: 'ping', title: 'Ping', description: 'Answers pong.',
 *   input: z.object({}), output: z.object({ status: z.literal('ok') }), handler: async () => ({}) });
 */
export function defineTool<I extends z.ZodTypeAny, O extends Record<string, unknown>>(def: ToolDefinition<I, O>): AnyTool {
  return def as unknown as AnyTool;
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((i) => {
      const where = i.path.length ? i.path.join('.') : 'arguments';
      return `${where}: ${i.message}`;
    })
    .join('; ');
}

/**
 * Validate arguments and run a tool, always answering with an envelope (never throwing for
 * bad arguments or tool errors).
 */
export async function runTool(tool: AnyTool, rawArgs: unknown, ctx: ToolContext): Promise<ToolResult> {
  const parsed = tool.input.safeParse(rawArgs ?? {});
  if (!parsed.success) {
    return {
      status: 'error',
      error: `Invalid arguments for ${tool.name}: ${describeIssues(parsed.error)}.`,
      code: 'INVALID_ARGUMENTS',
    };
  }
  try {
    const body = await tool.handler(parsed.data, ctx);
    // The last guard before any surface serialises the result: no value nests deep enough to
    // overflow JSON.stringify (payloads are already cut at MAX_JSON_DEPTH where lines are parsed).
    return { status: 'ok', ...boundDepth(body, 2 * MAX_JSON_DEPTH) };
  } catch (err) {
    if (!(err instanceof HindsightError)) throw err;
    const shape = toErrorShape(err);
    return { status: 'error', error: shape.message, code: shape.code };
  }
}
