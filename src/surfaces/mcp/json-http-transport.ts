// The MCP server's side of Streamable HTTP, answering every POST with one JSON body written
// straight to node's ServerResponse. The SDK's StreamableHTTPServerTransport turns each node
// request into a web-standard Request and its answer into a Response read back through a web
// stream (@hono/node-server), and tells message kinds apart with zod parses of whole messages
// (the answer included): together about as much CPU per call as a cheap tool itself. This
// transport keeps the SDK's rules and answers (status codes, JSON-RPC error codes and texts,
// session and protocol-version headers) for the subset this server uses: JSON answers only, no
// server-initiated stream (GET is refused before a transport is reached), no resumption.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { MAX_BATCH_SIZE } from '@modelcontextprotocol/sdk/server/requestBody.js';
import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isInitializeRequest,
  JSONRPCMessageSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { sendJson, sendJsonRpcError } from './json-reply.js';

const SESSION_HEADER = 'mcp-session-id';
const PROTOCOL_HEADER = 'mcp-protocol-version';

export interface JsonHttpTransportOptions {
  /** The session's id, sent on every answer once its initialize is accepted; none = stateless. */
  sessionId?: string;
  /** Called when the session's initialize request is accepted (before it is answered). */
  onsessioninitialized?: (sessionId: string) => void;
  /** Called when the client ends the session with DELETE. */
  onsessionclosed?: (sessionId: string) => void | Promise<void>;
}

/** One POST waiting for the answers to its requests, in the order they were asked. */
interface Exchange {
  res: ServerResponse;
  ids: RequestId[];
  answers: Map<RequestId, JSONRPCMessage>;
}

// After JSONRPCMessageSchema has accepted a message, its keys say its kind: no second zod parse.
const isRequest = (m: JSONRPCMessage) => 'method' in m && 'id' in m;
const isResponse = (m: JSONRPCMessage) => ('result' in m || 'error' in m) && 'id' in m;
// The SDK's own test (a full InitializeRequest parse), run only on messages that claim to be one.
const isInitialize = (m: JSONRPCMessage) => 'method' in m && m.method === 'initialize' && isInitializeRequest(m);

/**
 * An SDK Transport for one MCP session (or one stateless request) over node:http.
 *
 * @example
 * const transport = new JsonHttpTransport({ sessionId: randomUUID() });
 * await server.connect(transport);
 * transport.handlePost(req, res, JSON.parse(body)); // answers with one JSON body
 */
