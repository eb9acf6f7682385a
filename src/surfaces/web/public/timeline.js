// The merged timeline, one page of rows at a time (so 100,000 events stay cheap), a lane per
// sub-agent, rows collapsed until opened; an opened row fetches its payload within a byte cap.

import { callTool } from './api.js';
import { h } from './dom.js';
import { bytes, int, when } from './format.js';
import { evidenceHref, sessionHref } from './router.js';

export const PAGE_SIZE = 200;
/** reconstruct_session's view kinds (src/tools/reconstruct-session/view-kind.ts), in chip order. */
export const VIEW_KINDS = ['user', 'assistant', 'thinking', 'tool', 'hook', 'agent', 'error', 'llm', 'system'];
/** Hooks are most of a Claude Code transcript's rows and say least: off until asked for. */
export const DEFAULT_KINDS = VIEW_KINDS.filter((k) => k !== 'hook');
const PAYLOAD_CAP = 64 * 1024;
const PAYLOAD_CAP_LARGE = 1024 * 1024;

/** The first page of a timeline, requested early: the server answers in order, so asking first shows rows first. */
export function firstPage(sessionId, startOffset, kinds = DEFAULT_KINDS) {
  const offset = Math.max(0, startOffset - (startOffset % PAGE_SIZE));
  return { offset, kinds, promise: fetchPage(sessionId, offset, kinds) };
}

/** The kinds named in the address (`kinds=user,tool`), else the default set. */
export function kindsFromParams(params) {
  const named = (params.get('kinds') || '').split(',').filter((k) => VIEW_KINDS.includes(k));
  return named.length ? named : DEFAULT_KINDS;
}

function fetchPage(sessionId, offset, kinds) {
  // Every kind on: no filter, so the page is the whole timeline.
  const filter = kinds.length === VIEW_KINDS.length ? undefined : kinds;
  return callTool('reconstruct_session', { session_id: sessionId, offset, limit: PAGE_SIZE, kinds: filter, max_bytes: 2000000 });
}

/**
 * Render the timeline into box; returns { done, nameLanes } — done settles with the first page,
 * nameLanes(list) names lanes (from the overview) that the rows may already have opened.
 */
