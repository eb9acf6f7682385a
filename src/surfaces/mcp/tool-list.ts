// The registry as MCP tool descriptors: JSON Schemas from describeTools() (never re-declared) and
// annotations from each tool's definition. Compact by default: tools/list is paid for in an
// agent's context on every session (the full listing of every tool was ~75 KB).

import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { describeTools } from '../../tools/describe-tools.js';
import { withoutDialect as toolSchema } from '../../tools/json-schema.js';
import { TOOLS } from '../../tools/registry.js';
import type { AnyTool } from '../../tools/tool.js';

type JsonObject = Record<string, unknown>;

/** The schema spelling agents are given (src/tools/json-schema.ts), typed as MCP's. */
function withoutDialect(schema: JsonObject): Tool['inputSchema'] {
  return toolSchema(schema) as Tool['inputSchema'];
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

/**
 * The same hints without what the spec makes redundant: the title is the tool's own, and
 * destructiveHint and idempotentHint only mean something when readOnlyHint is false.
 */
function compactAnnotations(tool: AnyTool): NonNullable<Tool['annotations']> {
  const { title: _title, ...hints } = annotationsOf(tool);
  if (!hints.readOnlyHint) return hints;
  return { readOnlyHint: true, openWorldHint: false };
}

/**
 * The envelope parameters every tool shares, matched by their long descriptions (from
 * tools/envelope.ts), and what the compact listing says instead: nothing where name, range and
 * default say it all (limit, offset), a few words otherwise. The rules they stand for (pages,
 * byte caps, redaction) are told once, in the server's instructions. A tool whose parameter says
 * something of its own keeps its own words.
 */
const SHARED_PARAMS: Readonly<Record<string, { long: RegExp; short: string | null }>> = {
  limit: { long: /^How many items to return \(1–\d+\)\.$/u, short: null },
  offset: { long: /^How many items to skip \(use next_offset from the previous page\)\.$/u, short: null },
  max_bytes: { long: /^Cap on the serialised result in bytes; items are cut/u, short: 'Byte cap; truncated: true when items were cut.' },
  redact: { long: /^Replace secrets \(API keys/u, short: 'false: secrets unmasked.' },
};

function compactInput(schema: Tool['inputSchema']): Tool['inputSchema'] {
  const properties = schema.properties as Record<string, JsonObject> | undefined;
  if (!properties) return schema;
  const out: Record<string, JsonObject> = {};
  for (const [name, prop] of Object.entries(properties)) {
    const shared = SHARED_PARAMS[name];
    if (!shared || typeof prop.description !== 'string' || !shared.long.test(prop.description)) {
      out[name] = prop;
      continue;
    }
    const { description: _long, ...rest } = prop;
    out[name] = shared.short === null ? rest : { ...rest, description: shared.short };
  }
  return { ...schema, properties: out };
}

interface Described {
  tool: AnyTool;
  inputSchema: Tool['inputSchema'];
  outputSchema: Tool['outputSchema'];
}

let described: Map<string, Described> | undefined;

/** Every registry tool's schemas, converted once (the registry does not change at run time). */
function describedTools(): Map<string, Described> {
  if (described) return described;
  const all = describeTools().tools;
  described = new Map(
    TOOLS.map((tool) => {
      const d = all.find((x) => x.tool_id === tool.name);
      if (!d) throw new Error(`describeTools() lost ${tool.name}`);
      return [tool.name, { tool, inputSchema: withoutDialect(d.parameters as JsonObject), outputSchema: withoutDialect(d.output as JsonObject) }];
    }),
  );
  return described;
}

export interface ToolListOptions {
  /** The tools to list, in the order given (default: every registry tool). */
  tools?: readonly AnyTool[];
  /**
   * The full listing: output schemas, every parameter's own description and all annotations.
   * Output schemas are optional in MCP; without them a client reads structuredContent (or the
   * text item) unchecked. The compact listing is what an agent pays for in context.
   */
  full?: boolean;
}

/**
 * MCP tool descriptors for the given tools: compact by default (no output schemas, shared
 * parameters described once in the instructions), full on request.
 *
 * @example
 * const names = mcpTools().map((t) => t.name); // ['list_sessions', 'session_overview', …]
 */
export function mcpTools(options: ToolListOptions = {}): Tool[] {
  const tools = options.tools ?? TOOLS;
  // HTTP builds a server per request: the same selection is listed from a cache.
  const key = `${options.full ? 'full' : 'compact'}:${tools.map((t) => t.name).join(',')}`;
  const hit = listings.get(key);
  if (hit) return hit;
  const all = describedTools();
  const listing = tools.map((tool): Tool => {
    const d = all.get(tool.name)!;
    if (options.full) {
      return { name: tool.name, title: tool.title, description: tool.description, inputSchema: d.inputSchema, outputSchema: d.outputSchema, annotations: annotationsOf(tool) };
    }
    return { name: tool.name, title: tool.title, description: tool.description, inputSchema: compactInput(d.inputSchema), annotations: compactAnnotations(tool) };
  });
  listings.set(key, listing);
  return listing;
}

const listings = new Map<string, Tool[]>();
