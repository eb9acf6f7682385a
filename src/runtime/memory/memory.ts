// The agent's long-term notes: save_memory writes one, search_memory finds them again, and a
// handoff child inherits its parent's so the fresh context window starts with what was learnt.
// Two implementations: SQLite FTS5 (src/store/memory/sqlite-memory.ts, the real one) and an
// in-memory one for tests (in-memory.ts). The record shape lives in store/memory/memory-record.ts
// because the store layer sits below the runtime and the SQLite memory must not import upwards.

import type { MemoryHit, MemorySearchOptions } from '../../store/memory/memory-record.js';

export type { MemoryHit, MemorySearchOptions };
export { normaliseTags, queryWords } from '../../store/memory/memory-record.js';

export interface AgentMemory {
  save(sessionId: string, content: string, tags: readonly string[]): Promise<{ id: number }>;
  /**
   * The best matches for `query`, best first (ties: the newer first). Any text is a valid query:
   * it is read as words, never as a query language. An empty query lists the newest memories.
   */
  search(query: string, limit: number, options?: MemorySearchOptions): Promise<MemoryHit[]>;
  /** From now on `toSessionId` also sees every memory `fromSessionId` sees (its own and inherited ones). */
  inherit(fromSessionId: string, toSessionId: string): Promise<void>;
  close?(): Promise<void>;
}

/** One session's view of the memory: what the save_memory and search_memory handlers are given. */
export interface SessionMemory {
  readonly sessionId: string;
  save(content: string, tags: readonly string[]): Promise<{ id: number }>;
  search(query: string, limit: number): Promise<MemoryHit[]>;
}

/**
 * @example
 * const mine = bindMemory(memory, 'run-1');
 * await mine.save('The tests need TZ=UTC', ['testing']);
 * await mine.search('TZ', 5); // finds it, and whatever run-1 inherited
 */
export function bindMemory(memory: AgentMemory, sessionId: string): SessionMemory {
  return {
    sessionId,
    save: (content, tags) => memory.save(sessionId, content, tags),
    search: (query, limit) => memory.search(query, limit, { sessionId }),
  };
}
