// The tool reference (docs/tools.md), rendered from the registry so it cannot drift: a test
// fails when the checked-in file differs from what this renders (`npm run docs` rewrites it).

import { describeTools } from './describe-tools.js';

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

/** Markdown for every tool: description, then a table of its parameters. */
export function renderToolReference(): string {
  const out: string[] = [
    '# Tool reference',
    '',
    'Generated from the tool registry (`src/tools/registry.ts`) by `npm run docs`; a test fails when it is stale.',
    'Run any tool with `hindsight tool NAME \'{"json": "args"}\'`; `hindsight tools --json` prints the full JSON schemas.',
    '',
  ];
  for (const t of describeTools().tools) {
    const params = t.parameters as JsonSchema;
    out.push(`## ${t.tool_id}`, '', t.description, '', '| parameter | type | default | required | description |', '|---|---|---|---|---|');
    for (const [name, p] of Object.entries(params.properties ?? {})) {
      const required = params.required?.includes(name) && p.default === undefined ? 'yes' : '';
      const def = p.default === undefined ? '' : `\`${JSON.stringify(p.default)}\``;
      out.push(`| \`${name}\` | ${typeOf(p)} | ${def} | ${required} | ${(p.description ?? '').replace(/\|/g, '\\|')} |`);
    }
    out.push('');
  }
  return out.join('\n');
}
