// Listening: the hono app on a node HTTP server, bound to loopback unless told otherwise (and then
// only with a token), resolving once the port is known.

import { assertServable } from '../server-process.js';
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { Store } from '../../store/store.js';
import { hostCheckFor, isLoopbackHost } from '../access/loopback.js';
import type { TokenStore } from '../access/tokens/token-store.js';
import { createHttpApp } from './app.js';

export const DEFAULT_HOST = '127.0.0.1';

export interface HttpServerOptions {
  store: Store;
  /** Default 127.0.0.1. Anything but loopback needs a token. */
  host?: string;
  /** Default 0: any free port (the CLI's default is DEFAULT_PORT). */
  port?: number;
  token?: string;
  /** The store's team tokens (tokenStoreFor(store)): once any exists, requests need one. */
  tokens?: TokenStore;
  maxBodyBytes?: number;
  workspaceRoot?: string;
  logError?: (err: unknown) => void;
}

export interface RunningServer {
  /** e.g. http://127.0.0.1:7718 (no trailing slash). */
  url: string;
  close(): Promise<void>;
}

/** Raised before listening when the server would be reachable from the network without a token. */
export { TokenRequired } from '../server-process.js';

function urlHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/**
 * Serve the API and the viewer. The store stays open (and owned by the caller).
 *
 * @example
 * const server = await startHttpServer({ store, port: 0 });
 * await fetch(`${server.url}/api/tools`); await server.close();
 */
export async function startHttpServer(options: HttpServerOptions): Promise<RunningServer> {
  const host = options.host ?? DEFAULT_HOST;
  const loopback = isLoopbackHost(host);
  await assertServable(host, options.token, options.tokens);
  let port: number | undefined;
  const app = createHttpApp({
    store: options.store,
    token: options.token,
    tokens: options.tokens,
    maxBodyBytes: options.maxBodyBytes,
    workspaceRoot: options.workspaceRoot,
    logError: options.logError,
    allowedHost: hostCheckFor(host, () => port),
  });
  const server = await new Promise<Server>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: host, port: options.port ?? 0 }, () => resolve(s as Server)) as Server;
    s.once('error', reject);
  });
  port = (server.address() as AddressInfo).port;
  const displayHost = host === '0.0.0.0' || host === '::' ? host : urlHost(host);
  return {
    url: `http://${displayHost}:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        // Requests in flight may finish (for a moment); idle keep-alive connections would
        // otherwise hold close() open until they time out.
        const force = setTimeout(() => server.closeAllConnections(), 1000);
        server.close((err) => {
          clearTimeout(force);
          if (err) reject(err);
          else resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
