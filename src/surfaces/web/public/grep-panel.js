// Grep within one session: a regex over its stored lines (any of its ledgers), each hit linked to its evidence.

import { callTool } from './api.js';
import { h } from './dom.js';
import { cut, int } from './format.js';
import { evidenceHref } from './router.js';

const LIMIT = 50;

export async function grepPanel(box, sessionId, ctx) {
  const info = await callTool('raw_lines', { session_id: sessionId, limit: 1, max_bytes: 1 });
  if (!ctx.live()) return;
  const pattern = h('input', { type: 'text', name: 'pattern', placeholder: 'regular expression', class: 'grow', autocomplete: 'off' });
  const ignoreCase = h('input', { type: 'checkbox', name: 'ignore_case' });
  const ledger = h('select', { name: 'ledger' }, (info.ledgers || []).map((l) => h('option', { value: l, selected: l === info.ledger }, l)));
  const out = h('div', { class: 'grep-results' });
  const run = async (offset) => {
    out.replaceChildren(h('p', { class: 'muted' }, 'Searching…'));
    try {
      const res = await callTool('grep_jsonl', { session_id: sessionId, ledger: ledger.value, pattern: pattern.value, ignore_case: ignoreCase.checked, limit: LIMIT, offset, max_bytes: 1000000 });
      out.replaceChildren(results(res, sessionId, ledger.value, run));
    } catch (err) {
      out.replaceChildren(h('p', { class: 'error', text: err.message }));
    }
  };
  const form = h(
    'form',
    { class: 'grep-form', role: 'search', onsubmit: (e) => { e.preventDefault(); if (pattern.value) run(0); } },
    pattern,
    h('label', {}, ignoreCase, ' ignore case'),
    h('label', {}, 'in ', ledger),
    h('button', { type: 'submit' }, 'Grep'),
  );
  box.replaceChildren(h('h2', {}, 'Grep this session'), form, out);
}

function results(res, sessionId, ledger, run) {
  const head = h('p', { class: 'muted' }, `${int(res.count)} matching lines${res.count ? `, ${int(res.offset + 1)}–${int(res.offset + res.returned)} shown` : ''}`);
  const list = h(
    'ol',
    { class: 'grep-hits' },
    res.entries.map((e) =>
      h(
        'li',
        {},
        h('a', { href: evidenceHref(sessionId, ledger, e.file, e.line_number), class: 'evidence' }, `${ledger}:${e.line_number}`),
        h('pre', { class: 'raw', text: cut(e.raw, 2000) }),
      ),
    ),
  );
  const more = res.has_more ? h('button', { type: 'button', onclick: () => run(res.next_offset) }, 'Next matches ›') : null;
  const back = res.offset > 0 ? h('button', { type: 'button', onclick: () => run(Math.max(0, res.offset - LIMIT)) }, '‹ Previous matches') : null;
  return h('div', {}, head, list, h('div', { class: 'pager' }, back, more));
}
