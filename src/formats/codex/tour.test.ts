// Every tool on the Codex samples (test/format-tour.ts), with what each should say about them.

import { describe, expect, it } from 'vitest';
import { tourEveryTool } from '../../../test/format-tour.js';

const TUI = '019e1625-789d-76c0-80ab-3724b5ddb799';
const DESKTOP = '019e1695-0522-7c83-8b39-0dd379793f80';
const VSCODE = '01996135-afde-7911-97f0-d863511eca56';
type Obj = Record<string, any>;

describe('every tool on Codex sessions', async () => {
  const tour = await tourEveryTool('../shared/fixtures/other-agents/codex', undefined, 'tools');
  const result = (id: string, key: string) => tour.results.get(id)!.get(key) as Obj;

  it('answers every call', () => {
    expect(tour.failures).toEqual([]);
  });

  it('lists the three sessions as codex, with titles, models, status and times', () => {
    const byId = new Map(tour.sessions.map((s) => [s.session_id as string, s as Obj]));
    expect([...byId.keys()].sort()).toEqual([VSCODE, TUI, DESKTOP].sort());
    const tui = byId.get(TUI)!;
    expect(tui.format).toBe('codex');
    expect(tui.first_user_message).toBe('show tools');
    expect(tui.status).toBe('completed');
    expect(tui.models).toEqual(['gpt-5.5']);
    expect(tui.started_at).toBe('2026-05-11T08:27:17.490Z');
    expect(byId.get(DESKTOP)!.status).toBe('completed');
  });

  it('overview: turns, tool calls and the words of the first prompt', () => {
    const o = result(TUI, 'session_overview:{}');
    expect(JSON.stringify(o)).toContain('show tools');
    const stats = JSON.stringify(o);
    expect(stats).toContain('105');
  });

  it('get_session: the transcript holds each prompt once', () => {
    const g = result(TUI, 'get_session:{"include_transcript":true,"include_events_summary":true}');
    const text = JSON.stringify(g.transcript ?? g);
    expect(text.split('let\'s update the defailt context compart').length - 1).toBe(1);
  });

  it('usage: the TUI session as ccusage counts it; the Desktop one has no calls', () => {
    const rows = (tour.global.get('usage_report:{"group_by":"session"}') as Obj).rows as Obj[];
    const tui = rows.find((r) => r.session_id === TUI)!;
    expect(tui.tokens).toMatchObject({ input: 1_126_300, output: 9_118, cache_read: 4_929_536, cache_write: 0 });
    expect(tui.cost_usd).toBeCloseTo(8.369808, 6);
    expect(tui.calls).toBe(66);
    expect(rows.find((r) => r.session_id === DESKTOP)).toBeUndefined();
    const vscode = rows.find((r) => r.session_id === VSCODE)!;
    expect(vscode.unpriced_models).toEqual([]);
    expect(vscode.cost_usd).toBeCloseTo(0.309737, 4); // as ccusage 20 prices aide-gpt-5 (as gpt-5)
  });

  it('says the Desktop session records no usage rather than zero', () => {
    const g = result(DESKTOP, 'get_session:{"include_transcript":true,"include_events_summary":true}');
    expect(JSON.stringify(g)).toContain('"usage":"unknown"');
    const a = result(DESKTOP, 'analyze_events:{"analysis_type":"usage"}');
    expect(JSON.stringify(a)).not.toContain('"calls":1');
  });

  it('search finds a prompt, exports replay and markdown with the conversation', () => {
    const search = tour.global.get('search_sessions:{"query":"tools"}') as Obj;
    expect(JSON.stringify(search)).toContain(TUI);
    const replay = (result(TUI, 'export_session:{"format":"replay"}').content as string).split('\n').filter(Boolean).map((l) => JSON.parse(l) as Obj);
    expect(replay[0]).toMatchObject({ session: TUI, format: 'codex', cwd: '/Users/Sample_User/repos/codemie-ai/codemie-code', branch: 'feat/codex-agent-plugin', version: '0.125.0' });
    expect(replay.filter((e) => e.r === 'user' && typeof e.m === 'string').map((e) => e.m)).toEqual(['show tools', "let's update the defailt context compart to 90 in env var"]);
    expect(replay.some((e) => e.tool === 'bash' && typeof e.args?.command === 'string')).toBe(true);
    expect(replay.some((e) => e.tool === 'apply_patch')).toBe(true);
    expect(replay.some((e) => e.tool_result === 'write_stdin' && e.status === 'error')).toBe(true);
    const md = JSON.stringify(result(TUI, 'export_session:{"format":"markdown"}'));
    expect(md).toContain('show tools');
  });

  it('reconstruct_session shows the conversation in order', () => {
    const r = result(TUI, 'reconstruct_session:{}');
    const text = JSON.stringify(r);
    expect(text.indexOf('show tools')).toBeGreaterThan(-1);
    expect(text.indexOf('show tools')).toBeLessThan(text.indexOf('defailt context'));
  });
});
