// Every tool on runtime sessions (test/format-tour.ts): a scripted run recorded by the real
// recorder, ingested from its sessions root as any root is, then every tool called on each session.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tourEveryTool } from '../../../test/format-tour.js';
import { tempDir } from '../../../test/helpers.js';
import { CHILD_ID, FIRST_PROMPT, PARENT_ID, recordScriptedRun, SECOND_PROMPT } from '../../../test/runtime-session.js';

type Obj = Record<string, any>;

describe('every tool on Hindsight runtime sessions', async () => {
  const root = join(tempDir('hs-runtime-tour-'), 'sessions');
  await recordScriptedRun(root);
  const tour = await tourEveryTool(root, undefined, 'subtraction');
  const result = (id: string, key: string) => tour.results.get(id)!.get(key) as Obj;

  it('detects the root and answers every call', () => {
    expect(tour.sessions.every((s) => s.format === 'hindsight')).toBe(true);
    expect(tour.failures).toEqual([]);
  });

  it('exports a replay with the prompts, the tool calls summarised and the failed result', () => {
    const replay = (result(PARENT_ID, 'export_session:{"format":"replay"}').content as string).split('\n').filter(Boolean).map((l) => JSON.parse(l) as Obj);
    expect(replay[0]).toMatchObject({ session: PARENT_ID, format: 'hindsight', cwd: '/work/demo' });
    expect(replay.filter((e) => e.r === 'user' && typeof e.m === 'string').map((e) => e.m)).toEqual([FIRST_PROMPT, SECOND_PROMPT]);
    expect(replay).toContainEqual(expect.objectContaining({ r: 'assistant', tool: 'read', args: { file: 'src/add.ts' } }));
    expect(replay).toContainEqual(expect.objectContaining({ r: 'assistant', tool: 'bash', args: expect.objectContaining({ command: 'npm test' }) }));
    expect(replay).toContainEqual(expect.objectContaining({ r: 'user', tool_result: 'bash', status: 'error', exit: 1 }));
    expect(replay.some((e) => e.r === 'system' && String(e.msg).includes(CHILD_ID))).toBe(true);
  });

  it('the jsonl export is the session file, then its handoff child, line for line', () => {
    const lines = (result(PARENT_ID, 'export_session:{"format":"jsonl"}').content as string).split('\n').filter(Boolean).map((l) => JSON.parse(l) as Obj);
    expect(lines.map((l) => `${l.session_id === PARENT_ID ? 'parent' : 'child'}:${l.seq}`)).toEqual([...Array.from({ length: 24 }, (_, i) => `parent:${i}`), ...Array.from({ length: 8 }, (_, i) => `child:${i}`)]);
    expect(lines[24]).toMatchObject({ type: 'session_start', session_id: CHILD_ID, parent_session_id: PARENT_ID });
  });

  it('inspect_metrics for one session: turns with their calls', () => {
    const m = result(PARENT_ID, 'inspect_metrics:{"view":"session"}');
    expect(m.turns).toHaveLength(2);
    expect(m.session.files_touched).toBe(2);
  });

  it('analyze_events counts each model_call once and prices it', () => {
    const usage = result(PARENT_ID, 'analyze_events:{"analysis_type":"usage"}');
    expect(usage).toMatchObject({ llm_requests: 4, tokens: { input: 6900, output: 460, cache_write: 64, cache_read: 4800 }, tokens_with_subagents: { input: 8200 } });
    expect(usage.cost).toMatchObject({ partial: false, unpriced_models: [] });
  });
});
