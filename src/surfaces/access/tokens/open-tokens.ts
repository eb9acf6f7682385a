// The TokenStore of a store: minting, hashing and records here, the table itself in the store's
// engine (Store.tokens()), so this layer never asks which engine it has.

import type { Store, TokenTable } from '../../../store/store.js';
import { mintToken, recordFromRow, type NewToken, type TokenRecord, type TokenStore } from './token-store.js';

class TableTokens implements TokenStore {
  constructor(private readonly table: TokenTable) {}

  async create(input: NewToken, now = new Date()): Promise<{ token: string; record: TokenRecord }> {
    const { token, row } = mintToken(input, now);
    await this.table.insert(row);
    return { token, record: recordFromRow(row) };
  }

  async list(): Promise<TokenRecord[]> {
    return (await this.table.all()).map(recordFromRow);
  }

  async revoke(id: string, now = new Date()): Promise<TokenRecord | null> {
    await this.table.revoke(id, now.toISOString());
    const row = await this.table.byId(id);
    return row ? recordFromRow(row) : null;
  }

  async findActive(hash: string): Promise<TokenRecord | null> {
    const row = await this.table.activeByHash(hash);
    return row ? recordFromRow(row) : null;
  }

  anyTokens(): Promise<boolean> {
    return this.table.any();
  }

  touch(id: string, now = new Date()): Promise<void> {
    return this.table.touch(id, now.toISOString());
  }
}

/**
 * The TokenStore kept in `store` (its SQLite file or its PostgreSQL schema).
 *
 * @example const tokens = tokenStoreFor(await openStore({ db: 'postgres://…?schema=team' }));
 */
export function tokenStoreFor(store: Store): TokenStore {
  return new TableTokens(store.tokens());
}
