// Query strings become tool arguments by the types of the tool's own JSON Schema.

import { describe, expect, it } from 'vitest';
import { queryToArgs, type ObjectSchema } from './query-args.js';
import { inputSchema } from './tool-schemas.js';

const schema: ObjectSchema = {
  properties: {
    limit: { type: 'integer' },
    ratio: { type: 'number' },
    flag: { type: 'boolean' },
    name: { type: 'string' },
    tags: { type: 'array', items: { type: 'string' } },
    ids: { type: 'array', items: { type: 'integer' } },
    either: { anyOf: [{ type: 'integer' }, { type: 'string' }] },
  },
};

const convert = (query: string, aliases = {}) => queryToArgs(new URLSearchParams(query), schema, aliases);

describe('queryToArgs', () => {
  it('converts numbers, booleans and arrays by the declared type', () => {
    expect(convert('limit=5&ratio=0.5&flag=false&name=42&tags=a,b&tags=c&ids=1,2&either=7')).toEqual({
      limit: 5,
      ratio: 0.5,
      flag: false,
      name: '42',
      tags: ['a', 'b', 'c'],
      ids: [1, 2],
      either: 7,
    });
    expect(convert('flag')).toEqual({ flag: true });
    expect(convert('flag=1')).toEqual({ flag: true });
  });

  it('leaves what does not convert as a string, for the tool to reject', () => {
    expect(convert('limit=lots&flag=maybe&limit=')).toEqual({ limit: '', flag: 'maybe' });
    expect(convert('limit=abc')).toEqual({ limit: 'abc' });
    expect(convert('unknown=1')).toEqual({ unknown: '1' });
  });

  it('takes the last of repeated scalars and renames aliases', () => {
    expect(convert('limit=1&limit=2')).toEqual({ limit: 2 });
    expect(convert('q=hello', { q: 'name' })).toEqual({ name: 'hello' });
  });

  it('reads the real registry schemas', () => {
    expect(queryToArgs(new URLSearchParams('limit=3&top_level_only=false'), inputSchema('list_sessions'))).toEqual({
      limit: 3,
      top_level_only: false,
    });
    expect(queryToArgs(new URLSearchParams('event_types=A,B'), inputSchema('get_events'))).toEqual({ event_types: ['A', 'B'] });
  });
});
