// Issue 14 item 9, "one count everywhere": `show` and `inspect --metrics --session` describe the same
// session on the Claude Code fixtures. inspect's figures include the sub-agents (as tokens and cost
// do everywhere); show's tool list is the session's own. Each says which it counts, the own figure
// appears in both, and both round the duration the same way.

import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, runCli, tempDir } from '../helpers.js';

const db = join(tempDir('hs-one-count-'), 'h.db');
const SPOTTER = '8463c716-a2ea-4c14-9efa-87158ebd9f20';

beforeAll(() => {
  expect(runCli(['ingest', join(FIXTURES, 'claude-code'), '--db', db]).status).toBe(0);
});

describe('show and inspect --metrics agree on one session', () => {
  it('tool calls: show counts the session itself, inspect adds the sub-agents and says how many are its own', () => {
    const show = runCli(['show', SPOTTER.slice(0, 8), '--db', db, '--no-color']);
    expect(show.status, show.stderr).toBe(0);
    expect(show.stdout).toContain('Tools (177 calls in this session, sub-agents not included):');
    expect(show.stdout).toContain('over 157 LLM calls with sub-agents (143 in this session)');
    const inspect = runCli(['inspect', '--metrics', '--session', SPOTTER, '--db', db, '--no-color']);
    expect(inspect.status, inspect.stderr).toBe(0);
    expect(inspect.stdout).toContain(
      '1 turn, 157 steps, 196 tool calls (15 failed), 11 files changed, 2 sub-agents included (the session itself: 143 steps, 177 tool calls)',
    );
    // The JSON behind both: own + sub-agents = the family figure inspect prints.
    const own = JSON.parse(runCli(['show', SPOTTER, '--json', '--db', db]).stdout).diagnostics.tools.total_calls;
    const metrics = JSON.parse(runCli(['inspect', '--metrics', '--session', SPOTTER, '--json', '--db', db]).stdout);
    const children = (metrics.subagents as { tool_calls: number }[]).reduce((n, c) => n + c.tool_calls, 0);
    expect(own + children).toBe(metrics.session.tool_calls);
  });

  it('duration: 1:12:49.7 reads 1 hour 13 minutes in show and 1h13m in inspect (both round to the minute)', () => {
    const show = runCli(['show', SPOTTER, '--db', db, '--no-color']).stdout;
    expect(show).toContain('(1 hour 13 minutes), 1 turn,');
    const inspect = runCli(['inspect', '--metrics', '--session', SPOTTER, '--db', db, '--no-color']).stdout;
    expect(inspect).toMatch(/ \(1h13m\) {2}model /);
    expect(inspect).not.toContain('1h12m');
  });
});
