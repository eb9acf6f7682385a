// defineTool: a tool is its name, description, input and output schemas, handler, examples, CLI
// spelling and GET view, in one place (the tool's folder). Every surface (CLI, MCP, HTTP, agent
// runtime, docs) and the per-surface test table are loops over these.

import { z } from 'zod';
import { HindsightError, toErrorShape } from '../core/errors.js';
import { boundDepth, MAX_JSON_DEPTH } from '../core/json-depth.js';
import type { Store } from '../store/store.js';

export interface ToolContext {
  store: Store;
  /** Workspace root for file tools (default: the current directory). */
  workspaceRoot?: string;
}

/** The MCP tool sets (ToolDefinition.mcpSets). */
export const MCP_SETS = ['core', 'analyst', 'ledger', 'admin', 'files'] as const;
export type McpSet = (typeof MCP_SETS)[number];

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
  /**
   * The answer is a function of the arguments, the caller's rights and the store's data alone: no
   * clock (a "today", an active billing block), no files outside the store, no deadline. Surfaces
   * may then keep an answer until the store changes (the HTTP API's kept answers). Set it only when
   * that holds for every argument the tool takes.
   */
  storeDetermined?: boolean;
  /**
   * How deep the tool's answers nest, when its own code fixes that (no value parsed from evidence,
   * whose depth is whatever agents wrote): runTool then leaves out the depth guard, a walk over the
   * whole answer (~6 ms of CPU for a 553-row usage report in a fresh process). A test holds the
   * tool's deepest answers to it.
   */
  answerDepth?: number;
  /**
   * The MCP tool sets this tool belongs to (`hindsight mcp --tools core,ledger`; every tool is in
   * `all`). Each listed tool costs an agent its description and schema in context on every
   * session, so joining `core`, the default listing, is a choice made here and held to 20 KB by
   * test/e2e/mcp-size.test.ts. Sets: core (find a session, what happened, what failed, what it
   * cost, raw lines), analyst (core plus per-turn analysis, whole-session reads, exports,
   * metrics), ledger (Control Plane ledgers entry by entry and their integrity), admin (the store
   * and its sources, sync state, the one tool that writes), files (the workspace's files).
   */
  mcpSets: readonly McpSet[];
  /**
   * Valid calls with the status each answers, on the example store (example-store.ts). A test runs
   * every one on every surface (direct, MCP, HTTP); the reference docs print them. Never listed
   * over MCP: they would cost every agent's context on every session.
   */
  examples: readonly ToolExample[];
  /** The tool's command for people (`hindsight show ID`), when it has one. */
  cli?: CliSpec;
  /** The tool's read-only GET view in the HTTP API (every tool also answers POST /api/tools/<name>). */
  http?: HttpView;
  /** Returns the success body (without `status`); throws HindsightError for tool errors. */
  handler(args: z.infer<I>, ctx: ToolContext): Promise<O>;
}

/** One valid call of a tool and what it answers. */
export type ToolExample =
  | { about: string; args: Record<string, unknown>; status: 'ok' }
  | { about: string; args: Record<string, unknown>; status: 'error'; code: string };

/** Says why a command line cannot run; the CLI prints the sentence and exits 2. */
export type Refuse = (sentence: string) => never;

/**
 * A flag of a tool's command, declared once: its type and help for parsing and `--help`, and the
 * tool argument it sets. A flag without `arg` is read by the CLI itself (a rendering choice such as
 * timeline --full) or by the command's `derive`.
 */
export interface CliFlag {
  /** The long name, without dashes: 'ignore-case'. */
  name: string;
  /** One letter, for `-i`. */
  short?: string;
  /** integer flags are read as whole numbers ("--limit must be a whole number" otherwise). */
  type: 'string' | 'integer' | 'boolean';
  /** The value's placeholder in the synopsis (N, FILE); default: the argument's choices, else N or VALUE. */
  value?: string;
  help: string;
  /** The tool argument the flag sets. */
  arg?: string;
  /** A boolean flag's argument value when given (default true): --raw sets redact to false. */
  sets?: unknown;
  /** The argument's value when the flag is absent (default: the tool's own default). */
  default?: unknown;
  /** The values the flag takes, checked before the tool runs. */
  choices?: readonly string[];
  /** A range checked before the tool runs (for commands that read the store without the tool). */
  min?: number;
  max?: number;
  /** The command does not run without it (inspect --metrics). */
  required?: boolean;
  /** The argument from the flag's text, or a refusal naming what is wrong with it. */
  parse?(value: string, refuse: Refuse): unknown;
}

/** A positional word of a tool's command. */
export interface CliPositional {
  /** Its name in the synopsis and help: ID, PATTERN. */
  name: string;
  help: string;
  /** The tool argument it sets. */
  arg: string;
  required?: boolean;
  /** Takes every remaining word, joined by spaces (search QUERY...). */
  variadic?: boolean;
}

/** How much of a report the CLI shows: every row of `rows`, page after page (page-through.ts). */
export interface CliReport {
  rows: string;
  /** Rows shown when --limit is not given (default: all). */
  defaultLimit?: number;
}

/** A tool's command line. Rendering stays in surfaces/cli, keyed by `command`. */
export interface CliSpec {
  command: string;
  /** What the command shows, for `--help` (a paragraph; wrapped by the CLI). */
  summary: string;
  positionals?: readonly CliPositional[];
  /** What a missing required positional is, for the usage error: "show needs <needs>". */
  needs?: string;
  flags: readonly CliFlag[];
  /** Arguments the command always passes (the views want full rows, a large byte cap). */
  fixed?: Readonly<Record<string, unknown>>;
  /** Whether --json prints the tool's envelope (default true). */
  json?: boolean;
  /** A report shows every row (or a --limit window) instead of one page; undefined: one page. */
  report?(args: Readonly<Record<string, unknown>>): CliReport | undefined;
  /**
   * Arguments that depend on several flags, and checks across flags. `given` holds every flag as
   * parsed (by long name); returns the final arguments.
   */
  derive?(args: Record<string, unknown>, given: Readonly<Record<string, unknown>>, refuse: Refuse): Record<string, unknown>;
}

/** A tool's GET view: path parameters and short query names mapped to its arguments. */
export interface HttpView {
  /** A hono path, e.g. '/api/sessions/:id'. */
  path: string;
  summary: string;
  /** Path parameter → tool argument. */
  pathArgs?: Readonly<Record<string, string>>;
  /** Short query names → tool argument (`q` → `query`). */
  aliases?: Readonly<Record<string, string>>;
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
 *   input: z.object({}), output: z.object({ status: z.literal('ok') }),
 *   examples: [{ about: 'Ping.', args: {}, status: 'ok' }], handler: async () => ({}) });
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
    // A tool whose code fixes its answers' depth needs none.
    const bounded = tool.answerDepth !== undefined && tool.answerDepth <= 2 * MAX_JSON_DEPTH;
    return { status: 'ok', ...(bounded ? body : boundDepth(body, 2 * MAX_JSON_DEPTH)) };
  } catch (err) {
    if (!(err instanceof HindsightError)) throw err;
    const shape = toErrorShape(err);
    return { status: 'error', error: shape.message, code: shape.code };
  }
}
