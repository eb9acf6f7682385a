// Issue 14 items 2 and 4 through the built CLI: the timeline reads as a conversation (text shown
// whole, tool calls with a result line, thinking folded, hooks hidden and counted, --kind filters)
// and search understands its query language (words, "phrases", prefix*, OR) and echoes it.

import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, runCli, tempDir } from '../helpers.js';

const db = join(tempDir('hs-conversation-'), 'h.db');
const SESSION = 'd6e0bada-1959-4eec-a9d2-0bfade768d8f'; // 39 events: prompts, Bash calls, hooks, thinking

beforeAll(() => {
  expect(runCli(['ingest', join(FIXTURES, 'claude-code'), '--db', db]).status).toBe(0);
});

describe('hindsight timeline as a conversation', () => {
  it('prints what the user and the assistant said, tool calls with their argument and result, and hides hooks', () => {
    const res = runCli(['timeline', SESSION, '--db', db]);
    expect(res.status).toBe(0);
    // The words, not "User message (27 chars)".
    expect(res.stdout).toContain('start phoenix in background');
    expect(res.stdout).not.toMatch(/User message \(\d+ chars\)/);
    expect(res.stdout).toContain('scrolling back in xterm.js still does not work (maybe because outer web catches it)? websearch xterm.js tmux interactions');
    expect(res.stdout).toContain('▸ Bash: mix phx.server');
    expect(res.stdout).toMatch(/↳ ok: Command running in background with ID: bae407b/);
    expect(res.stdout).toMatch(/\(thinking, 155 chars; --full unfolds it\)/);
    expect(res.stdout).not.toContain('hook PreToolUse');
    expect(res.stdout).toMatch(/of 29 events; 10 hook events hidden/);
  });

  it('--kind filters by kind (hook shows hooks only; all shows every event); a bad kind is a usage error', () => {
    const hooks = runCli(['timeline', SESSION, '--kind', 'hook', '--db', db]);
    expect(hooks.status).toBe(0);
    expect(hooks.stdout).toContain('hook PreToolUse:Bash');
    expect(hooks.stdout).not.toContain('start phoenix in background');
    expect(hooks.stdout).toMatch(/10 of 10 events; 29 events of other kinds hidden/);
    const said = JSON.parse(runCli(['timeline', SESSION, '--kind', 'user,assistant', '--json', '--db', db]).stdout);
    expect(new Set(said.timeline.map((r: { view_kind: string }) => r.view_kind))).toEqual(new Set(['user', 'assistant']));
    expect(said.event_count).toBe(39);
    const all = JSON.parse(runCli(['timeline', SESSION, '--kind', 'all', '--json', '--limit', '100', '--db', db]).stdout);
    expect(all.count).toBe(39);
    const bad = runCli(['timeline', SESSION, '--kind', 'tools', '--db', db]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--kind takes a comma-separated list of user, assistant, thinking, tool, hook');
  });

  it('--full unfolds thinking and shows tool output', () => {
    const res = runCli(['timeline', SESSION, '--full', '--db', db]);
    expect(res.status).toBe(0);
    expect(res.stdout).toMatch(/thinking:\n {2}│ /);
    expect(res.stdout).toContain('Parameters: %{"vsn" => "2.0.0"}');
  });
});

describe('hindsight search query language', () => {
  it('echoes the query as understood; words AND, OR between alternatives, phrases and prefixes', () => {
    const and = runCli(['search', 'phoenix', '"background"', 'xterm*', '--db', db]);
    expect(and.status).toBe(0);
    expect(and.stdout).toContain('Searched for: phoenix AND "background" AND xterm*');
    const or = runCli(['search', 'phoenix', 'OR', 'xterm*', '--json', '--db', db]);
    const body = JSON.parse(or.stdout);
    expect(body.understood).toBe('phoenix OR xterm*');
    const phoenix = JSON.parse(runCli(['search', 'phoenix', '--json', '--limit', '500', '--db', db]).stdout);
    const xterm = JSON.parse(runCli(['search', 'xterm*', '--json', '--limit', '500', '--db', db]).stdout);
    expect(body.count).toBeGreaterThanOrEqual(Math.max(phoenix.count, xterm.count));
    expect(body.count).toBeLessThanOrEqual(phoenix.count + xterm.count);
    const none = runCli(['search', 'zzzqqq', '--db', db]);
    expect(none.stdout).toContain('Searched for: zzzqqq');
    expect(none.stdout).toContain('No matches.');
  });

  it('--project matches a substring of the project', () => {
    const all = JSON.parse(runCli(['search', 'phoenix', '--json', '--limit', '500', '--db', db]).stdout);
    const some = JSON.parse(runCli(['search', 'phoenix', '--project', 'spotter', '--json', '--limit', '500', '--db', db]).stdout);
    expect(some.count).toBeGreaterThan(0);
    expect(some.matches.every((m: { project: string }) => m.project.includes('spotter'))).toBe(true);
    expect(all.count).toBeGreaterThanOrEqual(some.count);
  });
});
