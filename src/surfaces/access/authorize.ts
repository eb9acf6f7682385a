// The one access decision both servers make per request: the bearer token against the static
// admin token and the store's team tokens, giving a Principal, or a 401 sentence.

import { bearerToken, sameSecret, tokenHash } from './bearer.js';
import type { Principal } from './principal.js';
import type { TokenStore } from './tokens/token-store.js';

export interface AccessOptions {
  /** The static admin token (--token or HINDSIGHT_TOKEN): sees every project. */
  token?: string;
  /** The store's team tokens: once any exists, every request needs a token. */
  tokens?: TokenStore;
}

export type AccessResult = { ok: true; principal: Principal } | { ok: false; status: 401; message: string };

export type Authorizer = (authorizationHeader: string | null | undefined) => Promise<AccessResult>;

const MISSING =
  'This Hindsight server needs a token. Send the header "Authorization: Bearer <token>" with the token the server was started with (--token or HINDSIGHT_TOKEN) or a team token from hindsight token create; in the web viewer, open /#token=<token>.';
const WRONG =
  'The bearer token is not the one this Hindsight server was started with, nor an active team token (it may have been revoked). Ask the server\'s admin for a token (hindsight token create) and send it as "Authorization: Bearer <token>".';

// A use is written at most this often per token: last_used_at is a day-level hint, not an audit log.
const TOUCH_EVERY_MS = 60_000;

/**
 * The access check of a server. Without a static token and with no team token ever created, every
 * request is the local user (the server is on loopback); otherwise a bearer token is required.
 * Team tokens are looked up by hash on every request, so a revoked one is refused at once.
 *
 * @example
 * const authorize = createAuthorizer({ token: 's3cret' });
 * await authorize('Bearer s3cret'); // { ok: true, principal: { kind: 'admin' } }
 */
export function createAuthorizer(options: AccessOptions): Authorizer {
  const { tokens } = options;
  // An empty token would lock every request out (no bearer value matches it): it means none.
  const token = options.token || undefined;
  const touched = new Map<string, number>();
  let closed = false;
  return async (header) => {
    const given = bearerToken(header);
    if (given !== null && token !== undefined && sameSecret(given, token)) return { ok: true, principal: { kind: 'admin' } };
    if (given !== null && tokens) {
      const record = await tokens.findActive(tokenHash(given));
      if (record) {
        const now = Date.now();
        if (now - (touched.get(record.id) ?? 0) >= TOUCH_EVERY_MS) {
          touched.set(record.id, now);
          await tokens.touch(record.id, new Date(now));
        }
        return {
          ok: true,
          principal: { kind: 'team', tokenId: record.id, user: record.user, projects: record.projects, readOnly: record.readOnly },
        };
      }
    }
    // Once a store has had a token it stays closed (revoked ones count), so a yes is kept; a no is
    // asked again, since a token may be created while the server runs.
    closed ||= tokens !== undefined && (await tokens.anyTokens());
    const required = token !== undefined || closed;
    if (!required) return { ok: true, principal: { kind: 'local' } };
    return { ok: false, status: 401, message: given === null ? MISSING : WRONG };
  };
}
