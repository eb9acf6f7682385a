// The registry as MCP tool descriptors: JSON Schemas from describeTools() (never re-declared) and
// annotations from each tool's definition. Computed once: the registry does not change at run time.

import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { describeTools, TOOLS } from '../../tools/registry.js';
import type { AnyTool } from '../../tools/tool.js';

type JsonObject = Record<string, unknown>;

/**
 * zod-to-json-schema stamps draft-07 as `$schema`; MCP reads a schema without one as 2020-12, and
 * some clients' validators refuse a draft they were not built with. The keywords emitted here
 * mean the same under both, so the stamp is dropped.
 */
function withoutDialect(schema: JsonObject): Tool['inputSchema'] {
  const { $schema: _dialect, ...rest } = portable(schema) as JsonObject;
  return { ...rest, type: 'object' } as Tool['inputSchema'];
}

/**
 * `type: ["string", "null"]` (zod's nullable) spelled as anyOf branches with one type each: the
 * same constraint, but clients that map schemas onto a single-type dialect (Gemini's OpenAPI
 * subset) accept it. The inspector's --strict portability check asks for this.
 *
 * @example portable({ type: ['string', 'null'] }) // { anyOf: [{ type: 'string' }, { type: 'null' }] }
 */
export function portable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(portable);
  if (!node || typeof node !== 'object') return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) out[key] = key === 'enum' || key === 'const' || key === 'default' ? value : portable(value);
  if (Array.isArray(out.type) && out.type.length > 1 && out.anyOf === undefined) {
    const { type, ...rest } = out;
    return { anyOf: (type as unknown[]).map((t) => ({ type: t })), ...rest };
  }
  return out;
}

/**
 * readOnlyHint/destructiveHint come from `destructive` on the tool definition (defined once).
 *
 * @example annotationsOf(findTool('rewind_session')!).destructiveHint // true
 */
export function annotationsOf(tool: AnyTool): NonNullable<Tool['annotations']> {
  const destructive = tool.destructive === true;
  return {
    title: tool.title,
    readOnlyHint: !destructive,
    destructiveHint: destructive,
    idempotentHint: !destructive,
    // Everything answers from the local store or workspace: no outside world is touched.
    openWorldHint: false,
  };
}

let cached: Tool[] | undefined;

/**
 * Every registry tool once, in registry order, with input and output schemas and annotations.
 *
 * @example
 * const names = mcpTools().map((t) => t.name); // ['list_sessions', 'session_overview', …]
 */
export function mcpTools(): Tool[] {
  if (cached) return cached;
  const described = describeTools().tools;
  cached = TOOLS.map((tool) => {
    const d = described.find((x) => x.tool_id === tool.name);
    if (!d) throw new Error(`describeTools() lost ${tool.name}`);
    return {
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: withoutDialect(d.parameters as JsonObject),
      outputSchema: withoutDialect(d.output as JsonObject),
      annotations: annotationsOf(tool),
    };
  });
  return cached;
}
