// Who may talk to the server: the bearer-token check (one function, so project-scoped team tokens
// can replace it later), the Host-header check against DNS rebinding, and loopback detection.

import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';

/** Who a request acts for. Today there is one principal per server; teams will add scopes. */
export interface Principal {
  kind: 'local' | 'token';
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/**
 * The principal a request acts for, or null when it is not allowed. Without a server token every
 * request is the local user (the server is on loopback); with one, `Authorization: Bearer <token>`
 * is required. Digests are compared so that neither content nor length leaks through timing.
 *
 * @example authorize(new Request('http://x/', { headers: { authorization: 'Bearer s3cret' } }), 's3cret') // { kind: 'token' }
 */
export function authorize(request: Request, token: string | undefined): Principal | null {
  if (token === undefined) return { kind: 'local' };
  const header = request.headers.get('authorization') ?? '';
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  if (!match?.[1]) return null;
  return timingSafeEqual(digest(match[1]), digest(token)) ? { kind: 'token' } : null;
}

/** True for names and addresses that only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  if (isIP(bare) === 6) return bare === '::1' || bare === '0:0:0:0:0:0:0:1';
  return false;
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * A Host-header check for a server bound to loopback: only localhost, 127.0.0.1, [::1] and the
 * address it is bound to (with the server's port when it is known), so a page on a rebound DNS
 * name cannot read the API.
 *
 * @example loopbackHostCheck(() => 7718)('localhost:7718') // true
 */
export function loopbackHostCheck(port: () => number | undefined, boundHost?: string): (hostHeader: string) => boolean {
  const names = new Set(LOOPBACK_NAMES);
  if (boundHost) names.add((boundHost.includes(':') && !boundHost.startsWith('[') ? `[${boundHost}]` : boundHost).toLowerCase());
  return (hostHeader) => {
    const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(hostHeader.toLowerCase());
    if (!match?.[1] || !names.has(match[1])) return false;
    const expected = port();
    return expected === undefined || match[2] === undefined || Number(match[2]) === expected;
  };
}
