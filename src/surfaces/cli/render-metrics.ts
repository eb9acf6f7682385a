// Text views of inspect_metrics for `hindsight inspect --metrics`: the recent sessions table, one
// session turn by turn, and the aggregate statistics.

import { statusStyle, type Paint } from './colour.js';
import { count, time, usd } from './render-tools.js';
import { table } from './table.js';
import { plural } from './plural.js';

type Obj = Record<string, any>;

/** Past an hour, minutes are rounded to the nearest, as `show` words them (1h12m49s → 1h13m, "1 hour 13 minutes"). */
function seconds(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  const minutes = Math.round(s / 60);
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}


/**
 * The session line: its figures include its sub-agents' (as tokens and cost do), so it says how
 * much of them is the session's own — the figure `show` prints for its tools.
 */
function sessionCounts(s: Obj, subagents: Obj[]): string {
  const line = `${plural(s.turns, 'turn')}, ${plural(s.steps, 'step')}, ${plural(s.tool_calls, 'tool call')} (${s.tool_errors} failed), ${plural(s.files_touched, 'file')} changed`;
  if (!subagents.length) return line;
  const sum = (k: string) => subagents.reduce((a, c) => a + (Number(c[k]) || 0), 0);
  return `${line}, ${plural(subagents.length, 'sub-agent')} included (the session itself: ${plural(s.steps - sum('steps'), 'step')}, ${plural(s.tool_calls - sum('tool_calls'), 'tool call')})`;
}

function recent(r: Obj, paint: Paint): string {
  const rows = (r.sessions ?? []) as Obj[];
  if (!rows.length) return 'No sessions in the store yet: run hindsight ingest first.';
  // The Mode column (ask, chat, run) belongs to runtime sessions: shown when a row has one.
  const keep = (_: unknown, i: number) => i !== 1 || rows.some((s) => s.mode);
  const out = table(
    [
      { head: 'DATE' },
      { head: 'MODE' },
      { head: 'FORMAT' },
      { head: 'MODEL' },
      { head: 'STEPS' },
      { head: 'TOOL CALLS' },
      { head: 'STATUS', style: statusStyle },
      { head: 'FILES' },
      { head: 'SESSION' },
    ].filter(keep),
    rows.map((s) => [
      time(s.date).slice(0, 16),
      s.mode ?? '',
      s.format,
      s.model ?? '—',
      String(s.steps),
      s.tool_errors ? `${s.tool_calls} (${s.tool_errors} failed)` : String(s.tool_calls),
      s.status,
      String(s.files_touched),
      `${s.session_id}  ${s.title ?? ''}`,
    ].filter(keep)),
    paint,
  );
  const next = r.has_more ? `\n${r.returned} of ${r.count} sessions; next page: hindsight inspect --metrics --offset ${r.next_offset}` : '';
  return `${out}${next}`;
}

function oneSession(r: Obj, paint: Paint): string {
  const s: Obj = r.session;
  const head = [
    `${paint('bold', s.session_id)}  ${s.format}  ${paint(statusStyle(s.status) ?? 'dim', s.status)}${s.failure_mode ? ` (${s.failure_mode})` : ''}`,
    `${time(s.started_at)} → ${time(s.ended_at)} (${seconds(s.duration_ms)})  model ${s.model ?? '—'}`,
    sessionCounts(s, r.subagents ?? []),
    `tokens ${count(s.tokens.total)} (in ${count(s.tokens.input)}, out ${count(s.tokens.output)}, cache write ${count(s.tokens.cache_write)}, cache read ${count(s.tokens.cache_read)})  cost ${usd(s.cost.cost_usd, s.cost.partial)}`,
  ];
  const turns = table(
    [{ head: 'TURN' }, { head: 'USER AT' }, { head: 'TOOK' }, { head: 'STEPS' }, { head: 'TOOLS' }, { head: 'TOKENS' }, { head: 'COST' }],
    ((r.turns ?? []) as Obj[]).map((t) => [
      String(t.turn_num),
      time(t.user_ts),
      seconds(t.duration_ms),
      String(t.llm_calls),
      String(t.tool_calls),
      count(t.tokens.total),
      usd(t.cost_usd, false),
    ]),
    paint,
  );
  const files = s.files?.length ? `\nfiles changed:\n${(s.files as string[]).map((f) => `  ${f}`).join('\n')}` : '';
  const next = r.has_more ? `\n${r.returned} of ${r.count} turns; next page: --offset ${r.next_offset}` : '';
  return `${head.join('\n')}\n\n${turns}${next}${files}`;
}

function stats(r: Obj, paint: Paint): string {
  const pct = r.success_rate === null ? '—' : `${(r.success_rate * 100).toFixed(1)}%`;
  const lines = [
    paint('bold', `${r.window.from} → ${r.window.until} (${r.window.days} days)`),
    `sessions        ${r.sessions} (completed ${r.completed}, failed ${r.failed}: errored ${r.errored}, interrupted ${r.interrupted}; active ${r.active})`,
    `success rate    ${pct} of the sessions that ended`,
    `steps           ${r.total_steps} (avg ${r.avg_steps ?? '—'} per session)`,
    `tool calls      ${r.total_tool_calls} (avg ${r.avg_tool_calls ?? '—'}; ${r.tool_errors} failed)`,
    `tokens          ${count(r.tokens.total)} (in ${count(r.tokens.input)}, out ${count(r.tokens.output)}, cache write ${count(r.tokens.cache_write)}, cache read ${count(r.tokens.cache_read)})`,
    `cost            ${usd(r.cost.cost_usd, r.cost.partial)}${r.cost.unpriced_models.length ? ` (no price for ${r.cost.unpriced_models.join(', ')})` : ''}`,
  ];
  if (r.top_models.length) {
    lines.push('', paint('bold', 'top models'));
    for (const m of r.top_models as Obj[]) lines.push(`  ${m.model}  ${m.calls} calls in ${m.sessions} session${m.sessions === 1 ? '' : 's'}`);
  }
  if (r.top_failure_modes.length) {
    lines.push('', paint('bold', 'top failure modes'));
    for (const f of r.top_failure_modes as Obj[]) lines.push(`  ${f.sessions}× ${f.mode}  (e.g. ${f.example_session})`);
  }
  lines.push('', paint('dim', `prices as of ${r.prices_as_of}`));
  return lines.join('\n');
}

export function renderMetrics(r: Obj, paint: Paint): string {
  return r.view === 'session' ? oneSession(r, paint) : r.view === 'stats' ? stats(r, paint) : recent(r, paint);
}
