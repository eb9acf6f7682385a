// The real samples: a full root session (2.5 MB of events with 200–500 KB lines) and two
// CLI metadata.json + events excerpts.

import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runImporter, type HarnessResult } from '../harness.js';
import { amplifier } from './index.js';

const ROOT = join(import.meta.dirname, '../../../../shared/fixtures/amplifier/real');
const C376 = 'c37652eb-ec4c-4cb5-9d3e-f0b1445ac643';

let result: HarnessResult;
beforeAll(async () => {
  result = await runImporter(amplifier, ROOT);
});

describe('amplifier importer on the real samples', () => {
  it('finds the three sessions under their slugs and ignores notes/', () => {
    expect([...result.sessions.keys()].sort()).toEqual([
      '63cc3feb-564a-40de-9f8b-a7cb5fd510a4',
      C376,
      'd094c4f8-2005-4aa0-914a-78bda8362c54',
    ]);
    expect(result.sessions.get(C376)!.facts).toMatchObject({ project: '-workspace', kind: 'root', parentId: null });
    expect(result.files.every((f) => f.relPath.startsWith('projects/'))).toBe(true);
  });

  it('summarises c37652eb from both ledgers without double counting', () => {
    const s = result.sessions.get(C376)!.summary;
    // README census: 101 records; 9 llm:response; 8 tool:pre/tool:post; one prompt.
    expect(s.attrs?.eventsLogRecords).toBe(101);
    expect(s.llmCalls).toBe(9);
    expect(s.toolCalls).toBe(8);
    expect(s.toolErrors).toBe(0);
    expect(s.turnCount).toBe(1);
    expect(s.status).toBe('completed');
    // First call wrote the cache (input 2), the other eight read 67,190 each (input_tokens 67,192).
    expect(s.tokens.cacheRead).toBe(8 * 67190);
    expect(s.tokens.input).toBe(2 + 8 * 2);
    expect(s.attrs?.rawInputTokens).toBe(2 + 8 * 67192);
    expect(s.models).toEqual(['claude-opus-4-8']);
    expect(s.startedAt).toBe('2026-07-08T17:03:33.040Z');
    expect(s.endedAt).toBe('2026-07-08T17:04:35.157Z');
    expect(s.lastResponsePreview).toMatch(/^All tasks complete/);
  });

  it('reports the missing CLI metadata.json of the eval seed', () => {
    const note = result.defects.find((d) => d.kind === 'missing_metadata')!;
    expect(note.file).toBe(`projects/-workspace/sessions/${C376}`);
    expect(note.severity).toBe('warning');
  });

  it('parses the 500 KB session:config and 200 KB llm:request lines without keeping their bulk', () => {
    const big = result.events.filter((e) => e.sessionId === C376 && (e.type === 'llm:request' || e.type === 'session:config'));
    expect(big).toHaveLength(10);
    for (const e of big) {
      expect(e.summary.length).toBeLessThan(100);
      expect(e.text).toBeNull();
    }
    expect(result.defects.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('reads the CLI metadata of the excerpts and the PONG run', () => {
    const ci = result.sessions.get('63cc3feb-564a-40de-9f8b-a7cb5fd510a4')!;
    expect(ci.facts).toMatchObject({
      title: 'Debugging Graph-Analyst Connectivity',
      projectPath: '/home/amplifier/workspaces/demo-parity-project',
      attrs: { bundle: 'bundle:amplifier-dev', incremental: true },
    });
    // An excerpt that stops mid-turn: no end, no error, no pending call → active.
    expect(ci.summary).toMatchObject({ status: 'active', turnCount: 1, attrs: { eventsLogRecords: 10 } });

    const pong = result.sessions.get('d094c4f8-2005-4aa0-914a-78bda8362c54')!.summary;
    expect(pong.lastResponsePreview).toBe('PONG');
    expect(pong.firstUserMessage).toBe('Reply with exactly: PONG');
    expect(pong.tokens).toEqual({ input: 2, output: 5, cacheWrite: 105605, cacheRead: 0 });
    expect(pong.llmCalls).toBe(1);
  });
});
