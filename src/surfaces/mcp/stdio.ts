// The MCP server over stdin/stdout until the client hangs up (stdin ends) or a signal arrives.
// Nothing but protocol may reach stdout.

import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { buildServer, type BuildServerOptions } from './server.js';

type RequestId = string | number;

const requestId = (m: JSONRPCMessage): RequestId | undefined => ('method' in m && 'id' in m ? m.id : undefined);
const responseId = (m: JSONRPCMessage): RequestId | undefined => (('result' in m || 'error' in m) && 'id' in m ? m.id : undefined);

/**
 * Serve until stdin ends, SIGINT or SIGTERM; resolves once the server is closed. When stdin ends,
 * requests already read are answered first, so `printf '…' | hindsight mcp` gets its replies.
 *
 * @example
 * await serveStdio({ store }); // then close the store
 */
export async function serveStdio(ctx: BuildServerOptions): Promise<void> {
  const server = buildServer(ctx);
  const transport = new StdioServerTransport();
  const pending = new Set<RequestId>();
  let ended = false;
  let done!: () => void;
  const closed = new Promise<void>((resolve) => (done = resolve));
  const stop = () => void server.close();
  const endOfInput = () => {
    ended = true;
    if (pending.size === 0) stop();
  };
  server.onclose = () => {
    process.stdin.off('end', endOfInput);
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    done();
  };
  process.stdin.once('end', endOfInput);
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await server.connect(transport);

  // Track requests in flight (connect has installed the server's handlers; no data is read
  // before this runs, since stdin delivers on a later turn of the event loop).
  const receive = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage) => {
    const id = requestId(message);
    if (id !== undefined) pending.add(id);
    receive?.(message);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message: JSONRPCMessage) => {
    await send(message);
    const id = responseId(message);
    if (id !== undefined && pending.delete(id) && ended && pending.size === 0) stop();
  };
  return closed;
}
