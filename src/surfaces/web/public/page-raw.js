// The raw evidence of one event: the stored line exactly as written, with a few lines around it.

import { callTool } from './api.js';
import { h } from './dom.js';
import { sessionHref } from './router.js';

const AROUND = 3;

export async function renderRaw(root, ctx) {
  const sessionId = ctx.parts[1];
  const ledger = ctx.params.get('ledger') || undefined;
  const file = ctx.params.get('file') || '';
  const line = Number(ctx.params.get('line')) || 1;
  if (!sessionId) {
    root.append(h('p', { class: 'error' }, 'No session named in the address. ', h('a', { href: '#/sessions' }, 'Pick one from the list.')));
    return;
  }
  // The tools number lines within a file; raw_lines counts across the ledger's files in reading order.
  const info = await callTool('raw_lines', { session_id: sessionId, ledger, limit: 1, max_bytes: 1 });
  if (!ctx.live()) return;
  let position = line;
  if (file) {
    let before = 0;
    for (const f of info.files || []) {
      if (f.superseded) continue;
      if (f.file === file) break;
      before += f.lines;
    }
    position = before + line;
  }
  const from = Math.max(1, position - AROUND);
  const res = await callTool('raw_lines', { session_id: sessionId, ledger, from_line: from, limit: AROUND * 2 + 1, max_bytes: 4000000 });
  if (!ctx.live()) return;
  root.append(
    h('p', { class: 'crumbs' }, h('a', { href: '#/sessions' }, 'Sessions'), ' / ', h('a', { href: sessionHref(sessionId) }, sessionId), ' / evidence'),
    h('h1', {}, `${res.ledger} line ${line}`),
    h('p', { class: 'muted' }, file || (res.files && res.files[0] ? res.files[0].file : ''), ' — exact bytes as stored (not redacted: this is the evidence).'),
  );
  const list = h('ol', { class: 'raw-lines' });
  for (const l of res.lines) {
    const target = l.line_number === line && (!file || l.file === file);
    list.append(
      h(
        'li',
        { class: target ? 'raw-line target' : 'raw-line', 'data-line': l.line_number, id: target ? 'target' : undefined },
        h('span', { class: 'ln' }, String(l.line_number)),
        h('pre', { class: 'raw', text: l.raw }),
        target ? pretty(l.raw) : null,
      ),
    );
  }
  if (res.lines.length === 0) list.append(h('li', { class: 'error' }, 'This line is not in the store (or is larger than 4 MB). Re-ingest the source, or read it with `hindsight tool raw_lines`.'));
  root.append(list);
  const t = list.querySelector('.target');
  if (t) t.scrollIntoView({ block: 'center' });
  else if (res.lines.length) root.insertBefore(h('p', { class: 'error' }, `Line ${line}${file ? ` of ${file}` : ''} is not where the ledger's files say it should be; the nearest stored lines are shown. Re-ingest the source to refresh its evidence.`), list);
}

function pretty(raw) {
  try {
    const text = JSON.stringify(JSON.parse(raw), null, 2);
    return h('details', { class: 'pretty' }, h('summary', {}, 'formatted'), h('pre', { text }));
  } catch {
    return null;
  }
}
