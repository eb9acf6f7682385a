// The turn gate lets one caller through per event-loop turn, in arrival order.

import { describe, expect, it } from 'vitest';
import { turnTaker } from './turns.js';

describe('turnTaker', () => {
  it('resolves callers in arrival order, each in its own turn', async () => {
    const take = turnTaker();
    const log: string[] = [];
    let turn = 0;
    // A counter bumped once per turn (each check phase), to see which turn each caller ran in.
    const bump = () => {
      turn++;
      if (turn < 20) setImmediate(bump);
    };
    setImmediate(bump);
    await Promise.all(
      ['a', 'b', 'c', 'd'].map((name) =>
        take().then(() => {
          log.push(`${name}@${turn}`);
        }),
      ),
    );
    expect(log.map((l) => l.split('@')[0])).toEqual(['a', 'b', 'c', 'd']);
    const turns = log.map((l) => Number(l.split('@')[1]));
    expect(new Set(turns).size).toBe(4);
  });

  it('lets a caller through again after the queue emptied', async () => {
    const take = turnTaker();
    const passed: number[] = [];
    await take().then(() => passed.push(1));
    await take().then(() => passed.push(2));
    await Promise.all([take().then(() => passed.push(3)), take().then(() => passed.push(4))]);
    expect(passed).toEqual([1, 2, 3, 4]);
  });
});