export class JsonHttpTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  /** Set once the initialize is accepted, as in the SDK (the server reads it for each request). */
  sessionId?: string;
  private readonly id: string | undefined;
  private readonly options: JsonHttpTransportOptions;
  private readonly pending = new Map<RequestId, Exchange>();
  private initialized = false;
  private closed = false;

  constructor(options: JsonHttpTransportOptions = {}) {
    this.options = options;
    this.id = options.sessionId;
  }

  async start(): Promise<void> {}

  /** Answer a POST whose body the caller has read and parsed (`body`: one message or a batch). */
  handlePost(req: IncomingMessage, res: ServerResponse, body: unknown): void {
    if (this.closed) return sendJsonRpcError(res, 404, -32001, 'Session not found');
    const accept = req.headers.accept ?? '';
    if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
      return this.refuse(res, 406, -32000, 'Not Acceptable: Client must accept both application/json and text/event-stream');
    }
    if (!isJsonContentType(req.headers['content-type'])) {
      return this.refuse(res, 415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
    }
    if (Array.isArray(body) && body.length > MAX_BATCH_SIZE) {
      return this.refuse(res, 400, -32600, `Invalid Request: Batch must not exceed ${MAX_BATCH_SIZE} messages`);
    }
    let messages: JSONRPCMessage[];
    try {
      messages = (Array.isArray(body) ? body : [body]).map((m) => JSONRPCMessageSchema.parse(m));
    } catch {
      return this.refuse(res, 400, -32700, 'Parse error: Invalid JSON-RPC message');
    }
    const initializing = messages.some(isInitialize);
    if (initializing) {
      if (this.initialized && this.id !== undefined) return this.refuse(res, 400, -32600, 'Invalid Request: Server already initialized');
      if (messages.length > 1) return this.refuse(res, 400, -32600, 'Invalid Request: Only one initialization request is allowed');
      this.initialized = true;
      this.sessionId = this.id;
      if (this.id !== undefined) this.options.onsessioninitialized?.(this.id);
    } else if (!this.checkSession(req, res) || !this.checkProtocolVersion(req, res)) {
      return;
    }
    const extra: MessageExtraInfo = { requestInfo: { headers: req.headers } };
    const requests = messages.filter(isRequest) as { id: RequestId }[];
    if (requests.length === 0) {
      for (const m of messages) this.onmessage?.(m, extra);
      res.writeHead(202).end();
      return;
    }
    // An id asked twice in one batch is answered once, as the SDK does.
    const exchange: Exchange = { res, ids: [...new Set(requests.map((r) => r.id))], answers: new Map() };
    for (const id of exchange.ids) this.pending.set(id, exchange);
    // A client that hangs up first gets nothing; its answers are dropped when they come.
    res.once('close', () => {
      for (const id of exchange.ids) if (this.pending.get(id) === exchange) this.pending.delete(id);
    });
    for (const m of messages) this.onmessage?.(m, extra);
  }

  /** Answer a DELETE: the client ends its session. */
  async handleDelete(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (this.closed) return sendJsonRpcError(res, 404, -32001, 'Session not found');
    if (!this.checkSession(req, res) || !this.checkProtocolVersion(req, res)) return;
    try {
      await this.options.onsessionclosed?.(this.id!);
      res.writeHead(200).end();
    } finally {
      await this.close();
    }
  }

  async send(message: JSONRPCMessage): Promise<void> {
    // Only answers have somewhere to go: with no server-initiated stream, the SDK drops the
    // notifications and requests a server sends on its own or about a request (progress, logs).
    if (!isResponse(message)) return;
    const id = (message as { id: RequestId }).id;
    const exchange = this.pending.get(id);
    if (!exchange) return;
    exchange.answers.set(id, message);
    if (exchange.answers.size < exchange.ids.length) return;
    for (const rid of exchange.ids) this.pending.delete(rid);
    const answers = exchange.ids.map((rid) => exchange.answers.get(rid)!);
    const body = JSON.stringify(answers.length === 1 ? answers[0] : answers);
    sendJson(exchange.res, 200, body, this.sessionId === undefined ? {} : { [SESSION_HEADER]: this.sessionId });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // POSTs still waiting are told what a POST after the end is told.
    for (const exchange of new Set(this.pending.values())) if (!exchange.res.headersSent) sendJsonRpcError(exchange.res, 404, -32001, 'Session not found');
    this.pending.clear();
    this.onclose?.();
  }

  private refuse(res: ServerResponse, status: number, code: number, message: string): void {
    this.onerror?.(new Error(message));
    sendJsonRpcError(res, status, code, message);
  }

  /** A session's requests after its initialize must carry its id (false: the answer is sent). */
  private checkSession(req: IncomingMessage, res: ServerResponse): boolean {
    if (this.id === undefined) return true;
    if (!this.initialized) {
      this.refuse(res, 400, -32000, 'Bad Request: Server not initialized');
      return false;
    }
    const given = req.headers[SESSION_HEADER];
    if (!given) {
      this.refuse(res, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
      return false;
    }
    if (given !== this.id) {
      this.refuse(res, 404, -32001, 'Session not found');
      return false;
    }
    return true;
  }

  /** A protocol-version header, when sent, must name a version the SDK speaks (false: the answer is sent). */
  private checkProtocolVersion(req: IncomingMessage, res: ServerResponse): boolean {
    const version = req.headers[PROTOCOL_HEADER];
    if (version === undefined || SUPPORTED_PROTOCOL_VERSIONS.includes(version as string)) return true;
    const message = `Bad Request: Unsupported protocol version: ${String(version)} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`;
    this.refuse(res, 400, -32000, message);
    return false;
  }
}
