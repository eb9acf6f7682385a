// Lines past the pipeline's 8 MiB limit: a 60 MB raw llm:request in events.jsonl and a 9 MB
// tool result in transcript.jsonl are projected from their heads, never parsed whole.

import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Defect } from '../../core/model.js';
import { toTimeKey } from '../../core/time.js';
import { parseJsonlFile, type ParsedEvent } from '../../ingest/parse-file.js';
import type { SourceFile } from '../importer.js';
import { amplifier } from './index.js';

const dir = mkdtempSync(join(tmpdir(), 'hindsight-amp-huge-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SID = '11111111-2222-4333-8444-555555555555';

/** Write `head`, then `fillBytes` of filler, then `tail` as one line, in 1 MB chunks. */
function writeLine(fd: number, head: string, fillBytes: number, tail: string): void {
  writeSync(fd, head);
  const chunk = 'x'.repeat(1024 * 1024);
  for (let left = fillBytes; left > 0; left -= chunk.length) writeSync(fd, left >= chunk.length ? chunk : chunk.slice(0, left));
  writeSync(fd, `${tail}\n`);
}

function source(path: string, ledger: 'events' | 'transcript'): SourceFile {
  return { path, root: dir, relPath: `${ledger}.jsonl`, ledger, ledgerRank: ledger === 'events' ? 1 : 0, sessionId: SID, kind: 'jsonl' };
}

function run(file: SourceFile, onEvent?: (e: ParsedEvent) => void) {
  const events: ParsedEvent[] = [];
  const defects: Defect[] = [];
  const heads: number[] = [];
  const inner = amplifier.createParser(file, {});
  // Wrap hugeLine only to observe what the pipeline handed over; the importer does the work.
  const parser = { ...inner, hugeLine: (head: string, ctx: Parameters<NonNullable<typeof inner.hugeLine>>[1]) => (heads.push(head.length), inner.hugeLine!(head, ctx)) };
  parseJsonlFile(file, parser, {
    line() {},
    event: (e) => (events.push(e), onEvent?.(e)),
    defect: (d) => defects.push(d),
    facts() {},
  });
  return { events, defects, heads };
}

describe('huge lines', () => {
  it('projects a 60 MB llm:request line from its head with bounded memory', () => {
    const path = join(dir, 'events.jsonl');
    const fd = openSync(path, 'w');
    const base = `"lvl": "INFO", "schema": {"name": "amplifier.log", "ver": "1.0.0"}`;
    writeSync(fd, `{"ts": "2026-03-01T10:00:00.000000001+00:00", ${base}, "event": "session:start", "session_id": "${SID}", "data": {"parent_id": null}}\n`);
    // Decoy keys inside data must not be read as the line's own event or level.
    writeLine(
      fd,
      `{"ts": "2026-03-01T10:00:01.123456789+00:00", ${base}, "event": "llm:request", "redaction": {"applied": true}, "session_id": "${SID}", "data": {"event": "tool:pre", "lvl": "ERROR", "raw": {"messages": [{"role": "user", "content": "`,
      60 * 1024 * 1024,
      `"}]}}}`,
    );
    writeSync(fd, `{"ts": "2026-03-01T10:00:05.000000000+00:00", ${base}, "event": "llm:response", "session_id": "${SID}", "data": {"model": "m", "usage": {"input_tokens": 10, "output_tokens": 3, "cache_read_tokens": 4}}}\n`);
    closeSync(fd);

    const before = process.memoryUsage().heapUsed;
    let heapAtHuge = 0;
    const { events, defects, heads } = run(source(path, 'events'), (e) => {
      if (e.lineNumber === 2) heapAtHuge = process.memoryUsage().heapUsed;
    });

    expect(heads).toHaveLength(1);
    expect(heads[0]).toBeLessThanOrEqual(64 * 1024);
    // A 60 MB line decoded or parsed would sit on the heap at this moment; a 64 KB head does not.
    expect(heapAtHuge - before).toBeLessThan(32 * 1024 * 1024);

    const huge = events.find((e) => e.lineNumber === 2)!;
    expect(huge).toMatchObject({ type: 'llm:request', kind: 'system', attrs: { huge: true, level: 'INFO' }, tsMissing: false });
    expect(huge.tsKey).toBe(toTimeKey('2026-03-01T10:00:01.123456789+00:00'));
    expect(huge.tsKey).toBe('2026-03-01T10:00:01.123456789Z');
    expect(huge.summary.length).toBeLessThan(100);
    expect(defects).toEqual([expect.objectContaining({ kind: 'oversized_line', line: 2, severity: 'info' })]);
    // The lines around it are parsed as usual.
    expect(events.map((e) => e.type)).toEqual(['session:start', 'llm:request', 'llm:response']);
    expect(events[2]!.usage).toMatchObject({ input: 6, cacheRead: 4, output: 3 });
  });

  it('projects a 9 MB transcript tool result: role, tool and call id from the head, time inherited', () => {
    const path = join(dir, 'transcript.jsonl');
    const fd = openSync(path, 'w');
    writeSync(fd, `{"role": "user", "content": "read it", "metadata": {"timestamp": "2026-03-01T10:00:00.000+00:00"}}\n`);
    writeSync(fd, `{"role": "assistant", "content": [{"type": "tool_call", "id": "toolu_big", "name": "read_file", "input": {"file_path": "/log"}}], "metadata": {"timestamp": "2026-03-01T10:00:01.000+00:00"}}\n`);
    writeLine(fd, `{"role": "tool", "name": "read_file", "tool_call_id": "toolu_big", "content": "`, 9 * 1024 * 1024, `", "metadata": {"timestamp": "2026-03-01T10:00:02.000+00:00"}}`);
    writeSync(fd, `{"role": "user", "content": "thanks", "metadata": {"timestamp": "2026-03-01T10:00:03.000+00:00"}}\n`);
    closeSync(fd);

    const { events } = run(source(path, 'transcript'));
    const big = events.find((e) => e.lineNumber === 3)!;
    expect(big).toMatchObject({ kind: 'tool_result', toolName: 'read_file', ids: { toolCall: 'toolu_big' }, tsMissing: true, turn: 1 });
    expect(big.tsKey).toBe('2026-03-01T10:00:01.000000000Z');
    expect(events.find((e) => e.lineNumber === 4)).toMatchObject({ kind: 'user_message', turn: 2 });
  });
});
