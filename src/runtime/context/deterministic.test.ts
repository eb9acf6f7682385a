import { describe, expect, it } from 'vitest';
import {
  applyDeterministicCompaction,
  collapseWhitespace,
  compactToolOutput,
  DETERMINISTIC_TECHNIQUES,
  dedupRepeatedPatterns,
  stripAnsiCodes,
  stripDuplicateLines,
  stripStackTraces,
} from './deterministic.js';
import { ask, call, result, sys, user } from './test-conversations.js';

describe('stripAnsiCodes', () => {
  it('removes colours, cursor moves, titles and other control characters, keeping tabs and newlines', () => {
    expect(stripAnsiCodes('\u001b[1;31merror\u001b[0m: \u001b]0;title\u0007bad\tthing\n\u001b[2Kdone')).toBe('error: bad\tthing\ndone');
  });

  it('keeps only what a progress line showed last, and turns CRLF into LF', () => {
    expect(stripAnsiCodes('10%\r50%\r100%\r\nnext\r\n')).toBe('100%\nnext\n');
  });

  it('returns the same string when there is nothing to strip', () => {
    const text = 'plain output\nwith lines';
    expect(stripAnsiCodes(text)).toBe(text);
  });
});

describe('stripStackTraces', () => {
  const trace = [
    'TypeError: x is not a function',
    '    at run (/app/src/run.ts:10:5)',
    '    at Module._compile (/app/node_modules/tsx/dist/index.js:1:100)',
    '    at load (/app/node_modules/tsx/dist/index.js:2:200)',
    '    at node:internal/modules/run_main:135:12',
    '    at main (/app/src/main.ts:3:1)',
  ].join('\n');

  it('collapses runs of library frames and keeps the application frames', () => {
    expect(stripStackTraces(trace)).toBe(
      ['TypeError: x is not a function', '    at run (/app/src/run.ts:10:5)', '    … 3 node_modules frames', '    at main (/app/src/main.ts:3:1)'].join('\n'),
    );
  });

  it('leaves a single library frame alone (a one-line note would save nothing)', () => {
    const one = 'Error\n    at a (/app/node_modules/x/y.js:1:1)\n    at b (/app/src/b.ts:1:1)';
    expect(stripStackTraces(one)).toBe(one);
  });
});

describe('stripDuplicateLines', () => {
  it('keeps a repeated long line once with the number of dropped copies', () => {
    const line = 'warning: connection to the package registry was reset, retrying';
    expect(stripDuplicateLines(`start\n${line}\n${line}\n${line}\nend`)).toBe(`start\n${line}\n[previous line repeated 2 more times]\nend`);
  });

  it('keeps short repeats whose note would be longer than the copies, and blank lines', () => {
    const text = '}\n}\n}\n\n\n\nok';
    expect(stripDuplicateLines(text)).toBe(text);
  });

  it('collapses many repeats of a short line', () => {
    expect(stripDuplicateLines(Array(60).fill('.').join('\n'))).toBe('.\n[previous line repeated 59 more times]');
  });
});

describe('dedupRepeatedPatterns', () => {
  it('merges the same compiler message at several places, with the count and the places', () => {
    const text = [
      "src/a.ts(3,1): error TS2304: Cannot find name 'x'.",
      "src/b.ts(4,2): error TS2304: Cannot find name 'x'.",
      'src/c.ts(9,9): error TS2322: Type string is not assignable to type number.',
      "src/d.ts(5,5): error TS2304: Cannot find name 'x'.",
      'Found 4 errors.',
    ].join('\n');
    expect(dedupRepeatedPatterns(text)).toBe(
      [
        "src/a.ts(3,1): error TS2304: Cannot find name 'x'. [×3; also at src/b.ts(4,2), src/d.ts(5,5)]",
        'src/c.ts(9,9): error TS2322: Type string is not assignable to type number.',
        'Found 4 errors.',
      ].join('\n'),
    );
  });

  it("merges a linter's indented messages and lists at most five other places", () => {
    const lines = Array.from({ length: 8 }, (_, i) => `  ${i + 1}:3  error  Unexpected console statement  no-console`);
    const out = dedupRepeatedPatterns(['/app/src/x.ts', ...lines].join('\n'));
    expect(out).toBe('/app/src/x.ts\n  1:3  error  Unexpected console statement  no-console [×8; also at 2:3, 3:3, 4:3, 5:3, 6:3, and 2 more]');
  });

  it('never touches lines that are not diagnostics, even when they repeat', () => {
    const text = 'a.txt:1: hello\nb.txt:2: hello\nsame line\nother\nsame line';
    expect(dedupRepeatedPatterns(text)).toBe(text);
  });
});

describe('collapseWhitespace', () => {
  it('merges blank lines, trims trailing spaces and the shared indentation, keeps relative indentation', () => {
    expect(collapseWhitespace('\n\n    def f():   \n\n\n\n        return 1\t\n\n')).toBe('def f():\n\n    return 1');
  });

  it('returns the same string when it is already tidy', () => {
    const text = 'a\n  b\n\nc';
    expect(collapseWhitespace(text)).toBe(text);
  });
});

describe('the stage 0 pass', () => {
  it('runs the techniques in the seed order', () => {
    expect(DETERMINISTIC_TECHNIQUES.map((t) => t.name)).toEqual(['stripAnsiCodes', 'stripStackTraces', 'stripDuplicateLines', 'dedupRepeatedPatterns', 'collapseWhitespace']);
  });

  it('composes them: colour codes no longer hide the duplicates', () => {
    const line = '\u001b[33mwarn\u001b[0m: src/x.ts:1:1: warning unused variable in the module scope';
    const text = `  ${line}\n  ${line}\n  ${line}\n\n\n\n  done   `;
    expect(compactToolOutput(text)).toBe('warn: src/x.ts:1:1: warning unused variable in the module scope\n[previous line repeated 2 more times]\n\ndone');
  });

  it('rewrites command output only: file reads, user and assistant text stay byte for byte', () => {
    const noisy = '\u001b[31mfail\u001b[0m\n\n\n\nend';
    const read = result('r1', 'read', '    }\n    }\n    }\n\n\n\n');
    const messages = [sys('s'), user(noisy), ask([call('r1', 'read', { path: 'a.ts' }), call('b1', 'bash', { command: 'npm test' })], noisy), read, result('b1', 'bash', noisy)];
    const out = applyDeterministicCompaction(messages);
    expect(out).not.toBe(messages);
    expect(out.slice(0, 4)).toEqual(messages.slice(0, 4));
    expect(out[3]).toBe(read);
    expect(out[4]).toEqual({ role: 'tool', toolCallId: 'b1', name: 'bash', content: 'fail\n\nend' });
  });

  it('returns the same array when nothing changes', () => {
    const messages = [sys('s'), user('u'), ask([call('b1', 'bash')]), result('b1', 'bash', 'ok')];
    expect(applyDeterministicCompaction(messages)).toBe(messages);
  });
});
