// The memory a run uses: memory.db beside the store (src/store/memory/sqlite-memory.ts), or, when
// that file cannot be opened, memory kept in the process for this run only, with one sentence
// saying so. The runtime never stops for want of memory.

import { InMemoryAgentMemory } from './in-memory.js';
import type { AgentMemory } from './memory.js';

export interface OpenedMemory {
  memory: AgentMemory;
  /** Where it lives; null for the in-process fallback. */
  path: string | null;
  /** Why the fallback was taken (show it once). */
  warning?: string;
}

/**
 * @example const { memory, warning } = await openAgentMemory('/data/hindsight.db'); // memory.db in /data
 */
export async function openAgentMemory(storeLocation: string, env: NodeJS.ProcessEnv = process.env): Promise<OpenedMemory> {
  // Loaded on first use: better-sqlite3 is not paid for by commands that never open memory.
  const { memoryDbPathFor, SqliteAgentMemory } = await import('../../store/memory/sqlite-memory.js');
  const path = memoryDbPathFor(storeLocation, env);
  try {
    return { memory: SqliteAgentMemory.open(path), path };
  } catch (err) {
    return {
      memory: new InMemoryAgentMemory(),
      path: null,
      warning: `Memory is kept for this run only: ${(err as Error).message}`,
    };
  }
}