export function timeline(box, sessionId, lanes, first, ctx) {
  const laneIndex = new Map(lanes.map((l, i) => [l.id, i]));
  const legend = h('p', { class: 'lanes-legend' });
  let kinds = first.kinds ?? DEFAULT_KINDS;
  const chips = h('div', { class: 'kind-chips', role: 'group', 'aria-label': 'Show kinds' });
  const hiddenNote = h('span', { class: 'muted hidden-count' });
  const renderChips = () =>
    chips.replaceChildren(
      'Show: ',
      ...VIEW_KINDS.map((k) =>
        h(
          'button',
          {
            type: 'button',
            class: `chip kind-chip vk-${k}`,
            'data-kind': k,
            'aria-pressed': String(kinds.includes(k)),
            onclick: () => {
              const next = kinds.includes(k) ? kinds.filter((x) => x !== k) : VIEW_KINDS.filter((x) => x === k || kinds.includes(x));
              if (next.length === 0) return; // at least one kind stays on
              kinds = next;
              renderChips();
              load(0).catch(fail);
            },
          },
          k,
        ),
      ),
      ' ',
      hiddenNote,
    );
  renderChips();
  const status = h('span', { class: 'muted page-status' });
  const jump = h('input', { type: 'number', name: 'jump', min: 1, placeholder: 'event #', class: 'jump' });
  const nav = h('div', { class: 'pager timeline-pager' });
  const tbody = h('tbody');
  const tableEl = h(
    'table',
    { class: 'timeline-table' },
    h('thead', {}, h('tr', {}, ['#', 'time (UTC)', 'lane', 'kind', 'actor', 'turn', 'summary', 'evidence'].map((l) => h('th', { scope: 'col' }, l)))),
    tbody,
  );
  box.replaceChildren(h('h2', {}, 'Timeline'), chips, legend, nav, tableEl);
  let count = 0;
  let last = null;
  const renderRows = () => {
    if (last) tbody.replaceChildren(...last.res.timeline.map((row, i) => eventRow(row, last.offset + i)));
  };

  const renderLegend = () =>
    legend.replaceChildren(
      'Lanes: ',
      ...lanes.map((l, i) =>
        h('span', { class: 'lane-key' }, h('span', { class: `swatch lane-${i % 8}` }), i === 0 ? 'main' : h('a', { href: sessionHref(l.id), title: l.id }, l.name || l.id), ' '),
      ),
    );
  renderLegend();

  const load = async (offset, pending) => {
    status.textContent = 'Loading…';
    status.classList.remove('error');
    const started = performance.now();
    const res = await (pending ?? fetchPage(sessionId, offset, kinds));
    if (!ctx.live()) return;
    // With a kinds filter, `count` is the rows that match and event_count every event.
    count = res.count ?? res.event_count;
    const hidden = (res.event_count ?? 0) - count;
    const hooksOnly = kinds.length === DEFAULT_KINDS.length && !kinds.includes('hook');
    hiddenNote.textContent = hidden > 0 ? `${int(hidden)} ${hooksOnly ? 'hook rows' : 'rows of other kinds'} hidden` : '';
    box.dataset.hidden = String(hidden);
    let laneAdded = false;
    for (const row of res.timeline) {
      if (!laneIndex.has(row.session_id)) {
        laneIndex.set(row.session_id, lanes.length);
        lanes.push({ id: row.session_id, name: row.session_id.split(':').pop() });
        laneAdded = true;
      }
    }
    if (laneAdded) renderLegend();
    last = { res, offset };
    renderRows();
    renderNav(offset, res);
    box.dataset.offset = String(offset);
    box.dataset.loadMs = String(Math.round(performance.now() - started));
    // Keep the page in the address so reload and back return here, without re-rendering the page.
    const url = new URL(window.location.href);
    const base = url.hash.replace(/\?.*$/, '');
    const query = new URLSearchParams();
    if (offset) query.set('offset', String(offset));
    if (kinds.join(',') !== DEFAULT_KINDS.join(',')) query.set('kinds', kinds.join(','));
    const qs = query.toString();
    history.replaceState(null, '', `${url.pathname}${url.search}${base}${qs ? `?${qs}` : ''}`);
  };

  const renderNav = (offset, res) => {
    const last = Math.max(0, Math.floor((count - 1) / PAGE_SIZE) * PAGE_SIZE);
    const btn = (label, to, cls, disabled) => h('button', { type: 'button', class: cls, disabled, onclick: () => load(to).catch(fail) }, label);
    status.textContent = count === 0 ? 'No events of these kinds.' : `events ${int(offset + 1)}–${int(offset + res.returned)} of ${int(count)}${res.truncated ? ' (page cut at the byte cap)' : ''}`;
    const form = h(
      'form',
      {
        class: 'jump-form',
        onsubmit: (e) => {
          e.preventDefault();
          const n = Math.max(1, Math.min(count, Number(jump.value) || 1));
          load(Math.floor((n - 1) / PAGE_SIZE) * PAGE_SIZE).catch(fail);
        },
      },
      jump,
      h('button', { type: 'submit' }, 'Go'),
    );
    nav.replaceChildren(
      btn('« First', 0, 'first', offset === 0),
      btn('‹ Prev', Math.max(0, offset - PAGE_SIZE), 'prev', offset === 0),
      status,
      // A page cut at the byte cap continues where it stopped, not a whole page further.
      btn('Next ›', res.truncated && res.next_offset ? res.next_offset : offset + PAGE_SIZE, 'next', offset + Math.max(1, res.returned) >= count),
      btn('Last »', last, 'last', offset >= last),
      form,
    );
  };

  const fail = (err) => {
    status.textContent = err.message;
    status.classList.add('error');
  };

  const eventRow = (row, index) => {
    const lane = laneIndex.get(row.session_id) ?? 0;
    const toggle = h('button', { type: 'button', class: 'expand', 'aria-expanded': 'false', title: 'Show the payload' }, '▸');
    const tr = h(
      'tr',
      { class: `ev kind-${safeClass(row.kind)}`, 'data-index': index, 'data-session': row.session_id },
      h('td', { class: 'num muted' }, String(index + 1)),
      h('td', { class: 'nowrap' }, when(row.timestamp)),
      h('td', { class: 'lanes' }, lanes.map((_, i) => h('span', { class: i === lane ? `lane on lane-${i % 8}` : 'lane' }))),
      h('td', { class: 'nowrap', title: row.kind }, row.view_kind || row.kind),
      h('td', {}, row.actor || ''),
      h('td', { class: 'num' }, row.turn_number ?? ''),
      h('td', { class: 'summary' }, toggle, ' ', h('span', { class: 'summary-text', text: row.summary })),
      h('td', { class: 'nowrap' }, h('a', { href: evidenceHref(row.session_id, row.source, row.file, row.line_number), class: 'evidence', title: row.file }, `${row.source}:${row.line_number}`)),
    );
    let detail = null;
    toggle.addEventListener('click', () => {
      if (detail) {
        detail.remove();
        detail = null;
        toggle.setAttribute('aria-expanded', 'false');
        toggle.textContent = '▸';
        return;
      }
      const cell = h('td', { colspan: 8 }, h('p', { class: 'muted' }, 'Loading payload…'));
      detail = h('tr', { class: 'detail' }, cell);
      tr.after(detail);
      toggle.setAttribute('aria-expanded', 'true');
      toggle.textContent = '▾';
      showPayload(cell, sessionId, row, index, PAYLOAD_CAP, kinds);
    });
    return tr;
  };

  const nameLanes = (list) => {
    const before = lanes.length;
    // The address may name the session by a unique prefix; the overview gives its full id.
    if (list[0] && lanes[0] && list[0].id !== lanes[0].id && !laneIndex.has(list[0].id)) {
      laneIndex.delete(lanes[0].id);
      lanes[0].id = list[0].id;
      laneIndex.set(list[0].id, 0);
    }
    for (const l of list) {
      const i = laneIndex.get(l.id);
      if (i === undefined) {
        laneIndex.set(l.id, lanes.length);
        lanes.push({ ...l });
      } else lanes[i].name = l.name;
    }
    renderLegend();
    // Rows drawn before every lane was known get one column per lane again.
    if (lanes.length !== before) renderRows();
  };
  return { done: load(first.offset, first.promise), nameLanes };
}

