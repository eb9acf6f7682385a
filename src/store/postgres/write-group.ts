// The open write transaction of an ingest, as the SQLite engine has one: every writer call (new
// files, supersedes, renames, defects, batches) joins it, and it commits once it holds a few
// megabytes of input, so a crash at any moment loses whole groups only and a re-run redoes them
// exactly. The calls since the last commit are kept and replayed on a new connection when the
// server drops the old one, so transient failures are retried without losing the group.

import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { guardClient, isTransient, openFailureReason, PostgresUnavailable, withRetry } from './connection.js';
import { GROUP_BYTES } from '../core/ingest-writer.js';
import type { Sql } from '../core/sql.js';
import { postgresSql } from './query.js';

const ATTEMPTS = 6;

function backoff(attempt: number): Promise<void> {
  return new Promise((r) => setTimeout(r, 100 * 2 ** (attempt - 1) * (0.75 + Math.random() * 0.5)));
}

export type GroupOp<T> = (sql: Sql) => Promise<T>;

export class ReplayingGroup {
  private client: pg.PoolClient | null = null;
  private sql: Sql | null = null;
  private unguard: () => void = () => {};
  /** Writes since the last commit, in order: replayed into a fresh transaction after a transient failure. */
  private log: GroupOp<unknown>[] = [];
  private bytes = 0;

  constructor(
    private readonly pool: pg.Pool,
    private readonly location: string,
    /** Called when the open transaction is lost, so that caches built inside it are dropped. */
    private readonly onAbandon: () => void,
  ) {}

  /** A write that joins the group (and is replayed with it); `bytes` of input count towards the commit. */
  async write<T>(op: GroupOp<T>, bytes = 0): Promise<T> {
    const out = await this.attempt(op);
    this.log.push(op);
    this.bytes += bytes;
    if (this.bytes >= GROUP_BYTES) await this.commit();
    return out;
  }

  /** A read that must see the group's uncommitted writes. */
  async read<T>(op: GroupOp<T>): Promise<T> {
    return this.attempt(op);
  }

  /**
   * Commit what the group holds. The transaction first records a fresh token; when the connection
   * breaks during COMMIT, the token read back on a new connection says whether the group landed,
   * and if it did not, the group is replayed and committed again.
   */
  async commit(): Promise<void> {
    if (!this.client) return;
    for (let attempt = 1; ; attempt++) {
      const token = randomUUID();
      // After a failed attempt the group is replayed on a new connection first.
      if (!this.client) await this.attempt(async () => undefined);
      const client = this.client!;
      let sent = false;
      try {
        await client.query('UPDATE ingest_commit SET token = $1', [token]);
        sent = true;
        await client.query('COMMIT');
        this.client = null;
        this.unguard();
        client.release();
        break;
      } catch (err) {
        await this.abandon();
        if (!isTransient(err) || attempt >= ATTEMPTS) {
          this.log = [];
          this.bytes = 0;
          throw isTransient(err) ? PostgresUnavailable(this.location, openFailureReason(err)) : err;
        }
        if (sent && (await this.committed(token))) break;
        await backoff(attempt);
      }
    }
    this.log = [];
    this.bytes = 0;
  }

  /** Whether the group that recorded `token` was committed (asked on a new connection). */
  private async committed(token: string): Promise<boolean> {
    const { rows } = await withRetry(() => this.pool.query<{ token: string }>('SELECT token FROM ingest_commit'), { location: this.location });
    return rows[0]?.token === token;
  }

  /** Run `op` in the group's transaction; after a transient failure, again on a new connection with the group replayed first. */
  private async attempt<T>(op: GroupOp<T>): Promise<T> {
    try {
      return await withRetry(async () => {
        try {
          return await op(await this.open());
        } catch (err) {
          await this.abandon();
          throw err;
        }
      }, { location: this.location });
    } catch (err) {
      this.log = [];
      this.bytes = 0;
      throw err;
    }
  }

  /** The group's connection, opening a transaction (and replaying the writes it lost) if needed. */
  private async open(): Promise<Sql> {
    if (this.client && this.sql) return this.sql;
    const client = await this.pool.connect();
    this.client = client;
    this.sql = postgresSql(client);
    this.unguard = guardClient(client);
    await client.query('BEGIN');
    for (const op of this.log) await op(this.sql);
    return this.sql;
  }

  private async abandon(): Promise<void> {
    const client = this.client;
    this.client = null;
    this.onAbandon();
    if (!client) return;
    let broken = false;
    await client.query('ROLLBACK').catch(() => {
      broken = true;
    });
    this.unguard();
    client.release(broken);
  }
}
