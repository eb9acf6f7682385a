// Who may talk to the HTTP server: the bearer token check (one function, so team tokens can
// replace it) and the Host allow-list that stops DNS rebinding against a loopback server.

import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';

/**
 * True for names and addresses that only this machine can reach.
 *
 * @example isLoopbackHost('127.0.0.1') // true; isLoopbackHost('0.0.0.0') // false
 */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  if (h.startsWith('::ffff:')) return isLoopbackHost(h.slice(7));
  return false;
}

export type AccessDecision = { ok: true } | { ok: false; status: 401 | 403; message: string };

// Hashing first makes both sides the same length, so timingSafeEqual never leaks the length.
function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/**
 * With a token configured, a request must carry `Authorization: Bearer <token>`.
 *
 * @example
 * authorize(req, 's3cret'); // { ok: false, status: 401, message: 'This Hindsight MCP server needs…' }
 */
export function authorize(req: IncomingMessage, token: string | undefined): AccessDecision {
  if (!token) return { ok: true };
  const header = req.headers.authorization ?? '';
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  if (match?.[1] && sameSecret(match[1], token)) return { ok: true };
  return {
    ok: false,
    status: 401,
    message: header
      ? 'The bearer token is not the one this Hindsight MCP server was started with. Send Authorization: Bearer <token> with the --token (or HINDSIGHT_TOKEN) value.'
      : 'This Hindsight MCP server needs a token. Send Authorization: Bearer <token> with the --token (or HINDSIGHT_TOKEN) value it was started with.',
  };
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/**
 * A server bound to loopback answers only requests addressed to a loopback name: a web page whose
 * DNS name was re-pointed at 127.0.0.1 still sends its own name as Host, and is refused.
 * The port is ignored (as the SDK's hostHeaderValidation does).
 *
 * @example checkHost(req, '127.0.0.1'); // { ok: false, status: 403, … } for Host: attacker.example
 */
export function checkHost(req: IncomingMessage, boundHost: string): AccessDecision {
  if (!isLoopbackHost(boundHost)) return { ok: true };
  const header = req.headers.host;
  let hostname = '';
  try {
    hostname = header ? new URL(`http://${header}`).hostname : '';
  } catch {
    hostname = '';
  }
  if (LOOPBACK_NAMES.includes(hostname) || (hostname && isLoopbackHost(hostname))) return { ok: true };
  return {
    ok: false,
    status: 403,
    message: `Host "${header ?? ''}" is not allowed: this MCP server listens on loopback and only answers requests addressed to localhost, 127.0.0.1 or [::1].`,
  };
}
