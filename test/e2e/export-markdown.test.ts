// `hindsight export ID --as markdown --out F` end to end on the real Claude Code fixture
// session 8463c716: a readable transcript (no empty assistant blocks, each parallel call's result
// under its own call, terminal escapes gone, thinking folded, hooks out) and a CLI that says what
// it wrote.

import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, runCli, tempDir } from '../helpers.js';

const dir = tempDir('hs-export-md-');
const db = join(dir, 'h.db');
const PARENT = '8463c716-a2ea-4c14-9efa-87158ebd9f20';
let md = '';
let stdout = '';
const out = join(dir, 'session.md');

beforeAll(() => {
  expect(runCli(['ingest', join(FIXTURES, 'claude-code'), '--db', db]).status).toBe(0);
  // An id prefix, as a person would type it.
  const res = runCli(['export', PARENT.slice(0, 8), '--as', 'markdown', '--out', out, '--db', db]);
  expect(res.stderr).toBe('');
  expect(res.status).toBe(0);
  stdout = res.stdout;
  md = readFileSync(out, 'utf8');
});

describe('hindsight export --as markdown', () => {
  it('--out says which file it wrote and how many bytes', () => {
    const bytes = statSync(out).size;
    expect(stdout.trim()).toBe(`Wrote ${out} (${bytes.toLocaleString('en-US')} bytes, ${(md.split('\n').length - 1).toLocaleString('en-US')} lines, markdown)`);
  });

  it('never writes an empty **Assistant** block', () => {
    const lines = md.split('\n');
    const heads = lines.flatMap((l, i) => (/^(> )?\*\*Assistant\*\*/.test(l) ? [i] : []));
    expect(heads.length).toBeGreaterThan(10);
    for (const i of heads) expect(lines[i + 2]?.replace(/^>\s?/, '').trim(), `text after line ${i + 1}`).not.toBe('');
  });

  it('puts each parallel call result under its own call (matched by call id)', () => {
    // The session opens with three Bash calls sent together; their results came after all three.
    expect(md).toContain(
      [
        '- tool `Bash` command=bd show spotter-fum',
        '  - → success: size 3460, exit 0',
        '- tool `Bash` command=bd ready',
        '  - → success: size 616, exit 0',
        '- tool `Bash` command=bd show spotter-fum.1',
        '  - → success: size 3289, exit 0',
      ].join('\n'),
    );
    // No result ever follows another result: each sits under a call.
    expect(md).not.toMatch(/^(> )?  - → .*\n(> )?  - → /m);
  });

  it('strips terminal escapes (session 55604662 has ANSI bold in a /model command output)', () => {
    expect(md).not.toContain('\u001b');
    const other = runCli(['export', '55604662', '--as', 'markdown', '--db', db]);
    expect(other.status).toBe(0);
    expect(other.stdout).toContain('Kept model as Default (recommended)');
    expect(other.stdout).not.toContain('\u001b');
  });

  it('folds thinking into <details> blocks and leaves hooks out', () => {
    expect(md).toMatch(/<details>\n<summary>Thinking \(\d+ chars\)<\/summary>\n\nLet me start by looking at the bead details/);
    expect(md).not.toMatch(/PreToolUse|hook_progress/);
  });

  it('writes the same document to stdout without --out', () => {
    const res = runCli(['export', PARENT, '--as', 'markdown', '--db', db]);
    expect(res.status).toBe(0);
    expect(res.stdout).toBe(md);
  });
});
