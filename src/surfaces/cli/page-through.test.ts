// The CLI prints a report whole by asking the tool page after page: the pages take the largest byte
// cap unless one was asked for (the cap is for agents' context), and the joined envelope is the
// same whatever the pages were.

import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { fitMaxBytes, MAX_BYTES_LIMIT, page } from '../../tools/envelope.js';
import type { AnyTool } from '../../tools/tool.js';
import { pageThrough } from './page-through.js';

/** A list tool of `n` rows of ~1 KB each, paged and cut to max_bytes as the tools do; it records each call's arguments. */
function listTool(n: number, defaultMaxBytes: number): { tool: AnyTool; calls: Record<string, unknown>[] } {
  const calls: Record<string, unknown>[] = [];
  const input = z.object({ offset: z.number().default(0), limit: z.number().default(100), max_bytes: z.number().default(defaultMaxBytes) }).strict();
  const rows = Array.from({ length: n }, (_, i) => ({ i, text: 'x'.repeat(1000) }));
  const tool = {
    name: 'fake_list',
    input,
    handler: async (args: z.infer<typeof input>) => {
      calls.push(args);
      const body = { ...page(n, args.limit, args.offset, Math.min(args.limit, n - args.offset)), total_text: 'computed over every row', rows: rows.slice(args.offset, args.offset + args.limit) };
      return fitMaxBytes(body, 'rows', args.max_bytes);
    },
  } as unknown as AnyTool;
  return { tool, calls };
}

describe('a report printed whole, page by page', () => {
  it('asks for the largest byte cap when none was given: 300 rows of 1 KB in one page, not three', async () => {
    const { tool, calls } = listTool(300, 100_000);
    const joined = (await pageThrough(tool, {}, 'rows', {}, {} as never)) as Record<string, unknown>;
    expect(calls.map((c) => c.max_bytes)).toEqual([MAX_BYTES_LIMIT]);
    expect((joined.rows as unknown[]).length).toBe(300);
    expect(joined).toMatchObject({ count: 300, returned: 300, offset: 0, has_more: false, next_offset: null, total_text: 'computed over every row' });
    expect(joined.truncated).toBeUndefined();
  });

  it('keeps a cap that was asked for, and joins the pages into the same envelope', async () => {
    const whole = (await pageThrough(listTool(300, 100_000).tool, {}, 'rows', {}, {} as never)) as Record<string, unknown>;
    const { tool, calls } = listTool(300, 100_000);
    const paged = (await pageThrough(tool, { max_bytes: 60_000 }, 'rows', {}, {} as never)) as Record<string, unknown>;
    expect(calls.length).toBeGreaterThan(4);
    expect(calls.every((c) => c.max_bytes === 60_000)).toBe(true);
    expect(paged).toEqual(whole);
  });
});
