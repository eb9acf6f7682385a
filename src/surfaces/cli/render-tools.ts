// Text views of tool results for people: the overview (`show`), the timeline, grep matches and
// ledger entries. They read the same envelopes `--json` prints, so the two never disagree.

import { statusStyle, type Paint } from './colour.js';
import { cut, table } from './table.js';
import { costLabel, type SessionCost } from '../../analysis/session-cost.js';
import { plural } from './plural.js';

type Obj = Record<string, any>;

function more(r: Obj, noun: string, hint: string): string {
  const shown = `${r.returned ?? 0} of ${r.count ?? 0} ${noun}`;
  const cutNote = r.truncated ? ' (cut to fit max_bytes)' : '';
  return r.has_more ? `${shown}${cutNote}; next page: ${hint} --offset ${r.next_offset}` : `${shown}${cutNote}`;
}

export function time(ts: string | null | undefined): string {
  return ts ? ts.replace('T', ' ').replace('Z', '') : '—';
}

/** Word-wrap a paragraph for reading at a terminal. */
function wrap(text: string, width: number): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.join('\n');
}

export function count(n: number): string {
  return n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e4 ? `${(n / 1e3).toFixed(1)}k` : String(n);
}

/**
 * An error's message in at most four lines: its first line and its last three (a failed command
 * says what went wrong at the end of its output).
 */
function messageLines(message: string): string[] {
  const all = message.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  return all.length <= 4 ? all : [all[0]!, '…', ...all.slice(-3)];
}

/** The overview's cost: never $0 for calls whose model has no price (they are named instead). */
function costLine(c: Obj): string {
  const unpriced = (c.unpriced_models ?? []).length ? `; no price for ${c.unpriced_models.join(', ')}` : '';
  return `Cost: ${costLabel(c as SessionCost)}${c.calls ? ` for ${c.calls} LLM call${c.calls === 1 ? '' : 's'}` : ''}${unpriced} (prices as of ${c.prices_as_of})`;
}

export function renderOverview(r: Obj, paint: Paint): string {
  const s: Obj = r.summary ?? {};
  const d: Obj = r.diagnostics ?? {};
  const t: Obj = d.tokens ?? {};
  const lines = [
    `${paint('bold', `Session ${s.session_id}`)}  ${paint(statusStyle(s.status), s.status)}  ${s.format}${s.kind && s.kind !== 'root' ? ` ${s.kind}` : ''}`,
    `${time(s.started_at)} → ${time(s.ended_at)}${s.duration ? ` (${s.duration})` : ''}, ${s.turn_count} turn${s.turn_count === 1 ? '' : 's'}${s.project ? `, ${s.project}` : ''}`,
    '',
    wrap(s.about ?? '', Math.min(process.stdout.columns || 100, 100)),
    '',
    `Tokens: ${count(t.input_total ?? 0)} in, ${count(t.output_total ?? 0)} out, ${count(t.cache_write_total ?? 0)} cache write, ${count(t.cache_read_total ?? 0)} cache read = ${count(t.grand_total ?? 0)}` +
      `${d.llm_calls !== undefined ? ` over ${d.llm_calls} LLM calls` : ''}${d.sub_agent_count && d.llm_calls_own !== undefined ? ` with sub-agents (${d.llm_calls_own} in this session)` : ''}${(d.models ?? []).length ? ` (${d.models.join(', ')})` : ''}`,
  ];
  if (d.cost) lines.push(costLine(d.cost));
  const tools = Object.entries((d.tools?.by_tool ?? {}) as Record<string, Obj>);
  if (tools.length) {
    lines.push(
      // Tool counts are the session's own; its sub-agents' calls are counted in their own sessions.
      `Tools (${d.tools.total_calls} calls${d.sub_agent_count ? ' in this session, sub-agents not included' : ''}): ` +
        tools.map(([name, c]) => `${name} ${c.called}${c.failed ? paint('red', ` (${c.failed} failed)`) : ''}`).join(', '),
    );
  }
  if (d.work_orders?.total) {
    const byType = Object.entries(d.work_orders.by_type ?? {}).map(([k, v]) => `${v} ${k}`).join(', ');
    const byState = Object.entries(d.work_orders.by_state ?? {}).map(([k, v]) => `${v} ${k}`).join(', ');
    lines.push(`Work orders (${d.work_orders.total}): ${byType}; ${byState}`);
  }
  if (d.quality_gates && (d.quality_gates.passed || d.quality_gates.rejected)) {
    lines.push(`Quality gates: ${d.quality_gates.passed} passed, ${d.quality_gates.rejected} rejected`);
  }
  const ledgers = Object.entries(d.ledger_events ?? {}).map(([k, v]) => `${k} ${v}`);
  if (ledgers.length) lines.push(`Ledger events: ${ledgers.join(', ')}`);
  for (const [label, items, total, style] of [
    ['Errors', s.errors ?? [], s.error_count, 'red'],
    ['Warnings', s.warnings ?? [], s.warning_count, 'yellow'],
  ] as const) {
    if (!items.length) continue;
    const shown = typeof total === 'number' && total > items.length ? `${items.length} of ${total}` : String(items.length);
    lines.push('', paint(style, `${label} (${shown}):`));
    for (const e of items as Obj[]) {
      lines.push(`  ${time(e.timestamp)}  ${e.type}${e.tool_name ? ` ${e.tool_name}` : ''}  ${paint('dim', `${e.file}:${e.line_number}`)}`);
      for (const text of messageLines(String(e.message ?? ''))) lines.push(`      ${cut(text, 110)}`);
    }
  }
  if ((d.sub_agents ?? []).length) {
    lines.push('', `Sub-agents (${d.sub_agents.length}):`);
    for (const c of d.sub_agents as Obj[]) {
      lines.push(`  ${c.session_id}  ${paint(statusStyle(c.status), c.status)}  ${c.agent_name ?? c.kind}  ${plural(c.event_count, 'event')}`);
    }
  }
  if ((s.top_user_messages ?? []).length) {
    lines.push('', 'First user messages:');
    for (const m of s.top_user_messages as string[]) lines.push(`  • ${cut(m, 110)}`);
  }
  if (r.truncated) lines.push('', paint('dim', '(lists cut to fit max_bytes)'));
  return lines.join('\n');
}

