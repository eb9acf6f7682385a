// Usage: tokens and cost per day and per project (usage_report), with a daily cost bar chart.

import { callTool, listFormats } from './api.js';
import { h, s, table } from './dom.js';
import { compact, int, usd } from './format.js';
import { route } from './router.js';

export async function renderUsage(root, ctx) {
  const since = ctx.params.get('since') || '';
  const until = ctx.params.get('until') || '';
  const format = ctx.params.get('format') || '';
  // The server's formats (a new format needs no change here); '' is any.
  const formats = [{ id: '', label: 'any' }, ...(await listFormats())];
  if (!ctx.live()) return;
  const form = h(
    'form',
    { class: 'filters' },
    h('label', {}, 'Since ', h('input', { type: 'text', name: 'since', value: since, placeholder: 'YYYY-MM-DD' })),
    h('label', {}, 'Until ', h('input', { type: 'text', name: 'until', value: until, placeholder: 'YYYY-MM-DD' })),
    h('label', {}, 'Format ', h('select', { name: 'format' }, formats.map((f) => h('option', { value: f.id, selected: f.id === format }, f.label)))),
    h('button', { type: 'submit' }, 'Apply'),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const d = new FormData(form);
    window.location.hash = route(['usage'], { since: String(d.get('since') || '').trim(), until: String(d.get('until') || '').trim(), format: d.get('format') });
  });
  root.append(h('h1', {}, 'Usage'), form);
  const args = { since: since || undefined, until: until || undefined, format: format || undefined, limit: 500, max_bytes: 2000000 };
  const [daily, projects] = await Promise.all([callTool('usage_report', { ...args, group_by: 'daily' }), callTool('usage_report', { ...args, group_by: 'project' })]);
  if (!ctx.live()) return;
  const t = daily.totals;
  root.append(
    h(
      'p',
      { class: 'totals' },
      h('strong', {}, usd(t.cost_usd)),
      ` for ${int(t.tokens.total)} tokens in ${int(t.calls)} LLM calls`,
      t.partial ? h('span', { class: 'warn' }, ` — partial: no price for ${t.unpriced_models.join(', ')} (left out, never counted as $0)`) : '',
      h('span', { class: 'muted' }, ` · prices as of ${daily.prices_as_of}`),
    ),
    h('section', { class: 'usage-daily' }, h('h2', {}, 'Per day (UTC)'), costChart(daily.rows), usageTable(daily.rows, 'day')),
    h('section', { class: 'usage-projects' }, h('h2', {}, 'Per project'), usageTable(projects.rows, 'project')),
  );
}

function usageTable(rows, keyLabel) {
  if (!rows.length) return h('p', { class: 'empty' }, 'No LLM calls in this window.');
  return table(
    [
      { label: keyLabel, cell: (r) => (keyLabel === 'project' ? h('a', { href: route(['sessions'], { project: r.key }), title: r.project_path || r.key }, r.key) : r.key) },
      { label: 'input', class: 'num', cell: (r) => int(r.tokens.input) },
      { label: 'output', class: 'num', cell: (r) => int(r.tokens.output) },
      { label: 'cache write', class: 'num', cell: (r) => int(r.tokens.cache_write) },
      { label: 'cache read', class: 'num', cell: (r) => int(r.tokens.cache_read) },
      // Output-priced tokens outside output (Gemini's thoughts): a column only when a row has some.
      ...(rows.some((r) => r.tokens.reasoning) ? [{ label: 'reasoning', class: 'num', cell: (r) => int(r.tokens.reasoning) }] : []),
      { label: 'total', class: 'num', cell: (r) => int(r.tokens.total) },
      { label: 'calls', class: 'num', cell: (r) => int(r.calls) },
      { label: 'cost', class: 'num', cell: (r) => (r.partial ? h('span', { class: 'warn', title: `no price for ${r.unpriced_models.join(', ')}` }, `${usd(r.cost_usd)}*`) : usd(r.cost_usd)) },
      { label: 'models', cell: (r) => (r.models || []).join(', ') },
    ],
    rows,
    { class: `usage usage-${keyLabel}` },
  );
}

function costChart(rows) {
  if (rows.length < 2) return null;
  const W = 900;
  const H = 140;
  const pad = { l: 52, b: 20, t: 8 };
  const max = Math.max(0.0001, ...rows.map((r) => r.cost_usd || 0));
  const step = (W - pad.l) / rows.length;
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, class: 'cost-chart', role: 'img', 'aria-label': 'Cost per day' });
  svg.append(s('text', { x: pad.l - 4, y: pad.t + 10, class: 'tick end', text: usd(max) }));
  rows.forEach((r, i) => {
    const hgt = ((r.cost_usd || 0) / max) * (H - pad.t - pad.b);
    const x = pad.l + i * step + step * 0.1;
    const g = s('g', { class: 'bar' }, s('title', { text: `${r.key}: ${usd(r.cost_usd)} · ${compact(r.tokens.total)} tokens` }));
    g.append(s('rect', { x: x.toFixed(2), y: (H - pad.b - hgt).toFixed(2), width: Math.max(1, step * 0.8).toFixed(2), height: hgt.toFixed(2), class: 'k-cost' }));
    svg.append(g);
    if (rows.length <= 16 || i % Math.ceil(rows.length / 12) === 0) svg.append(s('text', { x: (x + step * 0.4).toFixed(2), y: H - 5, class: 'tick mid', text: r.key }));
  });
  return svg;
}
