// The MCP HTTP server's answers as bytes: one JSON body with its length (a body of known length
// spares the client chunked decoding), and the JSON-RPC error shape every refusal uses.

import type { ServerResponse } from 'node:http';

/**
 * Write `body` (JSON text) with its status and headers, and end the response.
 *
 * @example sendJson(res, 200, '{"jsonrpc":"2.0","id":1,"result":{}}', { 'mcp-session-id': id });
 */
export function sendJson(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...headers }).end(body);
}

/**
 * A JSON-RPC error not tied to a request (`id: null`), as the SDK's transport words its refusals.
 *
 * @example sendJsonRpcError(res, 404, -32001, 'Session not found');
 */
export function sendJsonRpcError(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  sendJson(res, status, JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), headers);
}
