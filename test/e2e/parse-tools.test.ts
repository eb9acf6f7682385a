// The built `hindsight parse-tools` on a file, on stdin and with --deltas; exit codes.

import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, runCli, tempDir } from '../helpers.js';

describe('hindsight parse-tools (built CLI)', () => {
  const dir = tempDir('hs-e2e-parse-');
  const file = join(dir, 'out.txt');
  writeFileSync(file, 'Sure.<tool_call>{"name": "f", "arguments": {"x": 1}}</tool_call>');

  it('parses a FILE and prints the result shape', () => {
    const res = runCli(['parse-tools', '--parser', 'hermes', file]);
    expect(res.status).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual({ calls: [{ name: 'f', arguments: { x: 1 } }], content: 'Sure.', reasoning: null, parse_errors: [] });
  });

  it('reads stdin, and --deltas as a JSON array', () => {
    const stdin = spawnSync(process.execPath, [BIN, 'parse-tools', '--parser', 'pythonic', '-'], { input: "[f(a='x')]", encoding: 'utf8' });
    expect(JSON.parse(stdin.stdout).calls).toEqual([{ name: 'f', arguments: { a: 'x' } }]);
    const deltas = spawnSync(process.execPath, [BIN, 'parse-tools', '--parser', 'hermes', '--deltas'], { input: JSON.stringify(['<tool_', 'call>{"name": "g", "arguments": {}}</tool_call>']), encoding: 'utf8' });
    expect(JSON.parse(deltas.stdout).calls).toEqual([{ name: 'g', arguments: {} }]);
  });

  it('exits 1 naming the valid parsers for an unknown one, 2 without --parser', () => {
    const unknown = runCli(['parse-tools', '--parser', 'nope', file]);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toMatch(/Unknown parser "nope". Valid parsers: .*hermes/);
    const missing = runCli(['parse-tools', file]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('--parser ID');
  });
});
