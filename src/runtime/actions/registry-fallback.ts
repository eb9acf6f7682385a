// The Hindsight tool registry as the executor's fall-through: a call the handler map does not know
// runs as a registry tool (runTool: zod validation, error envelopes), and its envelope JSON is the
// result. Specs are the registry's own JSON Schemas (describeTools) in the spelling the MCP
// listing gives agents (tools/json-schema.ts), so a model sees what an MCP client sees.

import { describeTools } from '../../tools/describe-tools.js';
import { withoutDialect } from '../../tools/json-schema.js';
import { findTool, TOOLS } from '../../tools/registry.js';
import { runTool, type ToolResult } from '../../tools/tool.js';
import type { Store } from '../../store/store.js';
import type { ModelToolSpec } from '../model/chat.js';

export { findTool };

/** Every registry tool's name, in registry order. */
export function registryToolNames(): string[] {
  return TOOLS.map((t) => t.name);
}

let specs: Map<string, ModelToolSpec> | undefined;

/** Every registry tool's spec, converted once (the registry does not change at run time). */
function allSpecs(): Map<string, ModelToolSpec> {
  specs ??= new Map(
    describeTools().tools.map((d) => [d.tool_id, { name: d.tool_id, description: d.description, parameters: withoutDialect(d.parameters as Record<string, unknown>) }]),
  );
  return specs;
}

/**
 * ModelToolSpecs for registry tools, in the order named; an unknown name is an error listing the
 * known ones. Every parameter keeps its own description: a model has no server instructions to
 * explain the shared ones, as the compact MCP listing assumes.
 *
 * @example registryToolSpecs(['list_sessions'])[0]!.parameters.type // 'object'
 */
export function registryToolSpecs(names: readonly string[]): ModelToolSpec[] {
  const all = allSpecs();
  return names.map((name) => {
    const spec = all.get(name);
    if (!spec) throw new Error(`No registry tool "${name}". Registry tools: ${registryToolNames().join(', ')}.`);
    return spec;
  });
}

/** Run a registry tool; undefined when no registry tool has that name. */
export async function runRegistryTool(name: string, args: Record<string, unknown>, ctx: { store: Store; workspaceRoot: string }): Promise<ToolResult | undefined> {
  const tool = findTool(name);
  return tool ? runTool(tool, args, ctx) : undefined;
}
