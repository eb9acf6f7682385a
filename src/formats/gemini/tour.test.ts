// Every tool on the real Gemini samples (two legacy documents and the JSONL sample), ingested as
// one home: each call answers ok, and the answers say what the chats say.

import { cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tourEveryTool, type Tour } from '../../../test/format-tour.js';
import { FIXTURES, tempDir } from '../../../test/helpers.js';
import { generateGemini } from '../../../bench/generators/gemini.js';

const SAMPLE = '0ab84937-9fe7-4284-986a-33c832af0b6a';
const TOOLS = '37b7abef-713d-4522-85f0-8ff15a4e6d17';
const HI = '5b959dae-8655-4cd1-b10f-720b8c336ea2';

type Any = Record<string, any>;
let tour: Tour;
const result = (id: string, key: string) => tour.results.get(id)!.get(key) as Any;
const global = (key: string) => tour.global.get(key) as Any;

beforeAll(async () => {
  const home = tempDir('hs-gemini-tour-');
  cpSync(join(FIXTURES, 'other-agents', 'gemini', 'tmp'), join(home, 'tmp'), { recursive: true });
  const chats = join(home, 'tmp', '9da8b3dfb8655182ac1f0e66601c367e34f8d18447a29759eeba4d7e45dc60ea', 'chats');
  mkdirSync(chats, { recursive: true });
  cpSync(join(FIXTURES, 'other-agents', 'gemini', 'session-sample.jsonl'), join(chats, 'session-2026-04-23T12-52-0ab84937.jsonl'));
  tour = await tourEveryTool(home, 'gemini');
}, 120_000);

