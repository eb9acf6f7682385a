// The tool catalogue: `hindsight tools --json` and every tool's command line as the build wrote
// them (scripts/write-tool-catalogue.ts runs after tsc, two files), so `hindsight tools`, the
// CLI's flags, `--help` and error sentences answer without loading the twenty tools and the
// schema converter. A catalogue older than the compiled registry beside it
// (a later tsc run) is ignored, and so is a missing or unreadable one: the caller then asks the
// registry itself, which is always right, only slower to load.

import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { CliFlag } from './tool.js';
import { programName } from '../core/package-info.js';

export interface CatalogueTool {
  tool_id: string;
  title: string;
  description: string;
  parameters: unknown;
  output: unknown;
}

/** A command-line flag as data: a tool's CliFlag without its parse hook, or a CLI command's own. */
export type CommandFlag = Omit<CliFlag, 'parse'>;

export interface CommandPositional {
  name: string;
  help: string;
  /** How the synopsis shows it: its name, or its choices (daily|weekly|…). */
  display: string;
  /** The tool argument it sets (tools' commands). */
  arg?: string;
  required: boolean;
  variadic: boolean;
}

/** A command of the CLI as data: what parsing, the flag check and `--help` read. */
export interface CommandSpec {
  command: string;
  /** The tool the command runs (absent for the CLI's own commands: ingest, serve…). */
  tool?: string;
  summary: string;
  positionals: CommandPositional[];
  /** What a missing required positional is: "<command> needs <needs>". */
  needs?: string;
  flags: CommandFlag[];
  /** Whether --json prints the tool's envelope. */
  json: boolean;
  /** Hand-written synopsis lines, for commands with subcommands (mcp, token, sync). */
  synopses?: string[];
}

export interface Catalogue {
  /** mtime (ms) of the compiled registry the catalogue was written from. */
  registry_mtime_ms: number;
  tools: CatalogueTool[];
}

/**
 * Every tool's command (tools without one are run with `hindsight tool NAME`). A file of its own:
 * every command line reads it, and it is a tenth of the schemas' size.
 */
export interface CommandCatalogue {
  registry_mtime_ms: number;
  commands: CommandSpec[];
}

/** One flag as a synopsis shows it: `[--limit N]`, `[-i]`, `--metrics` when required. */
export function flagWord(flag: CommandFlag): string {
  const spelled = flag.type === 'boolean' && flag.short ? `-${flag.short}` : `--${flag.name}${flag.value ? ` ${flag.value}` : ''}`;
  return flag.required ? spelled : `[${spelled}]`;
}

/**
 * A command's synopsis as words: name, positionals, required flags, then the others.
 *
 * @example synopsisWords(show).join(' ') // 'hindsight show ID [--raw]'
 */
export function synopsisWords(spec: CommandSpec, flags: readonly CommandFlag[] = spec.flags): string[] {
  const positionals = spec.positionals.map((p) => {
    const word = `${p.display}${p.variadic ? '...' : ''}`;
    return p.required ? word : `[${word}]`;
  });
  return [programName(), spec.command, ...positionals, ...flags.filter((f) => f.required).map(flagWord), ...flags.filter((f) => !f.required).map(flagWord)];
}

/** Where the build writes the catalogue: beside this module (dist/src/tools/ when built). */
export const CATALOGUE_PATH = fileURLToPath(new URL('./tool-catalogue.json', import.meta.url));

/** Where the build writes the tools' commands, beside the catalogue. */
export const COMMANDS_PATH = fileURLToPath(new URL('./tool-commands.json', import.meta.url));

/** The compiled registry the catalogue describes. */
export const REGISTRY_PATH = fileURLToPath(new URL('./registry.js', import.meta.url));

/**
 * `path` as JSON when it holds `field` and was written from the compiled registry at `registry` as
 * it is now; null otherwise (unreadable, not JSON, another shape). Fresh: the registry still has the
 * mtime the build recorded, or the file is not older than the registry. The second case is a
 * package installed by npm, which writes every file anew (its tarball holds one fixed time): the
 * recorded mtime never matches there, and every command fell back to loading every tool (~0.3 s
 * instead of ~0.13 s). A bare tsc run after the build leaves the registry newer than the file,
 * which stays stale as before. Exported for its test.
 */
export function readFresh<T extends { registry_mtime_ms: number }>(path: string, field: keyof T, registry = REGISTRY_PATH): T | null {
  try {
    const written = JSON.parse(readFileSync(path, 'utf8')) as T;
    const registryAt = statSync(registry).mtimeMs;
    const fresh = written?.registry_mtime_ms === registryAt || statSync(path).mtimeMs >= registryAt;
    return fresh && Array.isArray(written?.[field]) ? written : null;
  } catch {
    return null;
  }
}

/** The catalogue when it is there and as new as the registry; null otherwise. */
export function readCatalogue(): Catalogue | null {
  return readFresh<Catalogue>(CATALOGUE_PATH, 'tools');
}

/** The tools' commands when the build wrote them from the registry as it is now; null otherwise. */
export function readCommandCatalogue(): CommandCatalogue | null {
  return readFresh<CommandCatalogue>(COMMANDS_PATH, 'commands');
}
