// Where a server may be reached from: loopback detection, and the Host allow-list that stops DNS
// rebinding against a server bound to loopback. Shared by the HTTP API and the MCP server.

import { isIP } from 'node:net';

/**
 * True for names and addresses that only this machine can reach.
 *
 * @example isLoopbackHost('127.0.0.1') // true; isLoopbackHost('0.0.0.0') // false
 */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true;
  if (bare.startsWith('::ffff:')) return isLoopbackHost(bare.slice(7));
  if (isIP(bare) === 4) return bare.startsWith('127.');
  if (isIP(bare) === 6) return bare === '::1' || bare === '0:0:0:0:0:0:0:1';
  return false;
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

function bracketed(host: string): string {
  return (host.includes(':') && !host.startsWith('[') ? `[${host}]` : host).toLowerCase();
}

/**
 * A Host-header check for a server bound to loopback: only localhost, 127.0.0.1, [::1] and the
 * address it is bound to, with the server's port when `port()` knows it, so a page on a rebound
 * DNS name (which sends its own name as Host) cannot read the server.
 *
 * @example loopbackHostCheck(() => 7718)('localhost:7718') // true; ('evil.example:7718') // false
 */
export function loopbackHostCheck(port: () => number | undefined, boundHost?: string): (hostHeader: string) => boolean {
  const names = new Set(LOOPBACK_NAMES);
  if (boundHost) names.add(bracketed(boundHost));
  return (hostHeader) => {
    const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(hostHeader.toLowerCase());
    if (!match?.[1] || !names.has(match[1])) return false;
    const expected = port();
    return expected === undefined || match[2] === undefined || Number(match[2]) === expected;
  };
}

/**
 * The Host check a server bound to `boundHost` applies: the loopback allow-list on loopback, none
 * elsewhere (off loopback a token is required, and it is the guard).
 *
 * @example hostCheckFor('0.0.0.0', () => 7718)('hindsight.internal:7718') // true
 */
export function hostCheckFor(boundHost: string, port: () => number | undefined): (hostHeader: string) => boolean {
  return isLoopbackHost(boundHost) ? loopbackHostCheck(port, boundHost) : () => true;
}

/** The sentence a refused Host gets. */
export function hostRefusal(host: string): string {
  return `This server only answers requests addressed to it by a loopback name (localhost, 127.0.0.1, [::1] or the address it listens on, with its port), not "${host}". Open it by one of those (a page on another name could be a DNS-rebinding attack).`;
}
