// Every command of the CLI as data: the tools' commands (from the build's catalogue, or the
// registry when there is none) and the CLI's own. parseArgs' options, the per-command flag check
// and --help all read this one table, so a flag is declared once, where its command is.

import type { ParseArgsConfig } from 'node:util';
import { readCommandCatalogue, type CommandFlag, type CommandSpec } from '../../tools/catalogue.js';
import { DB_FLAG, EVERYWHERE, JSON_FLAG, LEADING_COMMANDS, OWN_COMMANDS } from './own-commands.js';
import { NO_REFRESH_FLAG, REFRESHING_COMMANDS } from './refresh-flag.js';
import { UsageError } from './usage-error.js';
import { programName } from '../../core/package-info.js';

export interface CommandTable {
  /** Every command, in --help order. */
  commands: readonly CommandSpec[];
  byName: ReadonlyMap<string, CommandSpec>;
}

/**
 * A tool's command with the flags the CLI adds to every tool command (--db, and --json when it
 * prints the envelope), and --no-refresh on the reports that refresh the default store.
 */
function withSurfaceFlags(spec: CommandSpec): CommandSpec {
  const refresh = REFRESHING_COMMANDS.includes(spec.command) ? [NO_REFRESH_FLAG] : [];
  return { ...spec, flags: [...spec.flags, ...(spec.json ? [JSON_FLAG] : []), DB_FLAG, ...refresh] };
}

/**
 * The tools' commands as the build's catalogue holds them; from the registry itself when the
 * catalogue is missing or older than the compiled registry (tests from src/, a bare tsc).
 */
async function toolCommands(): Promise<CommandSpec[]> {
  const written = readCommandCatalogue();
  if (written) return written.commands;
  const { describeCommands } = await import('../../tools/describe-tools.js');
  return describeCommands();
}

/** The table from the tools' commands and the CLI's own (checked: no command or flag declared twice over). */
export function buildTable(tools: readonly CommandSpec[]): CommandTable {
  const lead = OWN_COMMANDS.filter((c) => LEADING_COMMANDS.includes(c.command));
  const rest = OWN_COMMANDS.filter((c) => !LEADING_COMMANDS.includes(c.command));
  const commands = [...lead, ...tools.map(withSurfaceFlags), ...rest];
  const byName = new Map<string, CommandSpec>();
  for (const c of commands) {
    if (byName.has(c.command)) throw new Error(`two commands are called "${c.command}"; each tool's cli.command must be unique`);
    byName.set(c.command, c);
  }
  const table = { commands, byName };
  parseOptions(table); // throws when one flag name is declared with two types
  return table;
}

let loaded: CommandTable | undefined;

/** The command table, loaded once per process. */
export async function commandTable(): Promise<CommandTable> {
  loaded ??= buildTable(await toolCommands());
  return loaded;
}

/** The table if commandTable() already loaded it (error handlers must not load anything). */
export function loadedTable(): CommandTable | undefined {
  return loaded;
}

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * parseArgs' options: every flag of every command, once. Integers are read as strings and
 * checked by the command (a clear sentence instead of parseArgs' own).
 */
export function parseOptions(table: CommandTable): Options {
  const options: Options = {};
  const seen = new Map<string, CommandFlag>();
  for (const flag of [...EVERYWHERE, ...table.commands.flatMap((c) => c.flags)]) {
    const before = seen.get(flag.name);
    if (before) {
      if (before.type !== flag.type || before.short !== flag.short) {
        throw new Error(`--${flag.name} is declared as ${before.type}${before.short ? ` -${before.short}` : ''} and as ${flag.type}${flag.short ? ` -${flag.short}` : ''}: one flag name, one type`);
      }
      continue;
    }
    seen.set(flag.name, flag);
    options[flag.name] = flag.type === 'boolean' ? { type: 'boolean', default: false, ...(flag.short ? { short: flag.short } : {}) } : { type: 'string', ...(flag.short ? { short: flag.short } : {}) };
  }
  return options;
}

/**
 * `argv` with a value that starts with "-" joined to the string flag before it (`--project
 * -home-ana-app` → `--project=-home-ana-app`): Claude Code's project slugs all start with "-", and
 * node's parseArgs takes such a word for a missing value. A word that is itself an option of
 * `options` (a long name, or short letters all known) stays an option, and `--` ends the flags.
 *
 * @example joinDashValues(['usage', '--project', '-srv-app'], options) // ['usage', '--project=-srv-app']
 */
export function joinDashValues(argv: readonly string[], options: Options): string[] {
  const shorts = new Map(Object.entries(options).flatMap(([name, o]) => (o.short ? [[o.short, name] as const] : [])));
  const takesValue = (word: string): boolean => {
    const name = word.startsWith('--') ? word.slice(2) : word.length === 2 ? shorts.get(word[1]!) : undefined;
    return name !== undefined && options[name]?.type === 'string';
  };
  const isOption = (word: string): boolean =>
    word === '--' ||
    (word.startsWith('--') ? Object.hasOwn(options, word.slice(2).split('=')[0]!) : [...word.slice(1)].every((c) => shorts.has(c)));
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') return [...out, ...argv.slice(i)];
    const next = argv[i + 1];
    if (takesValue(word) && next !== undefined && next.length > 1 && next.startsWith('-') && !isOption(next)) {
      out.push(word.startsWith('--') ? `${word}=${next}` : `--${shorts.get(word[1]!)}=${next}`);
      i++;
    } else out.push(word);
  }
  return out;
}

/**
 * Refuse a flag the command does not take (so `sessions --json`-style mistakes are not silently
 * ignored) and a value outside a flag's choices. `given` are the long names of the options on the
 * command line (parseArgs tokens). An unknown command is left to main, which names the commands.
 */
export function checkFlags(table: CommandTable, command: string, given: Iterable<string>, values: Readonly<Record<string, unknown>>): void {
  const spec = table.byName.get(command);
  if (!spec) return;
  const takes = (name: string) => EVERYWHERE.some((f) => f.name === name) || spec.flags.some((f) => f.name === name);
  for (const name of given) {
    if (takes(name)) continue;
    const names = spec.flags.map((f) => `--${f.name}`);
    const them = names.length ? `it takes ${names.join(', ')}` : 'it takes no options';
    throw new UsageError(`hindsight ${command} does not take --${name}; ${them} (see hindsight --help)`);
  }
  for (const flag of spec.flags) {
    const value = values[flag.name];
    if (flag.choices && typeof value === 'string' && !flag.choices.includes(value)) {
      throw new UsageError(`--${flag.name} must be one of ${flag.choices.join(', ')}; got "${value}"`);
    }
  }
}

/** How a person runs `tool` at a shell: its command and the flags it cannot go without. */
export function commandForTool(table: CommandTable, tool: string): string | undefined {
  const spec = table.commands.find((c) => c.tool === tool);
  if (!spec) return undefined;
  return [programName(), spec.command, ...spec.flags.filter((f) => f.required).map((f) => `--${f.name}`)].join(' ');
}
