// The MCP server over Streamable HTTP on node:http. A client that initializes gets a session
// (http-sessions.ts): its server and transport live on, so each later call is one HTTP exchange
// (a fresh server and transport per POST cost 2–5× stdio per call), answered by
// json-http-transport.ts straight on node's request and response. A POST that is neither an
// initialize nor part of a session is still answered statelessly by a server made for it, so raw
// JSON-RPC clients that never initialize keep working.

import { assertServable } from '../server-process.js';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HindsightError } from '../../core/errors.js';
import type { AnyTool, ToolContext } from '../../tools/tool.js';
import { createAuthorizer } from '../access/authorize.js';
import { hostCheckFor } from '../access/loopback.js';
import type { TokenStore } from '../access/tokens/token-store.js';
import { buildServer } from './server.js';
import { programName } from '../../core/package-info.js';
import { isInitializeRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { SessionTable } from './http-sessions.js';
import { JsonHttpTransport } from './json-http-transport.js';
import { sendJsonRpcError } from './json-reply.js';

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
  /** Close a session unused this long (default 30 minutes). */
  sessionIdleMs?: number;
  /** Sessions kept open at most (default 1000); one more closes the least recently used. */
  maxSessions?: number;
}

/**
 * How long an idle client connection stays open (node's default is 5 s). An agent's calls are
 * seconds apart (the model thinks in between), so with 5 s most calls would pay a new connection;
 * fetch (undici) keeps its side open as long as the Keep-Alive header this sets allows.
 */
export const KEEP_ALIVE_MS = 120_000;

/** The largest JSON-RPC body read (tool arguments are small; this only bounds a hostile client). */
const MAX_BODY_BYTES = 4 * 1024 * 1024;
const SESSION_HEADER = 'mcp-session-id';

export interface McpHttpServer {
  url: string;
  close(): Promise<void>;
}

/** A refusal of this server's own (the transport words the protocol's). */
const refuse = (res: ServerResponse, status: number, message: string, headers?: Record<string, string>) => sendJsonRpcError(res, status, -32000, message, headers);

/** The request body, or null when it is larger than MAX_BODY_BYTES. */
async function readBody(req: IncomingMessage): Promise<Buffer | null> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_BODY_BYTES) return null;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

const opensSession = (body: unknown) => (Array.isArray(body) ? body.some((m) => isInitializeRequest(m)) : isInitializeRequest(body));

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
  const sessions = new SessionTable({ idleMs: options.sessionIdleMs, maxSessions: options.maxSessions });
  let port: number | undefined;
  const hostAllowed = hostCheckFor(host, () => port);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== MCP_PATH) {
      refuse(res, 404, `Nothing at ${path}: the MCP endpoint is ${MCP_PATH}.`);
      return;
    }
    const hostHeader = req.headers.host ?? '';
    if (!hostAllowed(hostHeader)) {
      return refuse(
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
      if (err instanceof HindsightError) return refuse(res, 503, err.message);
      throw err;
    }
    if (!access.ok) return refuse(res, access.status, access.message, { 'www-authenticate': `Bearer realm="${programName()}"` });
    const principal = access.principal;
    const make = () => buildServer({ ...ctx, principal, onInternalError: options.onInternalError, tools: options.tools, fullListing: options.fullListing });
    const sessionId = req.headers[SESSION_HEADER];
    if (req.method !== 'POST' && !(req.method === 'DELETE' && typeof sessionId === 'string')) {
      // No server-initiated stream (GET): every answer goes back on its own POST.
      return refuse(res, 405, `${req.method} is not supported: this MCP server answers POST ${MCP_PATH} (and DELETE of a session).`, { allow: 'POST' });
    }
    let body: JSONRPCMessage | JSONRPCMessage[] | undefined;
    if (req.method === 'POST') {
      // Read and parsed here, before any transport: the body says whether a session starts.
      const bytes = await readBody(req);
      if (bytes === null) return refuse(res, 413, `The request body is larger than ${MAX_BODY_BYTES} bytes.`);
      try {
        body = JSON.parse(bytes.toString('utf8')) as JSONRPCMessage | JSONRPCMessage[];
      } catch (err) {
        return sendJsonRpcError(res, 400, -32700, `Parse error: ${(err as Error).message}`);
      }
    }
    if (typeof sessionId === 'string') {
      const transport = sessions.find(sessionId, principal);
      if (!transport) return refuse(res, 404, `No MCP session ${sessionId} here (it ended, expired after being idle, or belongs to another token): initialize a new one.`);
      return req.method === 'DELETE' ? transport.handleDelete(req, res) : transport.handlePost(req, res, body);
    }
    // The principal decides the store (a team token sees its projects) and the read-only rules.
    if (opensSession(body)) return (await sessions.open(principal, make)).handlePost(req, res, body);
    // Stateless: a server and transport for this one request.
    const server = make();
    const transport = new JsonHttpTransport();
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    transport.handlePost(req, res, body);
  }

  const http = createServer({ keepAliveTimeout: KEEP_ALIVE_MS }, (req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) refuse(res, 500, `Internal error: ${err instanceof Error ? err.message : String(err)}`);
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
    close: async () => {
      await sessions.closeAll();
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    },
  };
}
