// The diagnostics block of a session page: tokens by kind and cost, tools with failures, errors and warnings.

import { h, table } from './dom.js';
import { int, when } from './format.js';
import { evidenceHref, sessionHref } from './router.js';

const KINDS = [
  ['input', 'input_total'],
  ['output', 'output_total'],
  ['cache write', 'cache_write_total'],
  ['cache read', 'cache_read_total'],
  ['total', 'grand_total'],
];

export function diagnostics(sum, diag, costSlot) {
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
      h('div', {}, h('h3', {}, `Tools: ${int(diag.tools ? diag.tools.total_calls : 0)} calls, ${int(diag.tools ? diag.tools.failed : 0)} failed`), toolTable),
      h('div', {}, findings('Errors', sum.errors, sum.error_count, 'error'), findings('Warnings', sum.warnings, sum.warning_count, 'warning')),
    ),
    subAgents(diag.sub_agents || []),
  );
}

/**
 * Errors or warnings as the overview lists them (failed tool calls included, with what the tool
 * sent back), each linked to its raw line. Long lists start folded so the diagnostics stay one screen.
 */
function findings(label, items, total, cls) {
  const heading = `${label}: ${int(total)}${items && total > items.length ? ` (first ${int(items.length)})` : ''}`;
  if (!items || !items.length) return h('div', { class: `findings ${cls}s` }, h('h3', {}, heading), h('p', { class: 'muted' }, 'None.'));
  const list = h(
    'ul',
    {},
    items.map((f) =>
      h(
        'li',
        { class: `finding-${cls}` },
        h('span', { class: 'ftype' }, f.type), ' ',
        f.tool_name ? [h('span', { class: 'ftool' }, f.tool_name), ' '] : null,
        h('span', { class: 'muted' }, when(f.timestamp)), ' ',
        f.file && f.line_number ? h('a', { href: evidenceHref(f.session_id, f.source, f.file, f.line_number), class: 'evidence' }, `${f.source}:${f.line_number}`) : null,
        h('div', { class: 'fmsg', text: f.message }),
      ),
    ),
    total > items.length ? h('li', { class: 'muted' }, `… ${int(total - items.length)} more`) : null,
  );
  return h('div', { class: `findings ${cls}s` }, h('details', { open: items.length <= 5 ? '' : undefined }, h('summary', {}, h('h3', {}, heading)), list));
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
