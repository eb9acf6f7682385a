// Parsers resume on appended lines: parsing a file in pieces, each piece by a new parser built from
// the previous piece's JSON snapshot, must give exactly the events, facts and findings of one pass.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Defect, SessionFacts } from '../../core/model.js';
import { parseJsonlFile, type ParsedEvent } from '../../ingest/parse-file.js';
import type { SourceFile } from '../importer.js';
import { claudeCode } from './index.js';
import { FIXTURES as SHARED_FIXTURES } from '../../../test/helpers.js';

const FIXTURES = join(SHARED_FIXTURES, 'claude-code');

interface Collected {
  events: ParsedEvent[];
  facts: SessionFacts[];
  defects: Defect[];
  snapshotBytes: number[];
}

/** Byte offset just after each line (index i → end of line i + 1). */
function lineEnds(path: string): number[] {
  const bytes = readFileSync(path);
  const ends: number[] = [];
  for (let i = bytes.indexOf(10); i !== -1; i = bytes.indexOf(10, i + 1)) ends.push(i + 1);
  return ends;
}

/** Parse `file` stopping after each line number in `cuts`, resuming from a JSON round-tripped snapshot. */
function parseInPieces(file: SourceFile, cuts: number[]): Collected {
  const out: Collected = { events: [], facts: [], defects: [], snapshotBytes: [] };
  const sink = {
    line() {},
    event: (e: ParsedEvent) => out.events.push(e),
    defect: (d: Defect) => out.defects.push(d),
    facts: (f: SessionFacts) => out.facts.push(f),
  };
  const ends = lineEnds(file.path);
  let pos = { offset: 0, lineNumber: 1, lastTsKey: null as string | null };
  let resumeState: unknown;
  for (const cut of [...cuts, ends.length]) {
    const parser = claudeCode.createParser(file, { resumeState });
    const res = parseJsonlFile(file, parser, sink, { ...pos, end: ends[cut - 1] });
    const json = JSON.stringify(parser.snapshot());
    out.snapshotBytes.push(json.length);
    resumeState = JSON.parse(json);
    pos = { offset: res.offset, lineNumber: res.lineNumber, lastTsKey: res.lastTsKey };
  }
  return out;
}

let files: SourceFile[];
beforeAll(async () => {
  files = await claudeCode.discover(FIXTURES);
});

describe('claude-code parser resume', () => {
  it('gives the same result when every file is resumed after every line', () => {
    expect(files.length).toBe(8);
    for (const file of files) {
      const total = lineEnds(file.path).length;
      const onePass = parseInPieces(file, []);
      const everyLine = parseInPieces(file, Array.from({ length: total - 1 }, (_, i) => i + 1));
      expect(onePass.events.length, file.relPath).toBeGreaterThanOrEqual(total);
      expect(everyLine.events, file.relPath).toEqual(onePass.events);
      expect(everyLine.facts, file.relPath).toEqual(onePass.facts);
      expect(everyLine.defects, file.relPath).toEqual(onePass.defects);
    }
  });

  it('resumes mid-sidechain and mid-sub-agent with the grouping and links intact', () => {
    const inline = files.find((f) => f.relPath.includes('5c0375b4'))!;
    // Line 20 is inside the first sidechain; line 30 inside the second.
    const pieces = parseInPieces(inline, [20, 30]);
    const ids = new Set(pieces.events.filter((e) => e.lineNumber >= 16 && e.lineNumber <= 22).map((e) => e.sessionId));
    expect([...ids]).toEqual(['5c0375b4-57a5-4f26-b12d-d022ee4e51b7:sidechain-6340ddef-f656-4b72-a065-82390f637678']);
    const taskResult = pieces.events.find((e) => e.lineNumber === 41)!;
    expect(taskResult.attrs.childSessionId).toBe('5c0375b4-57a5-4f26-b12d-d022ee4e51b7:sidechain-83e2917c-8940-4df6-a5a5-f2514f0d08c5');
    expect(taskResult.toolName).toBe('Task');

    const withAgent = files.find((f) => f.relPath.includes('491e126e'))!;
    const split = parseInPieces(withAgent, [40]); // between the Task call and its result
    expect(split.events.find((e) => e.lineNumber === 56)?.attrs.childSessionId).toBe('491e126e-1e71-469c-ade2-fcc8af567c74:afb92ff');
    expect(split.events.filter((e) => e.kind === 'subagent_start')).toHaveLength(1);
  });

  it('keeps the snapshot small', () => {
    for (const file of files) {
      const total = lineEnds(file.path).length;
      const sizes = parseInPieces(file, Array.from({ length: total - 1 }, (_, i) => i + 1)).snapshotBytes;
      expect(Math.max(...sizes), file.relPath).toBeLessThan(4096);
    }
  });
});
