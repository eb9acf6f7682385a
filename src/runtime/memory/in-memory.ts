// AgentMemory in a process's memory, for tests and for runs without a data folder. Scoring is a
// plain count of matching query words (the SQLite one ranks by bm25); scoping and inheritance
// follow the same rules.

import { normaliseTags, queryWords, type AgentMemory, type MemoryHit, type MemorySearchOptions } from './memory.js';

interface Row {
  id: number;
  sessionId: string;
  content: string;
  tags: string[];
  createdAt: string;
  words: Set<string>;
}

export class InMemoryAgentMemory implements AgentMemory {
  private readonly rows: Row[] = [];
  /** child → the sessions it inherits from directly. */
  private readonly parents = new Map<string, Set<string>>();

  constructor(private readonly now: () => Date = () => new Date()) {}

  async save(sessionId: string, content: string, tags: readonly string[]): Promise<{ id: number }> {
    const kept = normaliseTags(tags);
    const id = this.rows.length + 1;
    this.rows.push({ id, sessionId, content, tags: kept, createdAt: this.now().toISOString(), words: new Set(queryWords(`${content} ${kept.join(' ')}`)) });
    return { id };
  }

  async inherit(fromSessionId: string, toSessionId: string): Promise<void> {
    if (fromSessionId === toSessionId) return;
    const set = this.parents.get(toSessionId) ?? new Set<string>();
    set.add(fromSessionId);
    this.parents.set(toSessionId, set);
  }

  /** The session and every session it inherits from, transitively (cycles are harmless). */
  private visible(sessionId: string): Set<string> {
    const seen = new Set<string>([sessionId]);
    const queue = [sessionId];
    while (queue.length) {
      for (const parent of this.parents.get(queue.pop()!) ?? []) {
        if (!seen.has(parent)) {
          seen.add(parent);
          queue.push(parent);
        }
      }
    }
    return seen;
  }

  async search(query: string, limit: number, options: MemorySearchOptions = {}): Promise<MemoryHit[]> {
    const scope = options.sessionId === undefined ? undefined : this.visible(options.sessionId);
    const words = queryWords(query);
    const hits: MemoryHit[] = [];
    for (const row of this.rows) {
      if (scope && !scope.has(row.sessionId)) continue;
      const score = words.filter((w) => row.words.has(w)).length;
      if (words.length > 0 && score === 0) continue;
      hits.push({ id: row.id, sessionId: row.sessionId, content: row.content, tags: row.tags, createdAt: row.createdAt, score });
    }
    return hits.sort((a, b) => b.score - a.score || b.id - a.id).slice(0, Math.max(0, limit));
  }
}
