// `hindsight --help` and `hindsight COMMAND --help`, written from the command table: each
// command's synopsis from its positionals and flags, its summary, and every flag's own help, so
// the help cannot drift from what the parser accepts.

import { synopsisWords, type CommandFlag, type CommandSpec } from '../../tools/catalogue.js';
import { EVERYWHERE } from './own-commands.js';
import type { CommandTable } from './command-table.js';

const WIDTH = 100;

/** `words` joined by spaces into lines of at most `width`, the first after `first`, the rest after `indent`. */
function wrap(words: readonly string[], first: string, indent: string, width = WIDTH): string[] {
  const lines: string[] = [];
  let line = first;
  let fresh = true;
  for (const word of words) {
    if (!fresh && line.length + 1 + word.length > width) {
      lines.push(line);
      line = indent + word;
      continue;
    }
    line += fresh ? word : ` ${word}`;
    fresh = false;
  }
  lines.push(line);
  return lines;
}

/** The synopsis words of a command (--db is left to Options: nearly every command takes it). */
function commandWords(spec: CommandSpec): string[] {
  return synopsisWords(spec, spec.flags.filter((f) => f.name !== 'db'));
}

function synopsisLines(spec: CommandSpec, indent: string): string[] {
  if (spec.synopses) return spec.synopses.map((s) => `${indent}${s}`);
  return wrap(commandWords(spec), indent, `${indent}    `);
}

function flagLabel(flag: CommandFlag): string {
  return `--${flag.name}${flag.value ? ` ${flag.value}` : ''}${flag.short ? `, -${flag.short}` : ''}`;
}

/** Rows of `label  text`, the text column aligned. */
function columns(rows: readonly [string, string][], indent = '  '): string[] {
  const width = Math.max(...rows.map(([label]) => label.length)) + 2;
  return rows.map(([label, text]) => `${indent}${label.padEnd(width)}${text}`);
}

/**
 * The flags several commands share (same name, same help), said once in --help's Options with
 * the commands that take them; flags of one command are in that command's own help.
 */
function sharedFlags(table: CommandTable): { flag: CommandFlag; commands: string[] }[] {
  const byKey = new Map<string, { flag: CommandFlag; commands: string[] }>();
  for (const c of table.commands) {
    for (const flag of c.flags) {
      const key = `${flag.name}\u0000${flag.help}`;
      const entry = byKey.get(key) ?? { flag, commands: [] };
      entry.commands.push(c.command);
      byKey.set(key, entry);
    }
  }
  return [...byKey.values()].filter((e) => e.commands.length > 1 || e.flag.name === 'db');
}

/** `hindsight --help`: every command with its synopsis and summary, then the shared options. */
export function usageText(table: CommandTable): string {
  const out = ['hindsight — forensics for AI-agent sessions', '', 'Usage:'];
  for (const c of table.commands) {
    out.push(...synopsisLines(c, '  '));
    out.push(...wrap(c.summary.split(' '), '      ', '      '));
  }
  out.push('', 'Options:');
  const shared = sharedFlags(table);
  const rows: [string, string][] = [];
  for (const { flag, commands } of shared) {
    rows.push([flagLabel(flag), flag.help]);
    // Said on a line of its own so the help line ends where its text does.
    if (flag.name !== 'db') rows.push(['', `(${commands.join(', ')})`]);
  }
  for (const flag of EVERYWHERE) rows.push([flagLabel(flag), flag.help]);
  out.push(...columns(rows));
  out.push('', 'hindsight COMMAND --help lists every flag of a command, with the tool argument it sets.');
  return `${out.join('\n')}\n`;
}

/** What a flag does to its tool's arguments: ` (→ redact: false)`, ` (→ limit, default 50)`. */
function setsNote(flag: CommandFlag): string {
  if (flag.arg === undefined) return '';
  const value = flag.sets === undefined ? '' : `: ${JSON.stringify(flag.sets)}`;
  const fallback = flag.default === undefined || typeof flag.default === 'object' ? '' : `, default ${JSON.stringify(flag.default)}`;
  return ` (→ ${flag.arg}${value}${fallback})`;
}

/** `hindsight COMMAND --help`: the synopsis, the summary, each positional and flag with its help. */
export function commandHelp(spec: CommandSpec): string {
  const out = [...synopsisLines(spec, ''), '', ...wrap(spec.summary.split(' '), '', '')];
  if (spec.positionals.length) {
    out.push('', 'Arguments:', ...columns(spec.positionals.map((p) => [p.display, `${p.help}${p.arg === undefined ? '' : ` (→ ${p.arg})`}`])));
  }
  const rows: [string, string][] = [...spec.flags, ...EVERYWHERE].map((f) => [flagLabel(f), `${f.help}${setsNote(f)}`]);
  out.push('', 'Flags:', ...columns(rows));
  if (spec.tool) {
    out.push('', `Runs the ${spec.tool} tool (→ names the argument a flag sets); hindsight tool ${spec.tool} '{…}' takes its arguments as JSON.`);
  }
  return `${out.join('\n')}\n`;
}
