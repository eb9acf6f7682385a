// The MCP server over Streamable HTTP on node:http, stateless: every POST gets a fresh server and
// transport, so requests from many clients never share state and any process can answer any call.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { defineError } from '../../core/errors.js';
import type { ToolContext } from '../../tools/tool.js';
import { authorize, checkHost, isLoopbackHost } from './access.js';
import { buildServer } from './server.js';

export const MCP_PATH = '/mcp';
export const DEFAULT_MCP_PORT = 7437;

export const TokenRequired = defineError(
  'TOKEN_REQUIRED',
  (host: string) =>
    `Refusing to serve MCP on ${host} without a token: that address is reachable from other machines. Pass --token T (or set HINDSIGHT_TOKEN), or bind to 127.0.0.1.`,
);

export interface McpHttpOptions extends ToolContext {
  /** Default 127.0.0.1. Any other than loopback needs a token. */
  host?: string;
  /** 0 = any free port. Default DEFAULT_MCP_PORT. */
  port?: number;
  /** When set, every request needs `Authorization: Bearer <token>`. */
  token?: string;
  onInternalError?: (tool: string, err: unknown) => void;
}

export interface McpHttpServer {
  url: string;
  close(): Promise<void>;
}

function sendJsonRpcError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body);
}

function urlOf(host: string, port: number): string {
  const name = host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}${MCP_PATH}`;
}

/**
 * Listen for MCP over Streamable HTTP at `http://HOST:PORT/mcp`. Prints nothing; the caller
 * says where it listens.
 *
 * @example
 * const { url, close } = await startMcpHttpServer({ store, port: 0 });
 * // url: 'http://127.0.0.1:39113/mcp'
 */
export async function startMcpHttpServer(options: McpHttpOptions): Promise<McpHttpServer> {
  const host = options.host ?? '127.0.0.1';
  const token = options.token || undefined;
  if (!isLoopbackHost(host) && !token) throw TokenRequired(host);
  const ctx: ToolContext = { store: options.store, workspaceRoot: options.workspaceRoot };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== MCP_PATH) {
      sendJsonRpcError(res, 404, `Nothing at ${path}: the MCP endpoint is ${MCP_PATH}.`);
      return;
    }
    const hostOk = checkHost(req, host);
    if (!hostOk.ok) return sendJsonRpcError(res, hostOk.status, hostOk.message);
    const auth = authorize(req, token);
    if (!auth.ok) return sendJsonRpcError(res, auth.status, auth.message, { 'www-authenticate': 'Bearer realm="hindsight"' });
    if (req.method !== 'POST') {
      // Stateless: no server-initiated stream (GET) and no session to end (DELETE).
      return sendJsonRpcError(res, 405, `${req.method} is not supported: this stateless MCP server answers POST ${MCP_PATH} only.`, { allow: 'POST' });
    }
    const server = buildServer({ ...ctx, onInternalError: options.onInternalError });
    // JSON responses rather than SSE: every answer is one message, and plain JSON is cheaper.
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  }

  const http = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJsonRpcError(res, 500, `Internal error: ${err instanceof Error ? err.message : String(err)}`);
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? DEFAULT_MCP_PORT, host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const { port } = http.address() as AddressInfo;
  return {
    url: urlOf(host, port),
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}
