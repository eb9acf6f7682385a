// The sessions list: filters, full-text search, sortable columns, sub-agents nested under their parent.

import { callTool, listFormats } from './api.js';
import { h } from './dom.js';
import { compact, costLabel, cut, duration, int, when } from './format.js';
import { costFor } from './diagnostics.js';
import { evidenceHref, route, sessionHref } from './router.js';

const PAGE = 500;
const FILTERS = ['format', 'project', 'status', 'date', 'model'];
const COLUMNS = [
  { key: 'session', label: 'Session', value: (r) => r.title || r.first_user_message || r.session_id },
  { key: 'format', label: 'Format', value: (r) => r.format },
  { key: 'project', label: 'Project', value: (r) => r.project || '' },
  { key: 'status', label: 'Status', value: (r) => r.status },
  { key: 'started', label: 'Started (UTC)', value: (r) => r.started_at || '' },
  { key: 'duration', label: 'Duration', value: (r) => r.duration_seconds ?? -1, num: true },
  { key: 'turns', label: 'Turns', value: (r) => r.turn_count ?? 0, num: true },
  { key: 'events', label: 'Events', value: (r) => r.event_count ?? 0, num: true },
  { key: 'tokens', label: 'Tokens', value: (r) => (r.tokens ? r.tokens.total : 0), num: true },
  { key: 'cost', label: 'Cost', value: (r) => (r.cost && r.cost.cost_usd !== null && r.cost.cost_usd !== undefined ? r.cost.cost_usd : -1), num: true },
];

function current(params) {
  const state = {};
  for (const k of [...FILTERS, 'q', 'sort', 'dir', 'offset']) state[k] = params.get(k) || '';
  return state;
}

function go(state) {
  window.location.hash = route(['sessions'], state);
}

export async function renderSessions(root, ctx) {
  const state = current(ctx.params);
  const formats = await listFormats();
  if (!ctx.live()) return;
  root.append(h('h1', {}, 'Sessions'), filterForm(state, formats));
  const body = h('div', { class: 'results' }, h('p', { class: 'muted' }, 'Loading…'));
  root.append(body);
  const filters = {
    format: state.format || undefined,
    project: state.project || undefined,
    date_range: state.date || undefined,
  };
  if (state.q) {
    const res = await callTool('search_sessions', { query: state.q, ...filters, limit: 100, context_lines: 0 });
    if (!ctx.live()) return;
    body.replaceChildren(searchResults(res, state));
    return;
  }
  const offset = Number(state.offset) || 0;
  // Costs come from usage_report's session rows (sub-agents folded into their parent, each
  // sub-agent also on its own); a failed cost lookup leaves the column at "—", not the list broken.
  const costs = callTool('usage_report', { group_by: 'session', format: filters.format, limit: 500, max_bytes: 5000000 }).catch(() => null);
  const res = await callTool('list_sessions', {
    ...filters,
    status: state.status || undefined,
    model: state.model || undefined,
    top_level_only: false,
    limit: PAGE,
    offset,
  });
  const report = await costs;
  if (!ctx.live()) return;
  for (const s of res.sessions) s.cost = report ? costFor(report.rows, s.session_id) : null;
  const projects = [...new Set(res.sessions.map((s) => s.project).filter(Boolean))].sort();
  root.querySelector('#project-list').replaceChildren(...projects.map((p) => h('option', { value: p })));
  body.replaceChildren(sessionTable(res.sessions, state), pager(res, state));
}

/** A filter's select; each option is a value, or `{ value, label }` when the label differs. */
function select(name, label, options, value) {
  const option = (o) => (typeof o === 'string' ? { value: o, label: o } : o);
  return h(
    'label',
    {},
    label,
    ' ',
    h('select', { name }, h('option', { value: '' }, 'any'), options.map(option).map((o) => h('option', { value: o.value, selected: o.value === value }, o.label))),
  );
}

