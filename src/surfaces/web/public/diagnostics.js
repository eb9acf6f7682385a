// The diagnostics block of a session page: tokens by kind and cost, tools with failures, errors and warnings.

import { callTool } from './api.js';
import { h, table } from './dom.js';
import { cut, int, when } from './format.js';
import { evidenceHref, sessionHref } from './router.js';

const KINDS = [
  ['input', 'input_total'],
  ['output', 'output_total'],
  ['cache write', 'cache_write_total'],
  ['cache read', 'cache_read_total'],
  ['total', 'grand_total'],
];

export function diagnostics(sum, diag, costSlot, errorSlot) {
  const t = diag.tokens || {};
  const own = t.own || {};
  const tokens = table(
    [
      { label: 'tokens', cell: (k) => k[0] },
      { label: 'with sub-agents', class: 'num', cell: (k) => int(t[k[1]]) },
      { label: 'own', class: 'num', cell: (k) => int(own[k[1]]) },
    ],
    KINDS,
    { class: 'tokens' },
  );
  const tools = Object.entries((diag.tools && diag.tools.by_tool) || {}).sort((a, b) => b[1].failed - a[1].failed || b[1].called - a[1].called);
  const toolTable = tools.length
    ? table(
        [
          { label: 'tool', cell: ([name]) => name },
          { label: 'called', class: 'num', cell: ([, v]) => int(v.called) },
          { label: 'ok', class: 'num', cell: ([, v]) => int(v.succeeded) },
          { label: 'failed', class: 'num', cell: ([, v]) => (v.failed ? h('strong', { class: 'fail' }, int(v.failed)) : '0') },
        ],
        tools,
        { class: 'tools' },
      )
    : h('p', { class: 'muted' }, 'No tool calls.');
  return h(
    'section',
    { class: 'diagnostics' },
    h('h2', {}, 'Diagnostics'),
    h(
      'div',
      { class: 'grid' },
      h('div', {}, h('h3', {}, 'Tokens ', costSlot), tokens, h('p', { class: 'muted' }, `${int(diag.llm_calls)} LLM calls (${int(diag.llm_calls_own)} own) · ${int(diag.compactions)} compactions`)),
      h('div', {}, h('h3', {}, `Tools: ${int(diag.tools ? diag.tools.total_calls : 0)} calls, ${int(diag.tools ? diag.tools.failed : 0)} failed`), toolTable, errorSlot),
      h('div', {}, findings('Errors', sum.errors, sum.error_count, 'error'), findings('Warnings', sum.warnings, sum.warning_count, 'warning')),
    ),
    subAgents(diag.sub_agents || []),
  );
}

function findings(label, items, total, cls) {
  return h(
    'div',
    { class: `findings ${cls}s` },
    h('h3', {}, `${label}: ${int(total)}`),
    items && items.length
      ? h(
          'ul',
          {},
          items.map((f) =>
            h(
              'li',
              { class: `finding-${cls}` },
              h('span', { class: 'ftype' }, f.type), ' ',
              h('span', { class: 'fmsg', text: f.message }), ' ',
              h('span', { class: 'muted' }, when(f.timestamp)), ' ',
              f.file && f.line_number ? h('a', { href: evidenceHref(f.session_id, f.source, f.file, f.line_number), class: 'evidence' }, `${f.source}:${f.line_number}`) : null,
            ),
          ),
          total > items.length ? h('li', { class: 'muted' }, `… ${int(total - items.length)} more`) : null,
        )
      : h('p', { class: 'muted' }, 'None.'),
  );
}

function subAgents(list) {
  if (!list.length) return null;
  return h(
    'div',
    { class: 'subagents' },
    h('h3', {}, `Sub-agents: ${list.length}`),
    table(
      [
        { label: 'session', cell: (a) => h('a', { href: sessionHref(a.session_id) }, a.agent_name || a.kind, ' ', h('span', { class: 'muted id' }, a.session_id)) },
        { label: 'task', cell: (a) => h('span', { text: a.task || '' }) },
        { label: 'status', cell: (a) => h('span', { class: `badge st-${a.status}` }, a.status) },
        { label: 'events', class: 'num', cell: (a) => int(a.event_count) },
        { label: 'errors', class: 'num', cell: (a) => int(a.errors) },
        { label: 'tokens', class: 'num', cell: (a) => int(a.tokens_total) },
      ],
      list,
      { class: 'subagent-table' },
    ),
  );
}

/** The usage_report row of a session: its own row, or its entry under its parent's sub-agents. */
export function costFor(rows, id) {
  for (const r of rows || []) {
    if (r.key === id || r.session_id === id) return r;
    for (const s of r.subagents || []) if (s.session_id === id) return s;
  }
  return null;
}

// Where each format keeps the text of a failed tool result (asked for by path, capped by the tool).
const ERROR_TEXT_FIELDS = {
  'claude-code': ['message.content.0.content'],
  amplifier: ['data.result.error.message', 'data.error.message', 'data.error', 'content.0.content'],
  'control-plane': ['reason'],
};

/** Failed tool results and error events of the session itself, each linked to its raw line. */
export async function errorEvents(box, sum, ctx) {
  const fields = ERROR_TEXT_FIELDS[sum.format];
  const res = await callTool('get_events', { session_id: sum.session_id, errors_only: true, limit: 50, fields, max_bytes: 200000 });
  if (!ctx.live()) return;
  if (res.total_count === 0) {
    box.replaceChildren(h('h3', {}, 'Failed calls and error events: 0'));
    return;
  }
  // Collapsed when long, so the diagnostics stay one screen.
  box.replaceChildren(
    h(
      'details',
      { open: res.total_count <= 5 ? '' : undefined },
      h('summary', {}, `Failed calls and error events: ${int(res.total_count)}${res.total_count > res.returned ? ` (first ${res.returned})` : ''}`),
      h(
      'ul',
      { class: 'error-events' },
      res.events.map((e) => {
        const text = (fields || []).map((f) => (e.fields ? e.fields[f] : undefined)).find((v) => v !== undefined && v !== null);
        return h(
          'li',
          {},
          h('span', { class: 'ftype' }, e.kind), ' ',
          h('span', { class: 'muted' }, when(e.timestamp)), ' ',
          h('a', { href: evidenceHref(sum.session_id, e.ledger, e.file, e.line_number), class: 'evidence' }, `${e.ledger}:${e.line_number}`),
          text !== undefined ? h('div', { class: 'fmsg', text: cut(typeof text === 'string' ? text : JSON.stringify(text), 300) }) : null,
        );
      }),
      ),
    ),
  );
}
