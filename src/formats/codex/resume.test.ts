// Incremental reading: a rollout read in two appends (the parser resumed from its snapshot) gives
// the same events as one read, so a session being written is counted right at every ingest.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { EventInput, LineContext, SourceFile } from '../importer.js';
import { createCodexParser } from './parser.js';

const PATH = '../shared/fixtures/other-agents/codex/sessions/2026/05/11/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl';
const FILE: SourceFile = { path: PATH, root: '.', relPath: 'r.jsonl', ledger: 'rollout', ledgerRank: 0, sessionId: '019e1625-789d-76c0-80ab-3724b5ddb799', kind: 'jsonl' };

function feed(lines: string[], from: number, to: number, resumeState: unknown): { events: EventInput[]; state: unknown } {
  const parser = createCodexParser(FILE, { resumeState });
  const events: EventInput[] = [];
  for (let i = from; i < to; i++) {
    const ctx: LineContext = { file: FILE, lineNumber: i + 1, byteOffset: 0, byteLength: lines[i]!.length, raw: lines[i]!, emit: (e) => events.push(e), defect: () => {}, facts: () => {} };
    parser.line(JSON.parse(lines[i]!) as Record<string, unknown>, ctx);
  }
  // The snapshot goes through the store as JSON.
  return { events, state: JSON.parse(JSON.stringify(parser.snapshot())) };
}

describe('codex parser resume', () => {
  it('reads a rollout in two parts exactly as in one', () => {
    const lines = readFileSync(PATH, 'utf8').split('\n').filter((l) => l !== '');
    const whole = feed(lines, 0, lines.length, undefined).events;
    for (const cut of [5, 120, 250, 384]) {
      const first = feed(lines, 0, cut, undefined);
      const rest = feed(lines, cut, lines.length, first.state);
      expect([...first.events, ...rest.events], `cut at ${cut}`).toEqual(whole);
    }
    expect(whole.filter((e) => e.usage)).toHaveLength(66);
  });
});