/** `formats`: the server's formats (listFormats), so a new format needs no change here. */
function filterForm(state, formats) {
  const form = h(
    'form',
    { class: 'filters', role: 'search' },
    h('label', { class: 'grow' }, 'Search ', h('input', { type: 'search', name: 'q', value: state.q, placeholder: 'words, "a phrase", prefix*' })),
    select('format', 'Format', formats.map((f) => ({ value: f.id, label: f.label })), state.format),
    h('label', {}, 'Project ', h('input', { type: 'text', name: 'project', value: state.project, placeholder: 'slug or path', list: 'project-list' }), h('datalist', { id: 'project-list' })),
    h(
      'label',
      {},
      'Date ',
      h('input', { type: 'text', name: 'date', value: state.date, placeholder: 'YYYY-MM-DD[:YYYY-MM-DD]', list: 'date-presets' }),
      h('datalist', { id: 'date-presets' }, ['today', 'yesterday', 'last_week', 'last_month'].map((d) => h('option', { value: d }))),
    ),
    select('status', 'Status', ['completed', 'active', 'errored', 'interrupted'], state.status),
    h('label', {}, 'Model ', h('input', { type: 'text', name: 'model', value: state.model, placeholder: 'opus' })),
    h('button', { type: 'submit' }, 'Apply'),
    h('a', { href: '#/sessions', class: 'reset' }, 'Reset'),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const data = new FormData(form);
    const next = { sort: state.sort, dir: state.dir };
    for (const k of [...FILTERS, 'q']) next[k] = String(data.get(k) || '').trim();
    go(next);
  });
  // Selects apply at once; text fields wait for Enter or Apply.
  for (const sel of form.querySelectorAll('select')) sel.addEventListener('change', () => form.requestSubmit());
  return form;
}

function sortRows(rows, state) {
  const col = COLUMNS.find((c) => c.key === state.sort);
  if (!col) return rows; // the server's order: newest first
  const dir = state.dir === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = col.value(a);
    const y = col.value(b);
    const c = col.num ? x - y : String(x).localeCompare(String(y));
    return c !== 0 ? c * dir : a.session_id.localeCompare(b.session_id);
  });
}

function header(col, state) {
  const active = state.sort === col.key;
  const nextDir = active && state.dir !== 'asc' ? 'asc' : 'desc';
  const arrow = active ? (state.dir === 'asc' ? ' ▲' : ' ▼') : '';
  return h(
    'th',
    { scope: 'col', class: col.num ? 'num' : '', 'aria-sort': active ? (state.dir === 'asc' ? 'ascending' : 'descending') : 'none' },
    h('a', { href: route(['sessions'], { ...state, offset: '', sort: col.key, dir: nextDir }), class: 'sort', 'data-sort': col.key }, col.label + arrow),
  );
}

function sessionTable(sessions, state) {
  if (sessions.length === 0) return h('p', { class: 'empty' }, 'No sessions match these filters. Ingest with `hindsight ingest`, or loosen the filters.');
  const byId = new Map(sessions.map((s) => [s.session_id, s]));
  const children = new Map();
  const roots = [];
  for (const s of sessions) {
    if (s.parent_id && byId.has(s.parent_id)) {
      if (!children.has(s.parent_id)) children.set(s.parent_id, []);
      children.get(s.parent_id).push(s);
    } else roots.push(s);
  }
  const tbody = h('tbody');
  const addRow = (s, depth) => {
    const kids = children.get(s.session_id) || [];
    const tr = sessionRow(s, depth, kids.length);
    tbody.append(tr);
    const kidRows = [];
    for (const k of kids.sort((a, b) => String(a.started_at).localeCompare(String(b.started_at)))) {
      const before = tbody.childElementCount;
      addRow(k, depth + 1);
      for (let i = before; i < tbody.childElementCount; i++) kidRows.push(tbody.children[i]);
    }
    if (kids.length) {
      for (const r of kidRows) r.hidden = true;
      const btn = tr.querySelector('button.toggle');
      btn.addEventListener('click', () => {
        const open = btn.getAttribute('aria-expanded') !== 'true';
        btn.setAttribute('aria-expanded', String(open));
        btn.textContent = `${open ? '▾' : '▸'} ${kids.length}`;
        // Closing hides the whole subtree; opening shows only direct children (their own toggles start closed).
        for (const r of kidRows) {
          if (!open) r.hidden = true;
          else if (r.dataset.parent === s.session_id) r.hidden = false;
        }
        if (!open) for (const b of kidRows.flatMap((r) => [...r.querySelectorAll('button.toggle')])) {
          b.setAttribute('aria-expanded', 'false');
          b.textContent = b.textContent.replace('▾', '▸');
        }
      });
    }
  };
  for (const s of sortRows(roots, state)) addRow(s, 0);
  return h('table', { class: 'sessions' }, h('thead', {}, h('tr', {}, COLUMNS.map((c) => header(c, state)))), tbody);
}