async function showPayload(cell, sessionId, row, index, cap, kinds) {
  try {
    // The row's index counts rows of the shown kinds, so the same filter finds it again.
    const filter = kinds.length === VIEW_KINDS.length ? undefined : kinds;
    const res = await callTool('reconstruct_session', { session_id: sessionId, offset: index, limit: 1, kinds: filter, verbosity: 'full', include_prompts: true, max_bytes: cap });
    const full = res.timeline[0];
    if (!full) {
      cell.replaceChildren(
        h('p', { class: 'muted' }, `This event's payload is larger than ${bytes(cap)}. `),
        cap < PAYLOAD_CAP_LARGE ? h('button', { type: 'button', class: 'more', onclick: () => showPayload(cell, sessionId, row, index, PAYLOAD_CAP_LARGE, kinds) }, `Load up to ${bytes(PAYLOAD_CAP_LARGE)}`) : null,
        ' ',
        h('a', { href: evidenceHref(row.session_id, row.source, row.file, row.line_number) }, 'Read the raw line instead'),
      );
      return;
    }
    if (full.line_number !== row.line_number || full.source !== row.source) {
      cell.replaceChildren(h('p', { class: 'error' }, 'The timeline changed since this page was loaded (a new ingest?). Reload the page to see this event.'));
      return;
    }
    cell.replaceChildren(
      full.summary && full.summary !== row.summary ? h('p', { class: 'full-summary', text: full.summary }) : '',
      h('pre', { class: 'payload', text: JSON.stringify(full.payload, null, 2) }),
    );
  } catch (err) {
    cell.replaceChildren(h('p', { class: 'error', text: err.message }));
  }
}

function safeClass(s) {
  return String(s || 'other').replace(/[^a-z0-9_-]/gi, '_');
}
