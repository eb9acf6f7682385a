// Team tokens: what a token is (`hst_<id>_<secret>`, 32 random bytes), what is kept of it (a
// SHA-256 hash, never the token), and the TokenStore over the store's token table (open-tokens.ts).

import { randomBytes } from 'node:crypto';
import { defineError } from '../../../core/errors.js';
import type { TokenRow } from '../../../store/store.js';
import { tokenHash } from '../bearer.js';

/** A token as stored: everything but the token itself. */
export interface TokenRecord {
  /** Short public id (`tk_…`): what `token list` shows and `token revoke` takes. */
  id: string;
  user: string;
  /** Projects as list_sessions reports `project` (a slug folder name, a Control Plane root path). */
  projects: string[];
  readOnly: boolean;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

export interface NewToken {
  user: string;
  projects: string[];
  readOnly: boolean;
}

/** The token table of one store; every engine keeps the same columns. */
export interface TokenStore {
  /** Store a new token and return it: the only time the token itself exists outside the client. */
  create(input: NewToken, now?: Date): Promise<{ token: string; record: TokenRecord }>;
  /** Every token, oldest first, revoked ones included. */
  list(): Promise<TokenRecord[]>;
  /** Revoke by id; null when no token has that id. Revoking twice keeps the first date. */
  revoke(id: string, now?: Date): Promise<TokenRecord | null>;
  /** The unrevoked token with this hash, or null. */
  findActive(hash: string): Promise<TokenRecord | null>;
  /** True once any token was ever created here (revoked ones count: revoking never opens a server). */
  anyTokens(): Promise<boolean>;
  /** Record a use (best effort: a busy store skips it rather than delay the request). */
  touch(id: string, now?: Date): Promise<void>;
}

export const TokenNotFound = defineError(
  'TOKEN_NOT_FOUND',
  (id: string) => `No token has the id "${id}". Run hindsight token list (with the same --db) to see the ids.`,
);

// The row a store keeps is defined with the Store (src/store/store.ts); re-exported for callers here.
export type { TokenRow };

export function recordFromRow(r: TokenRow): TokenRecord {
  return {
    id: r.id,
    user: r.user_name,
    projects: JSON.parse(r.projects) as string[],
    readOnly: r.read_only === true || r.read_only === 1,
    createdAt: r.created_at,
    revokedAt: r.revoked_at,
    lastUsedAt: r.last_used_at,
  };
}

/**
 * A fresh token and the row to store for it. The id is inside the token too, so whoever holds a
 * token can tell an admin which one to revoke without revealing it.
 *
 * @example const { token, row } = mintToken({ user: 'ana', projects: ['-home-ana-app'], readOnly: true }, new Date());
 * // token: 'hst_tk_3f9a1c20b7_…' (43 characters of secret)
 */
export function mintToken(input: NewToken, now: Date): { token: string; row: TokenRow } {
  const id = `tk_${randomBytes(5).toString('hex')}`;
  const token = `hst_${id}_${randomBytes(32).toString('base64url')}`;
  return {
    token,
    row: {
      id,
      token_hash: tokenHash(token),
      user_name: input.user,
      projects: JSON.stringify(input.projects),
      read_only: input.readOnly ? 1 : 0,
      created_at: now.toISOString(),
      revoked_at: null,
      last_used_at: null,
    },
  };
}
