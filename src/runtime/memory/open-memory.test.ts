import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers.js';
import { InMemoryAgentMemory } from './in-memory.js';
import type { AgentMemory } from './memory.js';
import { openAgentMemory } from './open-memory.js';

const opened: AgentMemory[] = [];
afterEach(async () => {
  for (const m of opened.splice(0)) await m.close?.();
});

describe('openAgentMemory', () => {
  it('opens memory.db beside the store, and falls back to this run only when it cannot', async () => {
    const dir = tempDir('hs-mem-');
    const opened1 = await openAgentMemory(join(dir, 'h.db'));
    opened.push(opened1.memory);
    expect(opened1).toMatchObject({ path: join(dir, 'memory.db') });
    expect(opened1.warning).toBeUndefined();
    await opened1.memory.save('s', 'kept', []);
    expect(existsSync(join(dir, 'memory.db'))).toBe(true);

    writeFileSync(join(dir, 'not-a-folder'), 'x');
    const fallback = await openAgentMemory(join(dir, 'not-a-folder', 'h.db'));
    expect(fallback.path).toBeNull();
    expect(fallback.warning).toMatch(/^Memory is kept for this run only: /);
    expect(fallback.memory).toBeInstanceOf(InMemoryAgentMemory);
  });
});
