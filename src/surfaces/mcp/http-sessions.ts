// The MCP sessions of the Streamable HTTP server: one MCP server and transport per client,
// created at its initialize and reused for every later call that carries its Mcp-Session-Id, so
// a call costs the tool and the HTTP exchange, not a new server, transport and handshake.
// A session belongs to the principal that opened it (a request of another principal does not
// find it); sessions idle longer than the idle limit are closed, and so is the least recently
// used one when the table is full.

import { randomUUID } from 'node:crypto';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Principal } from '../access/principal.js';
import { JsonHttpTransport } from './json-http-transport.js';

/** A session unused this long is closed (its client re-initializes on the 404 it then gets). */
export const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;
/** Open sessions at most; opening one more closes the least recently used. */
export const DEFAULT_MAX_SESSIONS = 1000;

export interface SessionTableOptions {
  idleMs?: number;
  maxSessions?: number;
}

interface Session {
  transport: JsonHttpTransport;
  server: Server;
  owner: string;
  lastUsed: number;
}

/** Who may use a session: the same kind of principal with the same token and rights. */
export function ownerOf(principal: Principal): string {
  return JSON.stringify(principal);
}

/**
 * The open sessions of one HTTP server.
 *
 * @example
 * const table = new SessionTable();
 * const transport = await table.open(principal, () => buildServer({ store, principal }));
 * transport.handlePost(req, res, body); // answers initialize with an Mcp-Session-Id
 */
export class SessionTable {
  private readonly sessions = new Map<string, Session>();
  private readonly idleMs: number;
  private readonly maxSessions: number;
  private readonly sweeper: NodeJS.Timeout;

  constructor(options: SessionTableOptions = {}) {
    this.idleMs = options.idleMs ?? DEFAULT_SESSION_IDLE_MS;
    this.maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
    // Unref'd: an idle server's sweep never keeps the process alive.
    this.sweeper = setInterval(() => this.sweep(), Math.max(10, Math.min(60_000, this.idleMs / 2)));
    this.sweeper.unref();
  }

  get size(): number {
    return this.sessions.size;
  }

  /**
   * A new session's transport, connected to `makeServer()`'s server. It joins the table when the
   * transport has answered the initialize request (that is when its id exists).
   */
  async open(principal: Principal, makeServer: () => Server): Promise<JsonHttpTransport> {
    const server = makeServer();
    const owner = ownerOf(principal);
    const transport: JsonHttpTransport = new JsonHttpTransport({
      sessionId: randomUUID(),
      onsessioninitialized: (id) => {
        this.sessions.set(id, { transport, server, owner, lastUsed: Date.now() });
        this.evictOverflow();
      },
      onsessionclosed: (id) => void this.close(id),
    });
    await server.connect(transport);
    return transport;
  }

  /** The transport of session `id` for `principal`, or null (unknown, expired or someone else's). */
  find(id: string, principal: Principal): JsonHttpTransport | null {
    const s = this.sessions.get(id);
    if (!s || s.owner !== ownerOf(principal)) return null;
    s.lastUsed = Date.now();
    // Re-inserted: Map order is the recency order eviction reads.
    this.sessions.delete(id);
    this.sessions.set(id, s);
    return s.transport;
  }

  async close(id: string): Promise<void> {
    const s = this.sessions.get(id);
    if (!s) return;
    this.sessions.delete(id);
    await s.transport.close();
    await s.server.close();
  }

  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all([...this.sessions.keys()].map((id) => this.close(id)));
  }

  private sweep(): void {
    const cutoff = Date.now() - this.idleMs;
    for (const [id, s] of this.sessions) if (s.lastUsed < cutoff) void this.close(id);
  }

  private evictOverflow(): void {
    while (this.sessions.size > this.maxSessions) void this.close(this.sessions.keys().next().value!);
  }
}
