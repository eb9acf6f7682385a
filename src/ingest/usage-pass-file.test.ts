// A format's whole-file scan (UsageLines.scan) keeps exactly the lines its per-line keep() keeps:
// reading a file for usage with the scan gives what reading it line by line gives, on adversarial
// Claude Code files (marks in every combination, the first own cwd line, blank, CRLF, torn and
// unfinished lines), on the fixtures and on a generated corpus with sub-agent files.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateClaudeCode } from '../../bench/generators/claude-code.js';
import { copyFixture, tempDir } from '../../test/helpers.js';
import type { Importer, SourceFile } from '../formats/importer.js';
import { loadImporter } from '../formats/registry.js';
import { readFileUsage, type FileUsage } from './usage-pass-file.js';

const SESSION = '11111111-2222-4333-8444-555555555555';

/** The importer with its usage lines chosen line by line (keep() only, no scan). */
function lineByLine(importer: Importer): Importer {
  return {
    ...importer,
    usageLines(file, options) {
      const lines = importer.usageLines!(file, options);
      return lines && { keep: lines.keep, ...(lines.parser && { parser: lines.parser }) };
    },
  };
}

/** Every file of the root read both ways, each chain group continuing in order. */
async function bothWays(root: string): Promise<{ scanned: FileUsage[]; byLine: FileUsage[]; files: SourceFile[] }> {
  const claude = await loadImporter('claude-code');
  const files = await claude.discover(root);
  const read = (importer: Importer) => {
    const chains = new Map<string, unknown>();
    return files.map((f) => {
      const u = readFileUsage(importer, f, f.chainGroup ? chains.get(f.chainGroup) : undefined);
      if (f.chainGroup) chains.set(f.chainGroup, u.chainState);
      return u;
    });
  };
  return { scanned: read(claude), byLine: read(lineByLine(claude)), files };
}

const at = (second: number) => `2026-03-01T10:00:${String(second).padStart(2, '0')}.000Z`;
const usage = (output: number) => ({ input_tokens: 3, output_tokens: output, cache_creation_input_tokens: 5, cache_read_input_tokens: 7 });
function assistant(second: number, id: string, extra: Record<string, unknown> = {}, content: unknown[] = [{ type: 'text', text: 'ok' }]) {
  return { parentUuid: null, isSidechain: false, sessionId: SESSION, type: 'assistant', uuid: `u-${second}`, timestamp: at(second), requestId: `req_${id}`, message: { id: `msg_${id}`, model: 'claude-sonnet-4-5', role: 'assistant', content, usage: usage(second) }, ...extra };
}

/** A session file and a sub-agent file whose lines put the marks where a per-line filter and a scan could disagree. */
function adversarialRoot(): string {
  const config = join(tempDir('hs-scan-'), 'claude');
  const project = join(config, 'projects', '-srv-app');
  mkdirSync(join(project, SESSION, 'subagents'), { recursive: true });
  const j = (o: unknown) => JSON.stringify(o);
  const session = [
    // A usage line holding a cwd that is not the session's own first cwd line (inline agent line):
    // it is kept for its usage and must not count as the cwd line.
    j(assistant(1, 'a', { isSidechain: true, agentId: 'a1', cwd: '/elsewhere' })),
    '',
    '   \t',
    // The first line kept for its cwd alone.
    j({ type: 'progress', sessionId: SESSION, cwd: '/srv/app', version: '2.1.0', timestamp: at(2), data: { type: 'hook_progress', hookName: 'SessionStart' } }),
    // A later cwd line: not kept (the cwd was seen).
    j({ type: 'user', sessionId: SESSION, cwd: '/srv/other', timestamp: at(3), message: { role: 'user', content: 'hi' } }),
    // "usage" only inside a string (escaped quotes): no mark, not kept.
    j({ type: 'user', sessionId: SESSION, timestamp: at(4), message: { role: 'user', content: 'the "usage" field' } }),
    // A structural "usage" key in a tool input: kept, parsed, carries no call.
    j(assistant(5, 'b', {}, [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { usage: { input_tokens: 999 } } }])),
    // Two records of one call (the larger wins), one with CRLF.
    j(assistant(6, 'c')),
    `${j(assistant(7, 'c'))}\r`,
    // An inline sidechain line without usage: kept for its chain.
    j({ type: 'user', sessionId: SESSION, isSidechain: true, uuid: 'side-1', parentUuid: null, timestamp: at(8), message: { role: 'user', content: 'task prompt' } }),
    j({ ...assistant(9, 'd'), isSidechain: true, parentUuid: 'side-1' }),
    // A torn record followed by a whole one on the same line.
    `{"type":"assistant","message":{"usage":${j(assistant(10, 'e'))}`,
    // Marks at the very start and end of lines.
    `"usage"`,
    j({ cwd: '/z', type: 'system', sessionId: SESSION, timestamp: at(11), content: '"isSidechain":true' }),
    // The last line has no newline: held back, never parsed, though it holds every mark.
    j(assistant(12, 'f', { isSidechain: true, cwd: '/last' })),
  ].join('\n');
  writeFileSync(join(project, `${SESSION}.jsonl`), session);
  const agent = [
    j({ ...assistant(13, 'g'), isSidechain: true, agentId: 'x1' }),
    j({ type: 'user', sessionId: SESSION, isSidechain: true, agentId: 'x1', cwd: '/srv/app', timestamp: at(14), message: { role: 'user', content: 'go' } }),
    j({ ...assistant(15, 'h'), isSidechain: true, agentId: 'x1' }),
  ].join('\n');
  writeFileSync(join(project, SESSION, 'subagents', 'agent-x1.jsonl'), `${agent}\n`);
  return config;
}

describe('the whole-file scan keeps the lines keep() keeps', () => {
  it('on lines that put the marks everywhere a scan could go wrong', async () => {
    const { scanned, byLine } = await bothWays(adversarialRoot());
    expect(scanned).toEqual(byLine);
    const keys = (f: FileUsage) => f.events.map((e) => `${e.lineNumber}:${e.usage?.key}`);
    // Line numbers count the blank lines; the torn line's whole record is read; the unfinished
    // last line (15) is not.
    expect(scanned.map(keys)).toEqual([['1:msg_a:req_a', '7:msg_b:req_b', '8:msg_c:req_c', '9:msg_c:req_c', '11:msg_d:req_d', '12:msg_e:req_e'], ['1:msg_g:req_g', '3:msg_h:req_h']]);
    // The tool input's own "usage" is not the message's.
    expect(scanned[0]!.events.find((e) => e.lineNumber === 7)?.usage?.input).toBe(3);
    expect(scanned[0]!.facts.find((f) => f.projectPath !== undefined && f.id === SESSION)?.projectPath).toBe('/srv/app');
  });

  it('on the Claude Code fixtures', async () => {
    const { scanned, byLine } = await bothWays(copyFixture('claude-code'));
    expect(scanned.some((f) => f.events.length > 0)).toBe(true);
    expect(scanned).toEqual(byLine);
  });

  it('on a generated corpus with sub-agent files and progress mirrors', async () => {
    const config = join(tempDir('hs-gen-'), 'claude');
    generateClaudeCode(config, { targetBytes: 1e6, seed: 5 });
    const { scanned, byLine, files } = await bothWays(config);
    expect(files.length).toBeGreaterThan(3);
    expect(scanned.reduce((n, f) => n + f.events.length, 0)).toBeGreaterThan(50);
    expect(scanned).toEqual(byLine);
  });
});
