import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers.js';
import { parseToolsCommand } from './parse-tools-command.js';
import { UsageError } from './usage-error.js';

function run(opts: Parameters<typeof parseToolsCommand>[0]): unknown {
  const lines: string[] = [];
  expect(parseToolsCommand(opts, (l) => lines.push(l))).toBe(0);
  return JSON.parse(lines.join('\n'));
}

describe('hindsight parse-tools', () => {
  const dir = tempDir('hs-parse-tools-');
  const output = join(dir, 'out.txt');
  writeFileSync(output, '<think>hm</think>Let me look.\n<tool_call>\n<function=get_weather>\n<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>');

  it('prints calls, content, reasoning and parse_errors for a FILE', () => {
    expect(run({ parser: 'qwen3_xml', deltas: false, input: output })).toEqual({
      calls: [{ name: 'get_weather', arguments: { days: 3 } }],
      content: 'Let me look.\n',
      reasoning: 'hm',
      parse_errors: [],
    });
  });

  it('types parameters with --tools and streams --deltas to the same answer', () => {
    const tools = join(dir, 'tools.json');
    writeFileSync(tools, JSON.stringify([{ type: 'function', function: { name: 'get_weather', parameters: { properties: { days: { type: 'string' } } } } }]));
    const deltas = join(dir, 'deltas.json');
    writeFileSync(deltas, JSON.stringify(['<tool_call>\n<function=get_weather>\n<param', 'eter=days>\n3\n</parameter>\n</function>\n</tool_call>']));
    expect(run({ parser: 'qwen3_coder', tools, deltas: true, input: deltas })).toMatchObject({ calls: [{ name: 'get_weather', arguments: { days: '3' } }] });
  });

  it('says what is wrong with the command line', () => {
    expect(() => run({ deltas: false, input: output })).toThrow(UsageError);
    expect(() => run({ parser: 'hermes', deltas: false, input: join(dir, 'missing') })).toThrow(/cannot read .*missing: ENOENT/);
    expect(() => run({ parser: 'hermes', deltas: true, input: output })).toThrow(/is not JSON/);
    writeFileSync(join(dir, 'bad-tools.json'), '{"name": "x"}');
    expect(() => run({ parser: 'hermes', tools: join(dir, 'bad-tools.json'), deltas: false, input: output })).toThrow(/must hold a JSON array/);
    expect(() => run({ parser: 'gpt5', deltas: false, input: output })).toThrow(/Unknown parser "gpt5". Valid parsers: deepseek_v3/);
  });
});
