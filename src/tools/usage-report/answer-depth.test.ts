// usage_report declares how deep its answers nest (answerDepth), so runTool leaves out the depth
// guard's walk over them: its deepest answers — model breakdowns of blocks and periods, sessions'
// sub-agents — stay within the declaration, and the declaration is not looser than they need.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { jsonDepth } from '../../core/json-depth.js';
import { fixtureStore, type TestStore } from '../../surfaces/http/test-store.js';
import { runTool } from '../tool.js';
import { usageReport } from './index.js';

let fx: TestStore;
beforeAll(async () => {
  fx = await fixtureStore();
});
afterAll(async () => {
  await fx.store.close();
});

it('answers no deeper than its answerDepth, which its deepest answers reach', async () => {
  const deepest = [
    { group_by: 'blocks', breakdown: true, now: '2026-06-01T00:00:00Z' },
    { group_by: 'blocks', breakdown: true, active: true, now: '2026-06-01T00:00:00Z' },
    { group_by: 'session', breakdown: true },
    { group_by: 'daily', breakdown: true },
    { group_by: 'project', breakdown: true },
  ];
  const depths: number[] = [];
  for (const args of deepest) {
    const answer = await runTool(usageReport, { ...args, limit: 500 }, { store: fx.store });
    expect(answer.status, JSON.stringify(args)).toBe('ok');
    depths.push(jsonDepth(answer));
  }
  expect(usageReport.answerDepth).toBe(Math.max(...depths));
});