describe('every tool on the Gemini samples', () => {
  it('answers every call', () => {
    expect(tour.failures).toEqual([]);
    expect(tour.sessions).toHaveLength(3);
  });

  it('lists each session with its first message, turns, status, models and times', () => {
    const rows = Object.fromEntries((global('list_sessions:{"limit":500}').sessions as Any[]).map((s) => [s.session_id, s]));
    expect(rows[SAMPLE]).toMatchObject({
      format: 'gemini',
      first_user_message: '/init',
      turn_count: 2,
      status: 'interrupted',
      models: ['gemini-3-flash-preview', 'gemini-3.1-pro-preview'],
      started_at: '2026-04-23T12:52:52.759Z',
      ended_at: '2026-04-23T12:58:35.591Z',
      tokens: { input: 153_635, cache_read: 48_951, cache_write: 0 },
    });
    expect(rows[TOOLS]).toMatchObject({ first_user_message: 'show tools', turn_count: 5, status: 'completed', models: ['gemini-3-pro'], started_at: '2026-01-16T11:01:22.281Z', ended_at: '2026-01-16T12:34:29.823Z' });
    expect(rows[HI]).toMatchObject({ first_user_message: 'hi', turn_count: 3, status: 'completed', models: ['gemini-3-pro-image-preview'], project: 'fb8e242a6fbbb5c48a1d0be57a8a4cc934d33e0a1caf73ab5d4ecaa17269960c' });
  });

  it('overviews count the tool calls and tell how the session went', () => {
    const tools = result(TOOLS, 'session_overview:{}');
    expect(tools.diagnostics.tools).toMatchObject({ total_calls: 14, failed: 0 });
    expect(tools.diagnostics.tools.by_tool.write_file.called).toBeGreaterThan(0);
    expect(tools.summary.about).toContain('“show tools”');
    expect(tools.summary.about).toContain('ended cleanly');
    const sample = result(SAMPLE, 'session_overview:{}');
    expect(sample.summary.about).toContain('interrupted');
    expect(sample.summary.about).toMatch(/read seven files, edited one/);
    expect(sample.summary.top_user_messages).toEqual(['/init', '幫我做一個小修改 請幫我將上面確保執行時要透過 uv run 來執行 避免環境有問題']);
    expect(sample.diagnostics.tools.total_calls).toBe(12);
  });

  it('shows a JSONL message in full mode as written, the expanded /init prompt left out unless asked', () => {
    const rows = result(SAMPLE, 'reconstruct_session:{"verbosity":"full"}').timeline as Any[];
    const init = rows.find((r) => r.kind === 'user_message')!;
    expect(init.payload).toMatchObject({ id: '8828dd6a-d778-464f-8160-eb2e1604a122', type: 'user', displayContent: [{ text: '/init' }] });
    expect(init.payload.omitted.content).toBeGreaterThan(1000);
  });

  it('counts each LLM call once with its cost, and reads tool calls, results and thinking apart', () => {
    const usage = result(SAMPLE, 'analyze_events:{"analysis_type":"usage"}');
    expect(usage.llm_requests).toBe(6);
    expect(usage.cost.cost_usd).toBeCloseTo(0.158963, 6);
    expect(usage.tool_calls_by_name).toEqual({ read_file: 7, update_topic: 3, replace: 1, write_file: 1 });
    const summary = result(SAMPLE, 'analyze_events:{"analysis_type":"summary"}');
    expect(summary.event_kinds).toMatchObject({ tool_call: 12, tool_result: 12, llm_call: 6, user_message: 3, assistant_message: 2, thinking: 7 });
    const timeline = result(SAMPLE, 'analyze_events:{"analysis_type":"timeline"}');
    expect(timeline.turns.map((t: Any) => t.llm_calls)).toEqual([5, 1]);
  });

  it('exports a replay that reads like the chat, and the JSONL chat line for line', () => {
    const replay = String(result(SAMPLE, 'export_session:{"format":"replay"}').content).split('\n').filter(Boolean).map((l) => JSON.parse(l) as Any);
    expect(replay[0]).toMatchObject({ session: SAMPLE, format: 'gemini' });
    expect(replay).toContainEqual(expect.objectContaining({ r: 'user', m: '/init', kind: 'command' }));
    expect(replay).toContainEqual(expect.objectContaining({ r: 'assistant', tool: 'read_file', args: { file: 'README.md' } }));
    expect(replay).toContainEqual(expect.objectContaining({ r: 'system', msg: 'Request cancelled.' }));
    const jsonl = String(result(SAMPLE, 'export_session:{"format":"jsonl"}').content).trim().split('\n');
    expect(jsonl).toHaveLength(28);
    expect(result(SAMPLE, 'export_session:{"format":"markdown"}').content).toContain('/init');
  });

  it('reads raw lines and greps them, and inspects files touched', () => {
    expect(result(SAMPLE, 'raw_lines:{}').count).toBe(28);
    expect(result(HI, 'grep_jsonl:{"pattern":"\\""}').count).toBeGreaterThan(100);
    expect(result(SAMPLE, 'inspect_metrics:{"view":"session"}').session).toMatchObject({ steps: 6, tool_calls: 12, files: expect.arrayContaining(['GEMINI.md']), status: 'interrupted' });
  });

  it('reports usage by day and session, and finds sessions by their words', () => {
    expect((global('usage_report:{"group_by":"daily"}').rows as Any[]).map((r) => r.key)).toEqual(['2025-12-01', '2026-01-16', '2026-04-23']);
    expect(global('usage_report:{"group_by":"session"}').totals.partial).toBe(false);
    expect((global('search_sessions:{"query":"the"}').matches as Any[]).length).toBeGreaterThan(0);
    expect(global('inspect_metrics:{"view":"stats","days":3660}')).toMatchObject({ sessions: 3, completed: 2, interrupted: 1, by_format: { gemini: 3 } });
  });
});

describe('every tool on a generated Gemini home (sub-agents, both layouts, failed calls, a rewind)', () => {
  let generated: Tour;
  beforeAll(async () => {
    const home = tempDir('hs-gemini-gen-tour-');
    // Seed 2: four sub-agent chats, one legacy document, one cancelled session, eight failed calls, one rewind.
    generateGemini(home, { sessions: 6, seed: 2 });
    generated = await tourEveryTool(home, 'gemini');
  }, 180_000);

  it('answers every call, sub-agents folded into their parents', () => {
    expect(generated.failures).toEqual([]);
    const sessions = generated.sessions as Any[];
    expect(sessions).toHaveLength(6); // top-level only
    const withChildren = sessions.filter((s) => s.children > 0);
    expect(withChildren.length).toBeGreaterThan(0);
    const usage = generated.global.get('usage_report:{"group_by":"session"}') as Any;
    expect((usage.rows as Any[]).some((r) => r.subagents.length > 0)).toBe(true);
    expect(usage.totals.partial).toBe(false);
  });

  it('lists failed tool calls with what the tool sent back', () => {
    const failures = [...generated.results.values()].flatMap((m) => ((m.get('session_overview:{}') as Any).summary.errors as Any[]));
    expect(failures.length).toBeGreaterThan(0);
    expect(failures.some((e) => typeof e.message === 'string' && e.message.startsWith('Error: '))).toBe(true);
  });
});
