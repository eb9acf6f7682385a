// The line parsers on small hand-written inputs: resume from a snapshot, duplicate tool-call
// lists, tool outcomes, usage arithmetic, event kinds and metadata edge cases.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Defect, SessionFacts } from '../../core/model.js';
import { parseDocumentFile, parseJsonlFile, type ParsedEvent } from '../../ingest/parse-file.js';
import type { SourceFile } from '../importer.js';
import { kindOf } from './event-kinds.js';
import { amplifier } from './index.js';
import { outcomeOfContent } from './tool-result.js';
import { readUsage } from './usage.js';

const dir = mkdtempSync(join(tmpdir(), 'hindsight-amp-parsers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const SID = '0000000000000000-1234567890abcdef_foundation-explorer';

function file(name: string, ledger: string, content: string, kind: 'jsonl' | 'document' = 'jsonl'): SourceFile {
  const path = join(dir, name);
  writeFileSync(path, content);
  return { path, root: dir, relPath: name, ledger, ledgerRank: 0, sessionId: SID, kind };
}

function collect() {
  const out = { events: [] as ParsedEvent[], defects: [] as Defect[], facts: [] as SessionFacts[] };
  const sink = { line() {}, event: (e: ParsedEvent) => out.events.push(e), defect: (d: Defect) => out.defects.push(d), facts: (f: SessionFacts) => out.facts.push(f) };
  return { out, sink };
}

const ts = (s: number) => `{"timestamp": "2026-01-01T00:00:0${s}.000+00:00"}`;
const TRANSCRIPT = [
  `{"role": "user", "content": "one", "metadata": ${ts(1)}}`,
  `{"role": "assistant", "content": [{"type": "text", "text": "a"}, {"type": "tool_call", "id": "t1", "name": "bash", "input": {"command": "ls"}}], "tool_calls": [{"id": "t1", "tool": "bash", "arguments": {"command": "ls"}}, {"id": "t2", "tool": "grep", "arguments": {}}], "metadata": ${ts(2)}}`,
  `{"role": "tool", "name": "bash", "tool_call_id": "t1", "content": "{\\"error\\": null, \\"output\\": \\"x\\", \\"success\\": true}", "metadata": ${ts(3)}}`,
  `{"role": "user", "content": "two", "metadata": ${ts(4)}}`,
  `{"role": "assistant", "content": "done", "metadata": ${ts(5)}}`,
].join('\n') + '\n';

describe('transcript parser', () => {
  it('numbers turns the same when resumed from its snapshot halfway', () => {
    const f = file('transcript.jsonl', 'transcript', TRANSCRIPT);
    const full = collect();
    parseJsonlFile(f, amplifier.createParser(f, {}), full.sink);

    const firstPart = collect();
    const parser = amplifier.createParser(f, {});
    const cut = TRANSCRIPT.indexOf('{"role": "user", "content": "two"');
    const done = parseJsonlFile(f, parser, firstPart.sink, { end: cut });
    const rest = collect();
    parseJsonlFile(f, amplifier.createParser(f, { resumeState: parser.snapshot() }), rest.sink, { offset: done.offset, lineNumber: done.lineNumber });

    const turns = (list: ParsedEvent[]) => list.map((e) => [e.lineNumber, e.part, e.turn]);
    expect([...turns(firstPart.out.events), ...turns(rest.out.events)]).toEqual(turns(full.out.events));
    expect(full.out.events.filter((e) => e.kind === 'user_message').map((e) => e.turn)).toEqual([1, 2]);
  });

  it('emits each tool call once, adding only calls missing from the content blocks', () => {
    const f = file('t2.jsonl', 'transcript', TRANSCRIPT);
    const { out, sink } = collect();
    parseJsonlFile(f, amplifier.createParser(f, {}), sink);
    const calls = out.events.filter((e) => e.kind === 'tool_call');
    expect(calls.map((e) => [e.ids.toolCall, e.toolName, e.part])).toEqual([
      ['t1', 'bash', 1],
      ['t2', 'grep', 2],
    ]);
    expect(out.events.find((e) => e.kind === 'tool_result')).toMatchObject({ toolStatus: 'ok', ids: { toolCall: 't1' } });
  });
});

describe('tool outcomes', () => {
  it('reads success, repaired errors and plain error strings', () => {
    expect(outcomeOfContent('{"error": {"message": "boom"}, "output": null, "success": false}')).toEqual({ status: 'error', preview: 'boom' });
    expect(outcomeOfContent('{"error": "unknown_error", "message": "interrupted"}').status).toBe('error');
    expect(outcomeOfContent("Error: Tool 'python_check' not found").status).toBe('error');
    expect(outcomeOfContent('{"error": null, "output": {"stdout": "ok"}, "success": true}').status).toBe('ok');
    expect(outcomeOfContent('plain words').status).toBe('ok');
  });
});

describe('usage', () => {
  it('splits Amplifier input_tokens into raw input and cache reads', () => {
    const u = readUsage({ model: 'm', usage: { input_tokens: 67192, output_tokens: 99, cache_write_tokens: 7648, cache_read_tokens: 67190, cost_usd: '0.08' } }, 'k')!;
    expect(u.usage).toEqual({ key: 'k', model: 'm', input: 2, output: 99, cacheWrite: 7648, cacheRead: 67190 });
    expect(u.rawInputTokens).toBe(67192);
    expect(u.costUsd).toBe(0.08);
  });

  it('falls back to the provider’s raw usage, and to nothing', () => {
    const u = readUsage({ raw: { model: 'r', usage: { input_tokens: 5, output_tokens: 1, cache_read_input_tokens: 10, cache_creation_input_tokens: 3 } } }, 'k')!;
    expect(u.usage).toMatchObject({ model: 'r', input: 5, cacheRead: 10, cacheWrite: 3, output: 1 });
    expect(u.rawInputTokens).toBe(15);
    expect(readUsage({ model: 'm' }, 'k')).toBeNull();
  });
});

describe('event kinds', () => {
  it('maps names, and ERROR level to error except for tool calls and results', () => {
    expect(kindOf('session:fork', 'INFO')).toBe('session_start');
    expect(kindOf('prompt:submit', 'INFO')).toBe('user_message');
    expect(kindOf('provider:retry', 'INFO')).toBe('warning');
    expect(kindOf('session:config', 'INFO')).toBe('system');
    expect(kindOf('content_block:end', 'INFO')).toBe('other');
    expect(kindOf('orchestrator:complete', 'ERROR')).toBe('error');
    expect(kindOf('tool:post', 'ERROR')).toBe('tool_result');
  });
});

describe('metadata parser', () => {
  it('reads a sub-agent’s metadata into facts without its config block', () => {
    const meta = { session_id: SID, parent_id: 'p-1', agent_name: 'foundation:explorer', created: '2026-01-01T00:00:00+00:00', turn_count: 2, config: { providers: [{ api_key: 'x' }] } };
    const f = file('metadata.json', 'metadata', JSON.stringify(meta), 'document');
    const { out, sink } = collect();
    parseDocumentFile(f, amplifier.createParser(f, {}), sink);
    expect(out.facts).toEqual([
      expect.objectContaining({ id: SID, kind: 'subagent', parentId: 'p-1', agentName: 'foundation:explorer', attrs: { created: meta.created, metadataTurnCount: 2 } }),
    ]);
    expect(out.defects).toEqual([]);
  });

  it('warns when metadata names another session or is not an object', () => {
    const other = file('m2.json', 'metadata', '{"session_id": "someone-else"}', 'document');
    const a = collect();
    parseDocumentFile(other, amplifier.createParser(other, {}), a.sink);
    expect(a.out.defects.map((d) => d.kind)).toEqual(['metadata_session_mismatch']);
    expect(a.out.facts[0]!.id).toBe(SID);

    const list = file('m3.json', 'metadata', '[1, 2]', 'document');
    const b = collect();
    parseDocumentFile(list, amplifier.createParser(list, {}), b.sink);
    expect(b.out.defects.map((d) => d.kind)).toEqual(['metadata_not_object']);
    expect(b.out.facts).toEqual([]);
  });
});
