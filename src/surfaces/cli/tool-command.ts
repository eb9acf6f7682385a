// A tool's command (show, timeline, grep, usage…): the tool's arguments from the command line as
// the tool's own cli.ts declares them, the tool run (page after page for a report), the result
// printed as text (or its envelope with --json). A tool error is printed as its sentence on
// stderr with exit code 1, as `hindsight tool` would return it.

import type { Store } from '../../store/store.js';
import { runTool, type AnyTool, type CliSpec, type Refuse, type ToolResult } from '../../tools/tool.js';
import { inCliTerms } from './cli-terms.js';
import type { Paint } from './colour.js';
import { withNextPageCommand } from './command-line.js';
import { commandTable } from './command-table.js';
import { pageThrough } from './page-through.js';
import { RENDERERS, type CommandOutput, type PreparedCommand } from './tool-views.js';
import { STORE_VIEWS } from './store-views.js';
import { toolByName } from './tool-lookup.js';
import { UsageError } from './usage-error.js';

const refuse: Refuse = (sentence) => {
  throw new UsageError(sentence);
};

/** A flag's text (or a number, when a program passes one) as a whole number, or a usage error. */
function wholeNumber(name: string, value: unknown): number {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isInteger(n)) refuse(`--${name} must be a whole number, got "${String(value)}"`);
  return n;
}

function inRange(name: string, n: number, min: number | undefined, max: number | undefined): void {
  if (min !== undefined && max !== undefined && (n < min || n > max)) refuse(`--${name} must be between ${min} and ${max}, got ${n}`);
  if (min !== undefined && max === undefined && n < min) refuse(`--${name} must be ${min} or more, got ${n}`);
  if (max !== undefined && min === undefined && n > max) refuse(`--${name} must be ${max} or less, got ${n}`);
}

/**
 * The tool's arguments from a command line: positionals, then flags (each typed, checked and
 * parsed as its declaration says), the command's fixed arguments, then its derive hook. `given`
 * holds the flags as parsed, by long name (absent or false when not on the command line).
 *
 * @example toolArguments(showCli, ['8463c716'], { raw: true }) // { session_id: '8463c716', redact: false }
 */
export function toolArguments(cli: CliSpec, positionals: readonly string[], given: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const args: Record<string, unknown> = { ...cli.fixed };
  (cli.positionals ?? []).forEach((p, i) => {
    const value = p.variadic ? positionals.slice(i).join(' ') : positionals[i];
    if (value === undefined || value === '') {
      if (p.required) refuse(`${cli.command} needs ${cli.needs ?? p.name}`);
      return;
    }
    args[p.arg] = value;
  });
  for (const flag of cli.flags) {
    if (flag.required && !given[flag.name]) refuse(`${cli.command} needs --${flag.name} (see hindsight ${cli.command} --help)`);
  }
  for (const flag of cli.flags) {
    const raw = given[flag.name];
    const absent = raw === undefined || raw === false;
    if (absent) {
      if (flag.arg !== undefined && flag.default !== undefined) args[flag.arg] = flag.default;
      continue;
    }
    if (flag.type === 'boolean') {
      if (flag.arg !== undefined) args[flag.arg] = flag.sets ?? true;
      continue;
    }
    let value: unknown = raw;
    if (flag.type === 'integer') {
      const n = wholeNumber(flag.name, raw);
      inRange(flag.name, n, flag.min, flag.max);
      value = n;
    }
    if (flag.parse) value = flag.parse(String(value), refuse);
    if (flag.arg !== undefined && value !== undefined) args[flag.arg] = value;
  }
  return cli.derive ? cli.derive(args, given, refuse) : args;
}

/**
 * The command's tool and arguments, checked before any store is opened: a bad command line is a
 * usage error (exit 2) even when the store is missing.
 */
export async function prepareToolCommand(tool: AnyTool, positionals: readonly string[], given: Readonly<Record<string, unknown>>): Promise<PreparedCommand> {
  const cli = tool.cli;
  if (!cli) throw new Error(`${tool.name} has no command line (no cli in its definition)`);
  const prepared: PreparedCommand = { tool, cli, positionals, given, args: toolArguments(cli, positionals, given) };
  await STORE_VIEWS[cli.command]?.prepare?.(prepared);
  return prepared;
}

/** Run a prepared command on `store`; returns the text to print and the exit code. */
export async function runPrepared(p: PreparedCommand, store: Store, paint: Paint, argv?: readonly string[]): Promise<CommandOutput> {
  const own = STORE_VIEWS[p.cli.command];
  if (own) return own.run(p, store, paint);
  const report = p.cli.report?.(p.args);
  const result: ToolResult = report
    ? await pageThrough(p.tool, p.args, report.rows, { offset: p.args.offset as number | undefined, limit: (p.args.limit as number | undefined) ?? report.defaultLimit }, { store })
    : await runTool(p.tool, p.args, { store });
  if (p.given.json) return { stdout: JSON.stringify(result, null, 2), stderr: '', code: result.status === 'ok' ? 0 : 1 };
  if (result.status !== 'ok') return { stdout: '', stderr: `hindsight: ${inCliTerms(String(result.error), await commandTable())}`, code: 1 };
  // A command without a text view of its own (a new tool's, until it has one) prints its envelope.
  const render = RENDERERS[p.cli.command];
  const text = render ? render(result, paint, p) : JSON.stringify(result, null, 2);
  return { stdout: argv ? withNextPageCommand(text, argv) : text, stderr: '', code: 0 };
}

/**
 * A tool's command in one call, for programs that already hold a store (the demo): `given` holds
 * the flags by long name, as on a command line (`{ limit: 12, ledger: 'ho2m' }`).
 *
 * @example const res = await runToolCommand('timeline', [id], { limit: 12 }, store, paint);
 */
export async function runToolCommand(
  command: string,
  positionals: readonly string[],
  given: Readonly<Record<string, unknown>>,
  store: Store,
  paint: Paint,
): Promise<CommandOutput> {
  const spec = (await commandTable()).byName.get(command);
  const tool = spec?.tool === undefined ? undefined : await toolByName(spec.tool);
  if (!tool) throw new UsageError(`"${command}" is not a tool's command; run hindsight --help`);
  return runPrepared(await prepareToolCommand(tool, positionals, given), store, paint);
}
