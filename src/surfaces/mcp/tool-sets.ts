// Which tools an MCP server exposes (`hindsight mcp --tools a,b,set`). Every listed tool costs an
// agent its description and schema in context on every session, so the default set holds the
// tools that answer the first questions (what happened, what failed, what was said, what it
// cost) and the rest are asked for by name or by set. Each tool names its sets in its own
// definition (ToolDefinition.mcpSets), so a tool added to the registry joins `all` but never grows
// the default listing unless its definition says so.

import { TOOLS } from '../../tools/registry.js';
import { MCP_SETS, type AnyTool } from '../../tools/tool.js';

/** Each set's tool names, in registry order, from the tools' own `mcpSets`. */
export const TOOL_SETS: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  MCP_SETS.map((set) => [set, TOOLS.filter((t) => t.mcpSets.includes(set)).map((t) => t.name)]),
);

export const DEFAULT_TOOL_SET = 'core';

/** A `--tools` value that names nothing known; the command prints it as a usage error (exit 2). */
export class ToolSelectionError extends Error {}

const UsageError = (message: string) => new ToolSelectionError(message);

/**
 * The tools a `--tools` value names, in registry order: tool names, set names (TOOL_SETS) and
 * `all`, comma-separated. Undefined gives the default set.
 *
 * @example resolveToolSelection('core,query_ledger').map((t) => t.name)
 */
export function resolveToolSelection(spec: string | undefined): AnyTool[] {
  const names = new Set<string>();
  const parts = (spec ?? DEFAULT_TOOL_SET).split(',').map((p) => p.trim());
  if (parts.every((p) => p === '')) throw UsageError(`--tools needs tool or set names, e.g. --tools core,query_ledger (sets: ${setNames()}).`);
  for (const part of parts) {
    if (part === '') continue;
    if (part === 'all') for (const t of TOOLS) names.add(t.name);
    else if (TOOL_SETS[part]) for (const n of TOOL_SETS[part]!) names.add(n);
    else if (TOOLS.some((t) => t.name === part)) names.add(part);
    else throw UsageError(`--tools: "${part}" is neither a tool nor a set. Sets: ${setNames()}. Tools: ${TOOLS.map((t) => t.name).join(', ')}.`);
  }
  return TOOLS.filter((t) => names.has(t.name));
}

function setNames(): string {
  return [...Object.keys(TOOL_SETS), 'all'].join(', ');
}