/**
 * rg-style lines: [session ledger] file:line:offset: the excerpt around the match, the match in red
 * on a terminal and between » « markers otherwise (so it shows in a pipe too).
 */
export function renderGrep(r: Obj, paint: Paint): string {
  const skipped = skippedFiles(r, paint);
  if (!(r.entries ?? []).length && !r.count) return [`No matches for ${JSON.stringify(r.pattern)} in ${r.scope === 'all' ? `${r.sessions_searched ?? 0} sessions` : r.source}.`, ...skipped].join('\n');
  const lines = (r.entries as Obj[]).map((e) => {
    const where = `${e.session_id !== undefined ? `${paint('cyan', e.session_id ?? '(no session)')} ${e.ledger} ` : ''}${paint('magenta', e.file)}:${paint('green', String(e.line_number))}`;
    if (typeof e.excerpt !== 'string' || !Array.isArray(e.excerpt_match)) return `${where}:${cut(e.raw, 400)}`;
    const [start, end] = e.excerpt_match as [number, number];
    const text = oneLineText(e.excerpt.slice(0, start)) + (paint.enabled ? paint('red', oneLineText(e.excerpt.slice(start, end))) : `»${oneLineText(e.excerpt.slice(start, end))}«`) + oneLineText(e.excerpt.slice(end));
    return `${where}:${e.match_offset}: ${text}`;
  });
  const noun = r.scope === 'all' ? `matches in ${r.sessions_searched} sessions` : `matches in ${r.source}`;
  return [...lines, paint('dim', more(r, noun, 'hindsight grep …')), ...skipped].join('\n');
}

/** The files a search of every session went on without, each with its error (files_skipped lists the first 100). */
function skippedFiles(r: Obj, paint: Paint): string[] {
  const listed = (r.files_skipped ?? []) as Obj[];
  const lines = listed.map((s) => paint('yellow', `skipped ${s.file}${s.line_number !== null ? ` from line ${s.line_number}` : ''}: ${s.error}`));
  const unlisted = (r.files_skipped_count ?? listed.length) - listed.length;
  if (unlisted > 0) lines.push(paint('yellow', `skipped ${plural(unlisted, 'more file')} (--json lists the first ${listed.length})`));
  return lines;
}

/** Control characters (a raw line holds none but JSON can escape some) shown as spaces, so one hit stays one line. */
function oneLineText(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]/g, ' ');
}

export function renderLedger(r: Obj, paint: Paint): string {
  if (!(r.entries ?? []).length) {
    const types = (r.event_types ?? []) as { type: string; count: number }[];
    return `No entries in ${r.source}${types.length ? `; event types here: ${types.map((t) => `${t.type} (${t.count})`).join(', ')}` : ''}.`;
  }
  const rows = (r.entries as Obj[]).map((e) => [
    time(e.timestamp_utc ?? e.timestamp),
    `${e.file}:${e.line_number}`,
    e.event_type ?? '',
    e.decision ?? '',
    e.reason || Object.keys(e.metadata ?? {}).join(', '),
  ]);
  return `${table(
    [{ head: 'TIME (UTC)', style: () => 'dim' }, { head: 'WHERE', style: () => 'dim' }, { head: 'EVENT' }, { head: 'DECISION' }, { head: 'REASON / METADATA' }],
    rows,
    paint,
  )}\n${more(r, `entries in ${r.source}`, 'hindsight ledger …')}`;
}

export function usd(v: number | null | undefined, partial: boolean): string {
  if (v === null || v === undefined) return 'unpriced';
  return `$${v.toFixed(2)}${partial ? '*' : ''}`;
}

/** ccusage-style usage table: one row per day / week / month / session / project (with --breakdown, a
 * row per model under each), then totals. */
