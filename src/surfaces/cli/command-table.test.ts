// The command table the CLI parses with: the tools' commands (from the registry, as the build's
// catalogue holds them) and the CLI's own, each flag declared once. What a command line turns into
// (toolArguments), which flags a command refuses, and --help, all read from that one table.

import { describe, expect, it } from 'vitest';
import type { CommandSpec } from '../../tools/catalogue.js';
import { describeCommands } from '../../tools/describe-tools.js';
import { findTool, TOOLS } from '../../tools/registry.js';
import type { AnyTool } from '../../tools/tool.js';
import { inCliTerms } from './cli-terms.js';
import { buildTable, checkFlags, commandForTool, joinDashValues, parseOptions } from './command-table.js';
import { commandHelp, usageText } from './help.js';
import { OWN_COMMANDS } from './own-commands.js';
import { z } from 'zod';
import { painter } from './colour.js';
import { prepareToolCommand, runPrepared, toolArguments } from './tool-command.js';
import { defineTool } from '../../tools/tool.js';
import type { Store } from '../../store/store.js';
import { UsageError } from './usage-error.js';

const table = buildTable(describeCommands());
const tool = (name: string): AnyTool => findTool(name)!;
const argsOf = (name: string, positionals: string[], given: Record<string, unknown> = {}) => toolArguments(tool(name).cli!, positionals, given);
const refusal = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    if (err instanceof UsageError) return err.message;
    throw err;
  }
  throw new Error('expected a usage error');
};

describe('the table', () => {
  it('holds every tool command once, after ingest and before the servers', () => {
    const names = table.commands.map((c) => c.command);
    expect(names[0]).toBe('ingest');
    expect(names.filter((n) => table.byName.get(n)!.tool)).toEqual(TOOLS.filter((t) => t.cli).map((t) => t.cli!.command));
    expect(new Set(names).size).toBe(names.length);
    for (const own of OWN_COMMANDS) expect(table.byName.get(own.command)?.tool).toBeUndefined();
  });

  it('gives parseArgs every flag once, with its type; tool commands also take --db, and --json when they print an envelope', () => {
    const options = parseOptions(table);
    for (const c of table.commands) for (const f of c.flags) expect(options[f.name]?.type, f.name).toBe(f.type === 'boolean' ? 'boolean' : 'string');
    expect(options['ignore-case']).toEqual({ type: 'boolean', default: false, short: 'i' });
    expect(table.byName.get('show')!.flags.map((f) => f.name)).toEqual(['raw', 'json', 'db']);
    expect(table.byName.get('export')!.flags.some((f) => f.name === 'json')).toBe(false);
  });

  it('refuses a second command of the same name and a flag name with two types', () => {
    const show = table.byName.get('show')!;
    expect(() => buildTable([...describeCommands(), { ...show, tool: 'other' }])).toThrow(/two commands are called "show"/);
    const clash: CommandSpec = { command: 'clash', tool: 'x', summary: 's', positionals: [], json: false, flags: [{ name: 'limit', type: 'boolean', help: 'h' }] };
    expect(() => buildTable([...describeCommands(), clash])).toThrow(/--limit is declared as integer and as boolean/);
  });
});

describe('checkFlags', () => {
  it('takes a value starting with "-" for the string flag before it (Claude Code project slugs), not an option', () => {
    const options = { project: { type: 'string' as const }, limit: { type: 'string' as const, short: 'n' }, json: { type: 'boolean' as const }, 'ignore-case': { type: 'boolean' as const, short: 'i' } };
    expect(joinDashValues(['usage', '--project', '-srv-repos-app', '--json'], options)).toEqual(['usage', '--project=-srv-repos-app', '--json']);
    expect(joinDashValues(['sessions', '-n', '-5'], options)).toEqual(['sessions', '--limit=-5']);
    // An option stays an option: a known long name, known short letters, and -- ends the flags.
    expect(joinDashValues(['usage', '--project', '--json'], options)).toEqual(['usage', '--project', '--json']);
    expect(joinDashValues(['grep', 'x', '--project', '-i'], options)).toEqual(['grep', 'x', '--project', '-i']);
    expect(joinDashValues(['grep', '--', '--project', '-x'], options)).toEqual(['grep', '--', '--project', '-x']);
    // A boolean flag takes no value; a lone "-" is left as it is.
    expect(joinDashValues(['usage', '--json', '-srv'], options)).toEqual(['usage', '--json', '-srv']);
    expect(joinDashValues(['usage', '--project', '-'], options)).toEqual(['usage', '--project', '-']);
    // A flag with no word after it, one already joined, and unknown flags are left to parseArgs' own errors.
    expect(joinDashValues(['usage', '--project'], options)).toEqual(['usage', '--project']);
    expect(joinDashValues(['usage', '--project=-a', '-b'], options)).toEqual(['usage', '--project=-a', '-b']);
    expect(joinDashValues(['usage', '--nope', '-x'], options)).toEqual(['usage', '--nope', '-x']);
    const many = Array.from({ length: 20_000 }, (_, i) => (i % 2 ? `-slug-${i}` : '--project'));
    expect(joinDashValues(many, options)).toHaveLength(10_000);
  });

  it('refuses a flag the command does not take, naming those it takes', () => {
    expect(refusal(() => checkFlags(table, 'show', ['limit'], {}))).toBe('hindsight show does not take --limit; it takes --raw, --json, --db (see hindsight --help)');
    expect(refusal(() => checkFlags(table, 'tools', ['db'], {}))).toMatch(/^hindsight tools does not take --db; it takes --json/);
    expect(() => checkFlags(table, 'show', ['raw', 'no-color', 'help'], {})).not.toThrow();
  });

  it('refuses a value outside the choices a flag declares (the source format)', () => {
    expect(refusal(() => checkFlags(table, 'usage', ['format'], { format: 'nope' }))).toMatch(/^--format must be one of [a-z-]+(, [a-z-]+)+; got "nope"$/);
    expect(refusal(() => checkFlags(table, 'ingest', ['format'], { format: 'nope' }))).toMatch(/^--format must be one of/);
    // export's --format is the old spelling of --as: no source-format choices there.
    expect(() => checkFlags(table, 'export', ['format'], { format: 'markdown' })).not.toThrow();
  });
});

