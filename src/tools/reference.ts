// The tool reference (docs/tools.md), rendered from the registry so it cannot drift: a test
// fails when the checked-in file differs from what this renders (`npm run docs` rewrites it).
// Each tool: its description, parameters, examples (the calls a test runs on every surface), its
// command line (each flag with the argument it sets) and its HTTP routes.

import { synopsisWords, type CommandSpec } from './catalogue.js';
import { describeCommands, describeTools } from './describe-tools.js';
import { TOOLS } from './registry.js';
import type { AnyTool } from './tool.js';

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  description?: string;
  default?: unknown;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  items?: JsonSchema;
}

function typeOf(s: JsonSchema): string {
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(' \\| ');
  const t = Array.isArray(s.type) ? s.type.join(' \\| ') : (s.type ?? 'any');
  if (t === 'array' && s.items) return `${typeOf(s.items)}[]`;
  const range = s.minimum !== undefined || s.maximum !== undefined ? ` (${s.minimum ?? ''}–${s.maximum ?? ''})` : '';
  return `${t}${range}`;
}

const cell = (text: string): string => text.replace(/\|/g, '\\|');

/** A shell word for a JSON argument object (the single quotes `hindsight tool` is typed with). */
const jsonWord = (args: unknown): string => `'${JSON.stringify(args).replace(/'/g, `'\\''`)}'`;

function examplesSection(tool: AnyTool): string[] {
  const out = ['**Examples** (a test runs each on the example store over every surface):', ''];
  for (const e of tool.examples) {
    const answer = e.status === 'ok' ? 'ok' : `error \`${e.code}\``;
    out.push(`- ${e.about} → ${answer}`, `  \`hindsight tool ${tool.name} ${jsonWord(e.args)}\``);
  }
  return [...out, ''];
}

function commandSection(spec: CommandSpec): string[] {
  const words = synopsisWords(spec);
  if (spec.json) words.push('[--json]');
  const out = [`**Command line:** \`${words.join(' ')}\` (and \`--db FILE|URL\`; \`hindsight ${spec.command} --help\` says the same)`, ''];
  out.push(cell(spec.summary), '');
  const rows = [
    ...spec.positionals.map((p) => [`\`${p.display}${p.variadic ? '...' : ''}\``, p.arg === undefined ? '' : `\`${p.arg}\``, p.help]),
    ...spec.flags.map((f) => {
      const value = f.sets === undefined ? '' : ` = \`${JSON.stringify(f.sets)}\``;
      const fallback = f.default === undefined ? '' : ` (default \`${JSON.stringify(f.default)}\`)`;
      const sets = f.arg === undefined ? '' : `\`${f.arg}\`${value}${fallback}`;
      return [`\`--${f.name}${f.value ? ` ${f.value}` : ''}\`${f.short ? ` \`-${f.short}\`` : ''}`, sets, f.help];
    }),
    ...(spec.json ? [['`--json`', '', "the tool's JSON envelope instead of text"]] : []),
  ];
  if (rows.length) {
    out.push('| word or flag | sets | meaning |', '|---|---|---|');
    for (const [word, sets, help] of rows) out.push(`| ${cell(word!)} | ${cell(sets!)} | ${cell(help!)} |`);
    out.push('');
  }
  return out;
}

function httpSection(tool: AnyTool): string[] {
  const routes = [`\`POST /api/tools/${tool.name}\``];
  if (tool.http) routes.push(`\`GET ${tool.http.path.replace(/:([A-Za-z_]+)/g, '{$1}')}\` (${tool.http.summary.replace(/\.$/, '')})`);
  const scope = tool.destructive ? ' Changes files: never a GET view, refused to read-only tokens.' : tool.machineLocal ? " Reads the serving machine's own files or settings: refused to team tokens." : '';
  return [`**HTTP:** ${routes.join('; ')}.${scope}`, ''];
}

/** Markdown for every tool: description, parameters, examples, command line, HTTP routes. */
export function renderToolReference(): string {
  const out: string[] = [
    '# Tool reference',
    '',
    'Generated from the tool registry (`src/tools/registry.ts`) by `npm run docs`; a test fails when it is stale.',
    'Run any tool with `hindsight tool NAME \'{"json": "args"}\'`; `hindsight tools --json` prints the full JSON schemas.',
    'The examples run on the example store (`src/tools/example-store.ts`: the claude-code and control-plane/normal fixtures).',
    '',
  ];
  const described = describeTools().tools;
  const commands = describeCommands(described);
  for (const t of described) {
    const tool = TOOLS.find((x) => x.name === t.tool_id)!;
    const params = t.parameters as JsonSchema;
    out.push(`## ${t.tool_id}`, '', t.description, '', '| parameter | type | default | required | description |', '|---|---|---|---|---|');
    for (const [name, p] of Object.entries(params.properties ?? {})) {
      const required = params.required?.includes(name) && p.default === undefined ? 'yes' : '';
      const def = p.default === undefined ? '' : `\`${JSON.stringify(p.default)}\``;
      out.push(`| \`${name}\` | ${typeOf(p)} | ${def} | ${required} | ${cell(p.description ?? '')} |`);
    }
    out.push('', ...examplesSection(tool));
    const command = commands.find((c) => c.tool === t.tool_id);
    if (command) out.push(...commandSection(command));
    out.push(...httpSection(tool));
  }
  return out.join('\n');
}
