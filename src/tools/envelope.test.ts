import { describe, expect, it } from 'vitest';
import { fitMaxBytes, page } from './envelope.js';

describe('fitMaxBytes', () => {
  const items = Array.from({ length: 40 }, (_, i) => ({ n: i, text: 'x'.repeat(i * 7) }));
  const body = { ...page(100, 40, 20, items.length), items };
  const finish = (b: typeof body) => ({ ...b, next_line: b.next_offset === null ? null : b.next_offset + 1 });

  it('returns the whole body untouched when it fits', () => {
    const r = fitMaxBytes(body, 'items', 1_000_000, finish);
    expect(r.items).toHaveLength(40);
    expect(r.truncated).toBeUndefined();
    expect(r.next_line).toBe(61);
  });

  it('never exceeds max_bytes, counts what it kept, and points at the next item', () => {
    const envelope = Buffer.byteLength(JSON.stringify({ status: 'ok', ...finish({ ...body, items: [] }), truncated: true }));
    const whole = Buffer.byteLength(JSON.stringify({ status: 'ok', ...finish(body) }));
    for (let max = envelope; max < whole; max += 97) {
      const r = fitMaxBytes(body, 'items', max, finish);
      expect(Buffer.byteLength(JSON.stringify({ status: 'ok', ...r }))).toBeLessThanOrEqual(max);
      expect(r.truncated).toBe(true);
      expect(r.returned).toBe(r.items.length);
      expect(r.next_offset).toBe(20 + r.items.length);
      expect(r.next_line).toBe(21 + r.items.length);
      expect(r.has_more).toBe(true);
    }
  });

  it('returns zero rows with truncated when not even one row fits', () => {
    const r = fitMaxBytes({ ...page(1, 10, 0, 1), items: ['y'.repeat(5000)] }, 'items', 300);
    expect(r).toMatchObject({ items: [], returned: 0, truncated: true, has_more: true, next_offset: 0 });
  });
});