describe('toolArguments: a command line as the tool arguments its cli.ts declares', () => {
  it('maps positionals and flags, with their defaults and fixed arguments', () => {
    expect(argsOf('session_overview', ['abc'], { raw: true })).toEqual({ session_id: 'abc', redact: false });
    expect(argsOf('search_sessions', ['budget', 'exhausted'], { limit: '5' })).toEqual({ query: 'budget exhausted', limit: 5, max_bytes: 10_000_000 });
    expect(argsOf('list_sessions', [], {})).toEqual({ limit: 50, offset: 0, top_level_only: false });
    expect(argsOf('query_ledger_full', [], { limit: '3', type: 'EXCHANGE' })).toEqual({ event_type: 'EXCHANGE', max_entries: 3, max_bytes: 10_000_000 });
    expect(argsOf('export_session', ['abc'], { 'no-subagents': true })).toEqual({ session_id: 'abc', include_subagents: false });
  });

  it('derives what depends on several flags', () => {
    expect(argsOf('grep_jsonl', ['x'], {}).scope).toBe('all');
    expect(argsOf('grep_jsonl', ['x'], { ledger: 'ho2m' }).scope).toBe('ledger');
    expect(argsOf('grep_jsonl', ['x'], { 'ignore-case': true }).ignore_case).toBe(true);
    expect(argsOf('inspect_metrics', [], { metrics: true }).view).toBe('recent');
    expect(argsOf('inspect_metrics', [], { metrics: true, session: 'abc' })).toMatchObject({ view: 'session', session_id: 'abc' });
    expect(argsOf('inspect_metrics', [], { metrics: true, stats: true, days: '7' })).toMatchObject({ view: 'stats', days: 7 });
    expect(argsOf('reconstruct_session', ['abc'], {}).kinds).toEqual(['user', 'assistant', 'thinking', 'tool', 'agent', 'error', 'llm', 'system']);
    expect(argsOf('reconstruct_session', ['abc'], { kind: 'all' }).kinds).toBeUndefined();
    expect(argsOf('reconstruct_session', ['abc'], { kind: 'User, tool' }).kinds).toEqual(['user', 'tool']);
  });

  it('takes the clock once for usage blocks without --now, so every page the CLI asks for shares it', () => {
    const before = Date.now();
    const now = argsOf('usage_report', ['blocks'], {}).now as string;
    expect(new Date(now).toISOString()).toBe(now);
    expect(Date.parse(now)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(now)).toBeLessThanOrEqual(Date.now());
    expect(argsOf('usage_report', ['blocks'], { now: '2026-03-01T10:00:00Z' }).now).toBe('2026-03-01T10:00:00Z');
    expect(argsOf('usage_report', ['daily'], {}).now).toBeUndefined();
    expect(argsOf('usage_report', [], {}).now).toBeUndefined();
  });

  it('refuses a command line that cannot run, before any store is opened', () => {
    expect(refusal(() => argsOf('session_overview', [], {}))).toBe('show needs a session ID (see hindsight sessions)');
    expect(refusal(() => argsOf('search_sessions', [], {}))).toBe('search needs a QUERY (words, "a phrase", prefix*)');
    expect(refusal(() => argsOf('inspect_metrics', [], {}))).toBe('inspect needs --metrics (see hindsight inspect --help)');
    expect(refusal(() => argsOf('inspect_metrics', [], { metrics: true, stats: true, session: 'a' }))).toBe('inspect --metrics takes --session ID or --stats, not both');
    expect(refusal(() => argsOf('list_sessions', [], { limit: '0' }))).toBe('--limit must be between 1 and 500, got 0');
    expect(refusal(() => argsOf('list_sessions', [], { offset: '-1' }))).toBe('--offset must be 0 or more, got -1');
    expect(refusal(() => argsOf('reconstruct_session', ['a'], { limit: 'lots' }))).toBe('--limit must be a whole number, got "lots"');
    expect(refusal(() => argsOf('reconstruct_session', ['a'], { kind: 'nope' }))).toMatch(/^--kind takes a comma-separated list of user, assistant/);
    expect(refusal(() => argsOf('usage_report', [], { order: 'newest' }))).toBe('--order takes asc or desc; got "newest"');
    expect(refusal(() => argsOf('usage_report', ['daily'], { active: true }))).toBe('--active applies to hindsight usage blocks only');
    expect(refusal(() => argsOf('usage_report', [], { timezone: 'Mars/Olympus' }))).toMatch(/^--timezone: /);
  });

  it.each(TOOLS.filter((t) => t.cli).map((t) => [t.cli!.command, t] as const))(
    '%s: the arguments of its simplest command line are valid for its tool',
    (_command, t) => {
      const cli = t.cli!;
      // Required positionals from the tool's own examples, required flags given.
      const example = t.examples.find((e) => e.status === 'ok')!.args;
      const positionals = (cli.positionals ?? []).filter((p) => p.required).map((p) => String(example[p.arg] ?? 'x'));
      const given = Object.fromEntries(cli.flags.filter((f) => f.required).map((f) => [f.name, true]));
      const args = toolArguments(cli, positionals, given);
      const parsed = t.input.safeParse(args);
      expect(parsed.success, parsed.success ? '' : parsed.error.message).toBe(true);
    },
  );
});

