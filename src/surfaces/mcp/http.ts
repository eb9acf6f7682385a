// The MCP server over Streamable HTTP on node:http, stateless: every POST gets a fresh server and
// transport, so requests from many clients never share state and any process can answer any call.

import { assertServable } from '../server-process.js';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { HindsightError } from '../../core/errors.js';
import type { AnyTool, ToolContext } from '../../tools/tool.js';
import { createAuthorizer } from '../access/authorize.js';
import { hostCheckFor } from '../access/loopback.js';
import type { TokenStore } from '../access/tokens/token-store.js';
import { buildServer } from './server.js';
import { programName } from '../../core/package-info.js';

export const MCP_PATH = '/mcp';
export const DEFAULT_MCP_PORT = 7437;

export { TokenRequired } from '../server-process.js';

export interface McpHttpOptions extends ToolContext {
  /** Default 127.0.0.1. Any other than loopback needs a token. */
  host?: string;
  /** 0 = any free port. Default DEFAULT_MCP_PORT. */
  port?: number;
  /** When set, every request needs `Authorization: Bearer <token>`; this token sees everything. */
  token?: string;
  /** The store's team tokens (tokenStoreFor(store)): once any exists, requests need one. */
  tokens?: TokenStore;
  onInternalError?: (tool: string, err: unknown) => void;
  /** The tools listed and callable (default: the core set). */
  tools?: readonly AnyTool[];
  /** List output schemas and full parameter descriptions. */
  fullListing?: boolean;
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
  await assertServable(host, token, options.tokens);
  const ctx: ToolContext = { store: options.store, workspaceRoot: options.workspaceRoot };
  const authorize = createAuthorizer({ token, tokens: options.tokens });
  let port: number | undefined;
  const hostAllowed = hostCheckFor(host, () => port);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== MCP_PATH) {
      sendJsonRpcError(res, 404, `Nothing at ${path}: the MCP endpoint is ${MCP_PATH}.`);
      return;
    }
    const hostHeader = req.headers.host ?? '';
    if (!hostAllowed(hostHeader)) {
      return sendJsonRpcError(
        res,
        403,
        `Host "${hostHeader}" is not allowed: this MCP server listens on loopback and only answers requests addressed to localhost, 127.0.0.1 or [::1] (a page on another name could be a DNS-rebinding attack).`,
      );
    }
    let access;
    try {
      access = await authorize(req.headers.authorization);
    } catch (err) {
      // The token table lives in the store: a store that went away is its own answer (503), not a bug.
      if (err instanceof HindsightError) return sendJsonRpcError(res, 503, err.message);
      throw err;
    }
    if (!access.ok) return sendJsonRpcError(res, access.status, access.message, { 'www-authenticate': `Bearer realm="${programName()}"` });
    if (req.method !== 'POST') {
      // Stateless: no server-initiated stream (GET) and no session to end (DELETE).
      return sendJsonRpcError(res, 405, `${req.method} is not supported: this stateless MCP server answers POST ${MCP_PATH} only.`, { allow: 'POST' });
    }
    // The principal decides the store (a team token sees its projects) and the read-only rules.
    const server = buildServer({ ...ctx, principal: access.principal, onInternalError: options.onInternalError, tools: options.tools, fullListing: options.fullListing });
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
  port = (http.address() as AddressInfo).port;
  return {
    url: urlOf(host, port),
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}
