// buildServer: the MCP server over the tool registry, without side effects (no listening, no
// output), so stdio, HTTP and tests connect the same server to their own transports.

import { packageVersion } from '../../core/package-info.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { findTool, TOOLS } from '../../tools/registry.js';
import type { ToolContext } from '../../tools/tool.js';
import type { Principal } from '../access/principal.js';
import { runToolAs } from '../access/run-as.js';
import { internalErrorResult, toCallResult } from './call-result.js';
import { mcpTools } from './tool-list.js';

// The SDK builds an Ajv instance per Server unless given one (~0.4 ms): HTTP builds a server per
// request, so they share one. This server never validates with it (no elicitation).
let validator: AjvJsonSchemaValidator | undefined;

export interface BuildServerOptions extends ToolContext {
  /** Who the calls act for (default the local user: every project, nothing refused). */
  principal?: Principal;
  /** Called with unexpected tool failures (they still reach the client as isError results). */
  onInternalError?: (tool: string, err: unknown) => void;
}

/**
 * An MCP server with every registry tool, validated and run through runTool.
 *
 * @example
 * const server = buildServer({ store });
 * await server.connect(new StdioServerTransport());
 */
export function buildServer(options: BuildServerOptions): Server {
  const { onInternalError, principal = { kind: 'local' }, ...ctx } = options;
  const server = new Server(
    { name: 'hindsight', title: 'Hindsight', version: packageVersion() },
    {
      capabilities: { tools: { listChanged: false } },
      jsonSchemaValidator: (validator ??= new AjvJsonSchemaValidator()),
      instructions:
        'Hindsight answers questions about AI-agent sessions from an evidence store. Start with list_sessions or search_sessions, then session_overview for one session; every result is paginated (limit/offset) and capped (max_bytes).',
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: mcpTools() }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args } = request.params;
    const tool = findTool(name);
    if (!tool) {
      // An unknown tool is a protocol error in MCP (the client asked for something not listed).
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool "${name}". Known tools: ${TOOLS.map((t) => t.name).join(', ')}.`);
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
