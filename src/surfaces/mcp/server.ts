// buildServer: the MCP server over the tool registry, without side effects (no listening, no
// output), so stdio, HTTP and tests connect the same server to their own transports.

import { packageVersion, programName } from '../../core/package-info.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { findTool } from '../../tools/registry.js';
import type { AnyTool, ToolContext } from '../../tools/tool.js';
import type { Principal } from '../access/principal.js';
import { runToolAs } from '../access/run-as.js';
import { internalErrorResult, toCallResult } from './call-result.js';
import { mcpTools } from './tool-list.js';
import { resolveToolSelection } from './tool-sets.js';

// The SDK builds an Ajv instance per Server unless given one (~0.4 ms): HTTP builds a server per
// request, so they share one. This server never validates with it (no elicitation).
let validator: AjvJsonSchemaValidator | undefined;

export interface BuildServerOptions extends ToolContext {
  /** Who the calls act for (default the local user: every project, nothing refused). */
  principal?: Principal;
  /** Called with unexpected tool failures (they still reach the client as isError results). */
  onInternalError?: (tool: string, err: unknown) => void;
  /** The tools listed and callable (default: the core set, see tool-sets.ts). */
  tools?: readonly AnyTool[];
  /** List output schemas and every parameter's full description (default: the compact listing). */
  fullListing?: boolean;
}

/** Said once here instead of in every tool's schema (the compact listing shortens these parameters). */
const INSTRUCTIONS =
  'Hindsight answers questions about AI-agent sessions from an evidence store. Start with list_sessions or search_sessions, then session_overview for one session (its errors list each failure with its text and evidence). ' +
  'Every result is bounded: lists page with limit/offset (count is the total, has_more and next_offset say where the next page starts) and max_bytes caps the serialised result (truncated: true when items were cut; ask again with a larger max_bytes, up to the schema maximum). ' +
  'Output is redacted (API keys, tokens, private keys, URL passwords masked) unless redact: false; raw_lines and grep_jsonl return exact evidence. Rows cite their evidence as ledger, file and line_number.';

/**
 * An MCP server with the chosen registry tools (the core set by default), validated and run
 * through runTool.
 *
 * @example
 * const server = buildServer({ store });
 * await server.connect(new StdioServerTransport());
 */
export function buildServer(options: BuildServerOptions): Server {
  const { onInternalError, principal = { kind: 'local' }, tools = resolveToolSelection(undefined), fullListing = false, ...ctx } = options;
  const listing = mcpTools({ tools, full: fullListing });
  const exposed = new Set(tools.map((t) => t.name));
  const server = new Server(
    { name: programName(), title: 'Hindsight', version: packageVersion() },
    {
      capabilities: { tools: { listChanged: false } },
      jsonSchemaValidator: (validator ??= new AjvJsonSchemaValidator()),
      instructions: INSTRUCTIONS,
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listing }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args } = request.params;
    const tool = findTool(name);
    if (!tool || !exposed.has(name)) {
      // An unknown tool is a protocol error in MCP (the client asked for something not listed).
      const hint = tool ? ` It exists but this server was not started with it: add it with hindsight mcp --tools (e.g. --tools core,${name}).` : '';
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool "${name}".${hint} Listed tools: ${[...exposed].join(', ')}.`);
    }
    try {
      return toCallResult(await runToolAs(principal, tool, args ?? {}, ctx));
    } catch (err) {
      onInternalError?.(name, err);
      return internalErrorResult(name, err);
    }
  });
  return server;
}
