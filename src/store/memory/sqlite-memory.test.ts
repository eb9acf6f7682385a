import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { defaultDbPath } from '../open.js';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers.js';
import { InMemoryAgentMemory } from '../../runtime/memory/in-memory.js';
import { bindMemory, type AgentMemory } from '../../runtime/memory/memory.js';
import { memoryDbPathFor, memoryMatchExpression, SqliteAgentMemory } from './sqlite-memory.js';

const opened: AgentMemory[] = [];
afterEach(async () => {
  for (const m of opened.splice(0)) await m.close?.();
});

const implementations: [string, () => AgentMemory][] = [
  [
    'SqliteAgentMemory',
    () => {
      const m = SqliteAgentMemory.open(join(tempDir('hs-mem-'), 'sub', 'memory.db'));
      opened.push(m);
      return m;
    },
  ],
  ['InMemoryAgentMemory', () => new InMemoryAgentMemory()],
];

describe.each(implementations)('%s', (_name, make) => {
  it('saves and finds by words in content and tags, best match first', async () => {
    const memory = make();
    const a = await memory.save('s1', 'The build needs npm ci before tests', ['build']);
    const b = await memory.save('s1', 'Tests run with TZ=UTC; the build is slow', ['Testing', ' testing ', '']);
    await memory.save('s1', 'Unrelated note about coffee', []);
    const hits = await memory.search('tests build', 10);
    expect(hits.map((h) => h.id).sort()).toEqual([a.id, b.id].sort());
    expect(hits.find((h) => h.id === b.id)).toMatchObject({ sessionId: 's1', tags: ['testing'], content: 'Tests run with TZ=UTC; the build is slow' });
    expect(hits[0]!.score).toBeGreaterThanOrEqual(hits[1]!.score);
    expect((await memory.search('testing', 10)).map((h) => h.id)).toEqual([b.id]);
    expect(hits[0]!.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('treats any text as words, never as query syntax', async () => {
    const memory = make();
    const id = (await memory.save('s1', 'Use a AND b carefully (really) "quoted" café 日本語 NEAR', [])).id;
    for (const q of ['a AND (', '"', '""', '"unterminated', 'NEAR(a b', '*', 'content:x', '^a', 'a OR', ')(', "it's", '-a', 'NOT', '\u0000']) {
      await expect(memory.search(q, 5)).resolves.toBeInstanceOf(Array);
    }
    expect((await memory.search('a AND (', 5)).map((h) => h.id)).toEqual([id]);
    expect((await memory.search('"quoted', 5)).map((h) => h.id)).toEqual([id]);
    expect((await memory.search('CAFE', 5)).map((h) => h.id)).toEqual([id]);
    expect((await memory.search('日本語', 5)).map((h) => h.id)).toEqual([id]);
    expect(await memory.search('zzz', 5)).toEqual([]);
  });

  it('lists the newest memories for an empty or punctuation-only query, and honours the limit', async () => {
    const memory = make();
    await memory.save('s1', 'first', []);
    await memory.save('s1', 'second', []);
    const third = await memory.save('s1', 'third', []);
    expect((await memory.search('', 2)).map((h) => h.content)).toEqual(['third', 'second']);
    expect((await memory.search('  ( " ', 1)).map((h) => h.id)).toEqual([third.id]);
    expect(await memory.search('first', 0)).toEqual([]);
  });

  it('scopes a session to its own memories plus what it inherited, transitively', async () => {
    const memory = make();
    await memory.save('parent', 'parent knows the deploy key location', ['deploy']);
    await memory.save('other', 'other session deploy notes', []);
    const child = bindMemory(memory, 'child');
    expect(await child.search('deploy', 10)).toEqual([]);
    await memory.inherit('parent', 'child');
    await memory.inherit('child', 'grandchild');
    await memory.inherit('grandchild', 'parent'); // a cycle must not loop
    expect((await child.search('deploy', 10)).map((h) => h.sessionId)).toEqual(['parent']);
    await child.save('child learnt deploy order', []);
    expect((await memory.search('deploy', 10, { sessionId: 'grandchild' })).map((h) => h.sessionId).sort()).toEqual(['child', 'parent']);
    // The parent does not see the child's notes unless the link goes that way (here it does, through the cycle).
    expect((await memory.search('deploy', 10, { sessionId: 'other' })).map((h) => h.sessionId)).toEqual(['other']);
    expect((await memory.search('deploy', 10)).length).toBe(3);
  });
});

describe('SqliteAgentMemory file', () => {
  it('keeps memories across reopen', async () => {
    const path = join(tempDir('hs-mem-'), 'memory.db');
    const first = SqliteAgentMemory.open(path);
    await first.save('s1', 'persisted note', ['x']);
    await first.inherit('s1', 's2');
    await first.close();
    const second = SqliteAgentMemory.open(path);
    opened.push(second);
    expect((await second.search('persisted', 5, { sessionId: 's2' })).map((h) => h.content)).toEqual(['persisted note']);
    expect(existsSync(path)).toBe(true);
  });

  it('lives beside a SQLite store, and in the data folder for a PostgreSQL one', () => {
    expect(memoryDbPathFor('/data/stores/h.db')).toBe('/data/stores/memory.db');
    expect(memoryDbPathFor('postgres://me@db/hindsight', { XDG_DATA_HOME: '/x/data' })).toBe(join(dirname(defaultDbPath({ XDG_DATA_HOME: '/x/data' })), 'memory.db'));
    expect(memoryDbPathFor('postgres://me@db/hindsight', { XDG_DATA_HOME: '/x/data' }).startsWith('/x/data/')).toBe(true);
  });

  it('quotes every word of a query', () => {
    expect(memoryMatchExpression('a AND ("b"')).toBe('"a" OR "and" OR "b"');
    expect(memoryMatchExpression('(( ))')).toBeNull();
  });
});
