import { describe, expect, it } from 'vitest';
import { markdownLines } from './markdown.js';
import type { Obj } from '../../formats/shared/tool-summary.js';

async function render(entries: Obj[]): Promise<string> {
  async function* gen() {
    yield* entries;
  }
  const out: string[] = [];
  for await (const line of markdownLines(gen())) out.push(line);
  return out.join('\n');
}

const HEADER = { v: 1, session: 'S1', format: 'claude-code', cwd: null, branch: null, started: null, title: 'T' };

describe('markdownLines', () => {
  it('places parallel results under their own calls, in call order, whatever order they came back in', async () => {
    const md = await render([
      HEADER,
      { r: 'assistant', tool: 'Read', args: { file: 'a.ts' }, call_id: 'c1' },
      { r: 'assistant', tool: 'Read', args: { file: 'b.ts' }, call_id: 'c2' },
      { r: 'user', tool_result: 'Read', status: 'error', msg: 'no such file', call_id: 'c2' },
      { r: 'user', tool_result: 'Read', status: 'success', size: 10, call_id: 'c1' },
      { r: 'assistant', m: 'done' },
    ]);
    expect(md).toContain('- tool `Read` file=a.ts\n  - → success: size 10\n- tool `Read` file=b.ts\n  - → error: no such file\n\n**Assistant**\n\ndone');
  });

  it('skips whitespace-only assistant text, strips terminal escapes, folds thinking, omits null header fields', async () => {
    const md = await render([
      HEADER,
      { r: 'user', m: 'hi \u001b[1mthere\u001b[22m' },
      { r: 'assistant', m: '\n\n' },
      { r: 'assistant', thinking: true, text: 'plan </details> it' },
      { r: 'assistant', m: 'ok' },
    ]);
    expect(md).not.toContain('\u001b');
    expect(md).toContain('hi there');
    expect(md.match(/\*\*Assistant\*\*/g)).toHaveLength(1);
    expect(md).toContain('<details>\n<summary>Thinking (18 chars)</summary>\n\nplan &lt;/details> it\n\n</details>');
    expect(md).not.toContain('cwd: null');
  });

  it('keeps a result whose call is not waiting (no id) on its own line', async () => {
    const md = await render([HEADER, { r: 'user', tool_result: 'Bash', status: 'success', exit: 0 }]);
    expect(md).toContain('  - → success: exit 0');
  });
});