function sessionRow(s, depth, kidCount) {
  const label = s.title || s.first_user_message || '(no user message)';
  const first = h(
    'td',
    { class: `session depth-${Math.min(depth, 4)}` },
    kidCount ? h('button', { type: 'button', class: 'toggle', 'aria-expanded': 'false', title: 'Show sub-agents' }, `▸ ${kidCount}`) : null,
    depth ? h('span', { class: 'kind' }, s.kind) : null,
    h('a', { href: sessionHref(s.session_id), class: 'session-link', title: s.session_id }, cut(label, 110)),
    h('div', { class: 'id muted' }, s.session_id),
  );
  return h(
    'tr',
    { 'data-id': s.session_id, 'data-parent': s.parent_id || undefined, class: depth ? 'child' : '' },
    first,
    h('td', {}, s.format),
    h('td', { class: 'project', title: s.project || '' }, cut(s.project, 40)),
    h('td', {}, h('span', { class: `badge st-${s.status}` }, s.status)),
    h('td', { class: 'nowrap' }, when(s.started_at)),
    h('td', { class: 'num' }, duration(s.duration_seconds)),
    h('td', { class: 'num' }, int(s.turn_count)),
    h('td', { class: 'num' }, int(s.event_count)),
    h('td', { class: 'num', title: s.tokens ? int(s.tokens.total) : '' }, s.tokens ? compact(s.tokens.total) : '—'),
    h('td', { class: 'num cost', title: s.cost && s.cost.unpriced_models && s.cost.unpriced_models.length ? `no price for ${s.cost.unpriced_models.join(', ')}` : '' }, costLabel(s.cost)),
  );
}

function pager(res, state) {
  const offset = res.offset || 0;
  return h(
    'div',
    { class: 'pager' },
    h('span', { class: 'muted' }, `${int(offset + 1 > res.count ? 0 : offset + 1)}–${int(offset + res.returned)} of ${int(res.count)} sessions (sub-agents included)`),
    offset > 0 ? h('a', { href: route(['sessions'], { ...state, offset: Math.max(0, offset - PAGE) }) }, '← Newer') : null,
    res.has_more ? h('a', { href: route(['sessions'], { ...state, offset: res.next_offset }) }, 'Older →') : null,
  );
}

function searchResults(res, state) {
  const head = h('p', { class: 'muted' }, `${int(res.count)} matches for `, h('q', { text: state.q }), res.count > res.returned ? ` (first ${res.returned} shown)` : '');
  if (res.matches.length === 0) return h('div', {}, head, h('p', { class: 'empty' }, 'Nothing matches. Search takes whole words, "quoted phrases" and prefix* terms.'));
  return h(
    'div',
    {},
    head,
    h(
      'ol',
      { class: 'matches' },
      res.matches.map((m) =>
        h(
          'li',
          { class: 'match' },
          h('a', { href: sessionHref(m.session_id), class: 'session-link' }, m.session_id),
          h('span', { class: 'muted' }, ` · ${m.format} · ${m.project || ''} · ${when(m.started_at)} · ${m.match_type}`),
          m.line_number ? [' · ', h('a', { href: evidenceHref(m.session_id, m.ledger, '', m.line_number), class: 'evidence' }, `${m.ledger}:${m.line_number}`)] : null,
          h('div', { class: 'excerpt', text: m.excerpt }),
        ),
      ),
    ),
  );
}
