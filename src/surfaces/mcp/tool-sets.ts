// Which tools an MCP server exposes (`hindsight mcp --tools a,b,set`). Every listed tool costs an
// agent its description and schema in context on every session, so the default set holds the
// tools that answer the first questions (what happened, what failed, what was said, what it
// cost) and the rest are asked for by name or by set. Sets name tools, so a tool added to the
// registry later joins `all` but never grows the default listing unnoticed.

import { TOOLS } from '../../tools/registry.js';
import type { AnyTool } from '../../tools/tool.js';

export const TOOL_SETS: Readonly<Record<string, readonly string[]>> = {
  /**
   * The default: find a session, read what happened and what failed (session_overview lists each
   * failure with its text), what it cost, and cite raw lines. Kept under 20 KB of tools/list.
   */
  core: ['list_sessions', 'search_sessions', 'session_overview', 'reconstruct_session', 'get_events', 'grep_jsonl', 'usage_report', 'raw_lines'],
  /** core plus per-turn analysis, whole-session reads, exports and run metrics. */
  analyst: [
    'list_sessions', 'search_sessions', 'session_overview', 'reconstruct_session', 'get_events', 'analyze_events', 'grep_jsonl',
    'usage_report', 'raw_lines', 'get_session', 'export_session', 'inspect_metrics',
  ],
  /** Control Plane ledgers entry by entry, and their integrity. */
  ledger: ['query_ledger', 'query_ledger_full', 'verify_ledger', 'grep_jsonl', 'raw_lines', 'sources'],
  /** The store and its sources, sync state, and the one tool that writes (rewind_session). */
  admin: ['sources', 'verify_ledger', 'sync_status', 'rewind_session'],
  /** Files of the workspace: most agents have their own file tools, so these are opt-in. */
  files: ['list_files', 'read_file'],
};

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
