import { describe, expect, it } from 'vitest';
import { summariseArgs, summariseResult } from './tool-summary.js';

// The seed's per-tool rules on the shapes Claude Code writes (the real transcripts lack web tools).
describe('replay tool summarisation', () => {
  it('Read → path and size; Write/Edit → file and size', () => {
    expect(summariseArgs('Read', { file_path: '/a.ts', offset: 10 })).toEqual({ file: '/a.ts', offset: 10 });
    expect(summariseResult('Read', { text: 'x'.repeat(5000), isError: false })).toEqual({ size: 5000 });
    expect(summariseArgs('Write', { file_path: '/b.md', content: 'héllo' })).toEqual({ file: '/b.md', size: 6 });
    expect(summariseArgs('Edit', { file_path: '/c.ts', old_string: 'a', new_string: 'bcd' })).toEqual({ file: '/c.ts', size: 3 });
  });

  it('Grep/Glob → pattern and count', () => {
    expect(summariseArgs('Grep', { pattern: 'foo(', path: 'src', output_mode: 'content' })).toEqual({ pattern: 'foo(', path: 'src' });
    expect(summariseResult('Grep', { text: 'Found 3 files\na\nb\nc', isError: false })).toEqual({ count: 3, size: 19 });
    expect(summariseResult('Glob', { text: 'a\nb', isError: false, structured: { numFiles: 2 } })).toEqual({ count: 2, size: 3 });
    expect(summariseResult('Glob', { text: 'No files found', isError: false }).count).toBe(0);
  });

  it('WebSearch → query and count; WebFetch → URL and size', () => {
    expect(summariseArgs('WebSearch', { query: 'vitest pool' })).toEqual({ query: 'vitest pool' });
    const structured = { results: [{ tool_use_id: 'x', content: [{ title: 'a', url: 'u1' }, { title: 'b', url: 'u2' }] }, 'text'] };
    expect(summariseResult('WebSearch', { text: 'Web search results', isError: false, structured }).count).toBe(2);
    expect(summariseArgs('WebFetch', { url: 'https://x.test/', prompt: 'summarise' })).toEqual({ url: 'https://x.test/' });
    expect(summariseResult('WebFetch', { text: 'short', isError: false, structured: { bytes: 91234, code: 200 } })).toEqual({ code: 200, size: 91234 });
  });

  it('Bash → command, exit code and output size', () => {
    expect(summariseArgs('Bash', { command: 'npm test', description: 'run tests' })).toEqual({ command: 'npm test' });
    expect(summariseResult('Bash', { text: 'ok', isError: false })).toEqual({ exit: 0, size: 2 });
    expect(summariseResult('Bash', { text: 'Exit code 2\nboom', isError: true })).toEqual({ exit: 2, size: 16 });
    expect(summariseResult('bash', { text: '', isError: false, structured: { returncode: 7 } }).exit).toBe(7);
  });

  it('other tools keep their identifying field and short scalars, lists by size only', () => {
    const todos = { todos: [{ content: 'a' }] };
    expect(summariseArgs('TodoWrite', todos)).toEqual({ size: JSON.stringify(todos).length });
    const args = { session_id: 'SES-1', limit: 5, note: 'x'.repeat(300) };
    expect(summariseArgs('reconstruct_session', args)).toEqual({ session_id: 'SES-1', limit: 5, size: JSON.stringify(args).length });
  });
});
