// What `hindsight serve` and `hindsight mcp --http` share as servers: the rule that only loopback
// may be served without a token, reading --port, saying why a port cannot be listened on, and
// waiting for Ctrl-C or a termination signal.

import { defineError } from '../core/errors.js';
import { isLoopbackHost } from './access/loopback.js';
import type { TokenStore } from './access/tokens/token-store.js';

export const TokenRequired = defineError(
  'TOKEN_REQUIRED',
  (host: string) =>
    `Refusing to serve on ${host} without a token: that address is reachable from other machines and would let them read your sessions. Pass --token T (or set HINDSIGHT_TOKEN), create team tokens (hindsight token create), or bind to 127.0.0.1.`,
);

/** Throws TokenRequired unless `host` is loopback, a token is given, or the store holds team tokens. */
export async function assertServable(host: string, token: string | undefined, tokens: TokenStore | undefined): Promise<void> {
  if (!isLoopbackHost(host) && !token && !(await tokens?.anyTokens())) throw TokenRequired(host);
}

/**
 * A --port value: a whole number from 0 (any free port) to 65535, or null when it is not one.
 *
 * @example parsePort('0', 7718) // 0; parsePort(undefined, 7718) // 7718; parsePort('80a', 7718) // null
 */
export function parsePort(value: string | undefined, fallback: number): number | null {
  if (value === undefined) return fallback;
  return /^\d{1,5}$/.test(value) && Number(value) <= 65535 ? Number(value) : null;
}

/** The sentence for a failure to listen, or null when `err` is not one (then it is a bug to rethrow). */
export function listenFailure(err: unknown, host: string, port: number): string | null {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') return `port ${port} on ${host} is already in use: pass another --port (0 picks any free port), or stop what is using it.`;
  if (code === 'EACCES') return `no permission to listen on port ${port} of ${host}: pass a port above 1023 (0 picks any free port).`;
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return `cannot listen on ${host}: no such address on this machine. Pass --host 127.0.0.1 or one of its own addresses.`;
  return null;
}

/** Resolves at the first SIGINT or SIGTERM (and stops listening for them). */
export function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