export function renderUsage(r: Obj, paint: Paint): string {
  const rows = (r.rows ?? []) as Obj[];
  if (!rows.length) return 'No LLM calls in this range.';
  // Reasoning (Gemini's thoughts, outside output) gets a column only when some row has it.
  const reasoning = (r.totals?.tokens?.reasoning ?? 0) > 0;
  const line = (key: string, x: Obj) => [
    key,
    String(x.calls ?? ''),
    count(x.tokens.input),
    count(x.tokens.output),
    count(x.tokens.cache_write),
    count(x.tokens.cache_read),
    ...(reasoning ? [count(x.tokens.reasoning)] : []),
    count(x.tokens.total),
    usd(x.cost_usd, x.partial),
    (x.models ?? []).join(', '),
  ];
  const body: string[][] = [];
  for (const x of rows) {
    body.push(line(x.key, x));
    for (const m of (x.model_breakdowns ?? []) as Obj[]) body.push(line(`  └ ${m.model}`, { ...m, models: [] }));
  }
  const t: Obj = r.totals ?? {};
  body.push(line('TOTAL', t));
  const out = table(
    [
      { head: String(r.group_by ?? 'KEY').toUpperCase() },
      { head: 'CALLS' },
      { head: 'INPUT' },
      { head: 'OUTPUT' },
      { head: 'CACHE WRITE' },
      { head: 'CACHE READ' },
      ...(reasoning ? [{ head: 'REASONING' }] : []),
      { head: 'TOTAL' },
      { head: 'COST', style: (v: string) => (v === 'unpriced' || v.endsWith('*') ? 'yellow' : undefined) },
      { head: 'MODELS' },
    ],
    body,
    paint,
  );
  const notes: string[] = [];
  if ((t.unpriced_models ?? []).length) notes.push(`* partial cost: no price for ${t.unpriced_models.join(', ')} (never counted as $0)`);
  if (r.timezone && r.timezone !== 'UTC' && ['daily', 'weekly', 'monthly'].includes(r.group_by)) notes.push(paint('dim', `days in ${r.timezone}`));
  if (r.prices_as_of) notes.push(paint('dim', `prices as of ${r.prices_as_of}`));
  if (r.has_more) notes.push(`${r.returned} of ${r.count} rows; next page: --offset ${r.next_offset}`);
  return [out, ...notes].join('\n');
}

/** What a rewind would remove (dry run) or did (with --apply), and what to run next. */
export function renderRewind(r: Obj, paint: Paint): string {
  const t: Obj = r.target ?? {};
  const removed: Obj = r.removed ?? {};
  const lines = [
    `${paint('bold', r.applied ? 'Rewound' : 'Dry run — nothing changed (add --apply)')}: session ${r.session_id} (${r.format})`,
    `Cut before ${t.file ?? '?'}:${t.line_number ?? '?'}${t.timestamp ? ` (${time(t.timestamp)})` : ''}${t.adjusted ? ', moved to a message boundary' : ''}${t.moved_before_tool_calls ? ', moved before an unanswered tool call' : ''}`,
    `Turns ${r.turn_count_before} → ${r.turn_count_after}; removes ${plural(removed.messages ?? 0, 'message')}, ${plural(removed.events ?? 0, 'event')}, ${plural(removed.tool_calls ?? 0, 'tool call')}`,
  ];
  for (const f of (r.files ?? []) as Obj[]) lines.push(`  ${f.path}: ${f.lines_before} → ${f.lines_after} lines, ${f.bytes_before} → ${f.bytes_after} bytes`);
  for (const w of (r.warnings ?? []) as string[]) lines.push(paint('yellow', `  warning: ${w}`));
  for (const b of (r.backups ?? []) as (string | Obj)[]) lines.push(`  backup: ${typeof b === 'string' ? b : (b.backup ?? b.path ?? JSON.stringify(b))}`);
  if (r.next) lines.push(`Next: ${r.next}`);
  return lines.join('\n');
}

/** Search matches: where (session, file:line), what kind, and the excerpt. */
export function renderSearch(r: Obj, paint: Paint): string {
  const matches = (r.matches ?? r.results ?? []) as Obj[];
  const asked = `${paint('dim', 'Searched for:')} ${r.understood ?? r.query ?? ''}`;
  if (!matches.length) return `${asked}\nNo matches${r.count ? ` on this page (${r.count} in all)` : ''}.`;
  const lines: string[] = [asked];
  for (const m of matches) {
    const kind = m.match_field ? `${m.match_type}:${m.match_field}` : String(m.match_type ?? '');
    const where = m.line_number ? `${m.ledger ?? ''}:${m.line_number}` : kind;
    lines.push(`${paint('bold', String(m.session_id))}  ${paint('dim', `${time(m.started_at)}  ${m.format ?? ''}  ${where}`)}`);
    lines.push(`  ${cut(m.excerpt, 300)}`);
  }
  lines.push(paint('dim', more(r, 'matches', 'hindsight search …')));
  return lines.join('\n');
}