describe('help', () => {
  it('shows every command with its synopsis and every shared flag once', () => {
    const text = usageText(table);
    for (const c of table.commands) expect(text).toContain(c.synopses?.[0] ?? `  hindsight ${c.command}`);
    expect(text).toContain('hindsight export ID [--as replay|markdown|jsonl|otlp]');
    expect(text).toMatch(/--format F +only sessions of this source format: [a-z-]+( \| [a-z-]+)+\n +\(sessions, .*inspect\)\n/);
    expect(text.match(/^ {2}--db FILE\|URL/gm)).toHaveLength(1);
  });

  it('gives each command its flags with their help and the argument each sets', () => {
    for (const c of table.commands) {
      const text = commandHelp(c);
      for (const f of c.flags) expect(text, `${c.command} --${f.name}`).toContain(f.help);
      for (const p of c.positionals) expect(text).toContain(p.help);
    }
    expect(commandHelp(table.byName.get('show')!)).toMatch(/--raw +do not redact secrets in the text shown \(→ redact: false\)/);
    expect(commandHelp(table.byName.get('timeline')!)).toMatch(/--limit N +how many rows to show \(→ limit, default 50\)/);
  });
});

describe('inCliTerms', () => {
  it("names each tool that has a command as that command, as the tools' cli.ts spell them", () => {
    expect(commandForTool(table, 'inspect_metrics')).toBe('hindsight inspect --metrics');
    expect(inCliTerms('No session "x". Run list_sessions to see the ids, or session_overview.', table)).toBe(
      'No session "x". Run hindsight sessions to see the ids, or hindsight show.',
    );
    expect(inCliTerms('See raw_lines and list_sessions_extra.', table)).toBe('See raw_lines and list_sessions_extra.');
    expect(inCliTerms('Run list_sessions.', undefined)).toBe('Run list_sessions.');
  });
});

describe('a tool command without a text view of its own', () => {
  it('prints its envelope, so a new tool needs only its folder and a registry line', async () => {
    const echo = defineTool({
      name: 'echo_words',
      mcpSets: [],
      title: 'Echo',
      description: 'Says the words back.',
      input: z.object({ words: z.string(), loud: z.boolean().default(false) }).strict(),
      output: z.object({ status: z.literal('ok'), said: z.string() }),
      examples: [{ about: 'Echo.', args: { words: 'hi' }, status: 'ok' }],
      cli: { command: 'echo', summary: 'Echo.', positionals: [{ name: 'WORDS', arg: 'words', required: true, variadic: true, help: 'what to say' }], flags: [{ name: 'loud', type: 'boolean', help: 'shout', arg: 'loud' }] },
      handler: async (args: { words: string; loud: boolean }) => ({ said: args.loud ? args.words.toUpperCase() : args.words }),
    });
    const prepared = await prepareToolCommand(echo, ['hello', 'there'], { loud: true });
    // The tool reads no store; none is opened.
    const res = await runPrepared(prepared, undefined as unknown as Store, painter(process.stdout, {}, true));
    expect(res).toEqual({ stdout: JSON.stringify({ status: 'ok', said: 'HELLO THERE' }, null, 2), stderr: '', code: 0 });
  });
});
