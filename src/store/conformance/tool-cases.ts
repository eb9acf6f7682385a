// The representative tool calls the conformance suite makes on both engines: every registry tool,
// with arguments derived from what the fixtures hold (every session, every plane root and ledger).

import type { Store } from '../store.js';

export interface ToolCase {
  tool: string;
  args: Record<string, unknown>;
}

const SEARCHES = ['session', 'error test', '"the file"', 'refact*', 'budget', 'TypeError', 'fix* bug', 'ho2m', 'ledger', 'naïve café'];

/** Every call to make, grouped by tool name. */
export async function toolCases(store: Store): Promise<Map<string, ToolCase[]>> {
  const { sessions } = await store.listSessions({ limit: 10_000, offset: 0 });
  const roots = await store.listRoots();
  const planes = roots.filter((r) => r.format === 'control-plane').map((r) => r.path);
  const cases = new Map<string, ToolCase[]>();
  const add = (tool: string, args: Record<string, unknown>) => {
    const list = cases.get(tool) ?? [];
    list.push({ tool, args });
    cases.set(tool, list);
  };

  add('list_sessions', {});
  add('list_sessions', { top_level_only: false, limit: 500 });
  add('list_sessions', { top_level_only: false, limit: 3, offset: 2 });
  for (const format of ['claude-code', 'amplifier', 'control-plane']) add('list_sessions', { format, top_level_only: false });
  for (const status of ['completed', 'active', 'errored', 'interrupted']) add('list_sessions', { status, top_level_only: false });
  add('list_sessions', { model: 'opus' });
  add('list_sessions', { model: 'SONNET', top_level_only: false });
  add('list_sessions', { date_range: '2024-01-01:2026-12-31' });
  add('list_sessions', { project: sessions.find((s) => s.project)?.project ?? 'none' });

  for (const query of SEARCHES) {
    add('search_sessions', { query });
    add('search_sessions', { query, limit: 500, max_bytes: 10_000_000 });
    add('search_sessions', { query, scope: 'transcript', context_lines: 1, limit: 50 });
    add('search_sessions', { query, scope: 'metadata' });
  }
  add('search_sessions', { query: 'the', format: 'claude-code', limit: 5, offset: 3 });

  // From the evidence, where each engine's stored gram filters choose the blocks to inflate: a
  // literal few blocks hold, one most hold, one ignoring case, one too short to skip by.
  for (const pattern of ['TypeError', 'budget_exhausted', '"type":"assistant"', 'naïve', 'rror']) {
    add('grep_jsonl', { scope: 'all', pattern, read_from: 'evidence', limit: 40, max_bytes: 10_000_000 });
  }
  add('grep_jsonl', { scope: 'all', pattern: 'TYPEERROR', ignore_case: true, read_from: 'evidence', limit: 40, max_bytes: 10_000_000 });

  // Every grouping in every cost mode, with and without model breakdowns (both engines read usage_calls grouped).
  for (const group_by of ['daily', 'weekly', 'monthly', 'session', 'project']) {
    add('usage_report', { group_by });
    for (const mode of ['auto', 'calculate', 'display']) add('usage_report', { group_by, breakdown: true, mode, limit: 500, max_bytes: 10_000_000 });
  }
  add('usage_report', { group_by: 'daily', since: '2025-01-01', until: '2026-12-31', mode: 'display' });
  add('usage_report', { group_by: 'weekly', start_of_week: 'monday', format: 'claude-code' });
  // Blocks read the calls one by one (session timelines); a fixed now makes the active block and its projection part of the comparison.
  add('usage_report', { group_by: 'blocks', breakdown: true, now: '2026-02-11T23:30:00Z', limit: 500, max_bytes: 10_000_000 });

  add('sources', { section: 'files', limit: 500 });
  add('sources', { limit: 500 });
  add('sources', { severity: 'error', limit: 500 });
  add('sources', { kind: 'malformed_json' });
  add('sources', { severity: 'warning', offset: 5, limit: 10 });

  for (const root of planes) {
    for (const ledger of ['governance', 'ho2m', 'ho1m']) {
      add('verify_ledger', { root, ledger });
      add('query_ledger', { root, ledger, max_entries: 20 });
      add('query_ledger_full', { root, ledger, max_entries: 15, offset: 3 });
      add('grep_jsonl', { root, ledger, pattern: 'TURN|EXCHANGE|error', ignore_case: true, limit: 30 });
    }
    add('query_ledger', { root, ledger: 'ho2m', event_type: 'TURN_RECORDED' });
    add('query_ledger_full', { root, ledger: 'governance', event_type: 'EXCHANGE', max_entries: 50 });
  }

  for (const s of sessions) {
    const session_id = s.id;
    add('session_overview', { session_id });
    add('reconstruct_session', { session_id, limit: 60 });
    add('reconstruct_session', { session_id, offset: 10, limit: 25, verbosity: 'full', include_prompts: true });
    add('reconstruct_session', { session_id, include_subagents: false, include_tool_payloads: false, verbosity: 'full', limit: 40 });
    add('get_session', { session_id, include_transcript: true, transcript_limit: 20 });
    add('get_events', { session_id, limit: 40 });
    add('get_events', { session_id, errors_only: true });
    add('get_events', { session_id, event_types: ['tool_call', 'assistant'], fields: ['message.usage.input_tokens', 'type'], limit: 20 });
    for (const analysis_type of ['summary', 'errors', 'timeline', 'usage']) add('analyze_events', { session_id, analysis_type, limit: 30 });
    for (const format of ['replay', 'markdown', 'jsonl']) add('export_session', { session_id, format, max_bytes: 60_000 });
    add('raw_lines', { session_id, limit: 30 });
    add('raw_lines', { session_id, from_line: 5, limit: 7 });
    add('query_ledger', { session_id, max_entries: 15 });
    add('query_ledger_full', { session_id, max_entries: 10, offset: 2 });
    add('grep_jsonl', { session_id, pattern: '"type"', limit: 10 });
    add('rewind_session', { session_id, to_turn: 1 });
    add('inspect_metrics', { view: 'session', session_id });
  }
  add('session_overview', { session_id: 'no-such-session' });
  add('inspect_metrics', { view: 'recent' });
  add('inspect_metrics', { view: 'stats', until: '2026-11-01', days: 3660 });
  add('list_files', { path: '.' });
  add('read_file', { path: 'README.md', limit: 5 });
  // Store-independent: both engines must answer it identically (and never touch the store).
  add('parse_tool_calls', { parser: 'hermes', text: 'Hi<tool_call>{"name": "f", "arguments": {"x": 1}}</tool_call>' });
  add('parse_tool_calls', { parser: 'qwen3_coder', deltas: ['<tool_call>\n<function=f>\n<parameter=n>\n7\n</para', 'meter>\n</function>\n</tool_call>'] });
  add('parse_tool_calls', { parser: 'no_such_parser', text: 'x' });
  return cases;
}
