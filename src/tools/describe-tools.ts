// The tools as JSON Schemas, converted from their zod definitions on demand, and their commands as
// data. Apart from the registry because the converter is some forty modules: `hindsight tool`,
// `hindsight tools` (text) and the CLI's views never need it (they read the build's catalogue).

import { zodToJsonSchema } from 'zod-to-json-schema';
import type { CommandFlag, CommandSpec } from './catalogue.js';
import { TOOLS } from './registry.js';
import type { AnyTool, CliFlag } from './tool.js';

/** The `hindsight tools --json` shape (decisions.md): tool_id, description, parameters, output. */
export function describeTools() {
  return {
    tools: TOOLS.map((t) => ({
      tool_id: t.name,
      title: t.title,
      description: t.description,
      parameters: zodToJsonSchema(t.input, { target: 'jsonSchema7', $refStrategy: 'none' }),
      output: zodToJsonSchema(t.output, { target: 'jsonSchema7', $refStrategy: 'none' }),
    })),
  };
}

interface PropertySchema {
  enum?: unknown[];
  items?: PropertySchema;
}

/** The values a tool argument takes when its schema lists them (an enum, or an array of one). */
function argumentChoices(parameters: unknown, arg: string | undefined): string[] | undefined {
  if (arg === undefined) return undefined;
  const property = (parameters as { properties?: Record<string, PropertySchema> }).properties?.[arg];
  const values = property?.enum ?? property?.items?.enum;
  return values?.every((v) => typeof v === 'string') ? (values as string[]) : undefined;
}

/** A flag as data: the parse hook dropped, its placeholder filled from the argument's choices. */
function flagData(flag: CliFlag, parameters: unknown): CommandFlag {
  const { parse: _parse, ...data } = flag;
  if (flag.type === 'boolean' || data.value !== undefined) return data;
  const choices = argumentChoices(parameters, flag.arg);
  return { ...data, value: choices ? choices.join('|') : flag.type === 'integer' ? 'N' : 'VALUE' };
}

/** One tool's command as the CLI reads it from the catalogue. */
function commandOf(tool: AnyTool, parameters: unknown): CommandSpec | undefined {
  const cli = tool.cli;
  if (!cli) return undefined;
  return {
    command: cli.command,
    tool: tool.name,
    summary: cli.summary,
    positionals: (cli.positionals ?? []).map((p) => ({
      name: p.name,
      help: p.help,
      display: argumentChoices(parameters, p.arg)?.join('|') ?? p.name,
      arg: p.arg,
      required: p.required === true,
      variadic: p.variadic === true,
    })),
    ...(cli.needs === undefined ? {} : { needs: cli.needs }),
    flags: cli.flags.map((f) => flagData(f, parameters)),
    json: cli.json !== false,
  };
}

/**
 * Every tool's command, in registry order: the catalogue's `commands`.
 *
 * @example describeCommands().find((c) => c.command === 'show')?.tool // 'session_overview'
 */
export function describeCommands(described = describeTools().tools): CommandSpec[] {
  return TOOLS.flatMap((tool) => {
    const command = commandOf(tool, described.find((d) => d.tool_id === tool.name)?.parameters);
    return command ? [command] : [];
  });
}
