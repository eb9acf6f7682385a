// A per-turn stacked bar chart of tokens by kind, with each turn's cost as a line on its own
// scale (right axis), as inline SVG (no library, no inline styles).

import { s, h } from './dom.js';
import { compact, int, usd, when } from './format.js';

const KINDS = ['input', 'output', 'cache_write', 'cache_read'];
const W = 900;
const H = 180;
const PAD = { l: 48, r: 56, t: 8, b: 22 };

const tokenLines = (tok) => KINDS.map((k) => `${k.replace('_', ' ')}: ${int(tok[k] || 0)}`).join('\n');
const costText = (c) => (c === null || c === undefined ? 'cost unpriced' : `cost ${usd(c)}`);

/** Per user turn (analyze_events timeline rows). */
const TURNS = {
  name: 'turn',
  cls: 'turn-chart',
  id: (t) => t.turn_num,
  title: (t) => `turn ${t.turn_num} · ${when(t.user_ts)}\n${tokenLines(t.tokens || {})}\ntotal: ${int((t.tokens || {}).total || 0)} · ${costText(t.cost_usd)} · ${t.llm_calls} LLM calls · ${t.tool_calls} tool calls`,
};

/** Per LLM call (analyze_events calls rows): a one-prompt session of 157 calls is 157 bars, not one. */
const CALLS = {
  name: 'call',
  cls: 'call-chart',
  id: (c) => c.call_num,
  title: (c) =>
    `call ${c.call_num} · ${when(c.ts)} · ${c.model || 'unknown model'}\n${tokenLines(c.tokens || {})}\ntotal: ${int((c.tokens || {}).total || 0)} · ${costText(c.cost_usd)}` +
    (c.latency_ms === null || c.latency_ms === undefined ? '' : ` · latency ${(c.latency_ms / 1000).toFixed(1)} s${c.latency_source === 'between_lines' ? ' (between log lines)' : ''}`),
};

/** The chart with a switch for cache reads, which often dwarf every other kind. */
export function turnChart(turns) {
  return tokenChart(turns, TURNS, 'No turns.');
}

/** Tokens and cost per LLM call, latency in each bar's tooltip. */
export function callChart(calls) {
  return tokenChart(calls, CALLS, 'No LLM calls.');
}

function tokenChart(items, spec, empty) {
  if (!items || items.length === 0) return h('p', { class: 'muted' }, empty);
  const box = h('div', { class: 'chart-box' });
  const withReads = h('input', { type: 'checkbox', name: 'cache_read', checked: true });
  const draw = () => box.replaceChildren(bars(items, withReads.checked ? KINDS : KINDS.slice(0, 3), spec), legend(withReads));
  withReads.addEventListener('change', draw);
  draw();
  return box;
}

function legend(withReads) {
  return h(
    'p',
    { class: 'legend' },
    KINDS.map((k) => h('span', { class: `key k-${k}` }, k.replace('_', ' '))),
    h('span', { class: 'key k-cost-line' }, 'cost (right axis)'),
    h('label', {}, withReads, ' include cache reads'),
  );
}

function bars(turns, kinds, spec) {
  const max = Math.max(1, ...turns.map((t) => kinds.reduce((n, k) => n + ((t.tokens && t.tokens[k]) || 0), 0)));
  const plotW = W - PAD.l - PAD.r;
  const plotH = H - PAD.t - PAD.b;
  const step = plotW / turns.length;
  const barW = Math.min(48, Math.max(1, step * 0.8));
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, class: spec.cls, role: 'img', 'aria-label': `Tokens per ${spec.name}, ${turns.length} ${spec.name}s, peak ${int(max)}` });
  svg.append(
    s('line', { x1: PAD.l, y1: PAD.t + plotH, x2: W - PAD.r, y2: PAD.t + plotH, class: 'axis' }),
    s('text', { x: PAD.l - 4, y: PAD.t + 10, class: 'tick end', text: compact(max) }),
    s('text', { x: PAD.l - 4, y: PAD.t + plotH, class: 'tick end', text: '0' }),
  );
  turns.forEach((t, i) => {
    const tok = t.tokens || {};
    const x = PAD.l + i * step + (step - barW) / 2;
    let y = PAD.t + plotH;
    const g = s('g', { class: 'bar', [`data-${spec.name}`]: spec.id(t) });
    g.append(s('title', { text: spec.title(t) }));
    for (const k of kinds) {
      const hgt = ((tok[k] || 0) / max) * plotH;
      if (hgt <= 0) continue;
      y -= hgt;
      g.append(s('rect', { x: x.toFixed(2), y: y.toFixed(2), width: barW.toFixed(2), height: hgt.toFixed(2), class: `k-${k}` }));
    }
    svg.append(g);
    if (turns.length <= 40 || i % Math.ceil(turns.length / 20) === 0) svg.append(s('text', { x: (x + barW / 2).toFixed(2), y: H - 6, class: 'tick mid', text: spec.id(t) }));
  });
  costLine(svg, turns, step, plotH);
  return svg;
}

/** Each turn's cost (analyze_events prices every turn) as a polyline; turns without a price are skipped. */
function costLine(svg, turns, step, plotH) {
  const costs = turns.map((t) => (typeof t.cost_usd === 'number' ? t.cost_usd : null));
  const maxCost = Math.max(0, ...costs.filter((c) => c !== null));
  if (maxCost <= 0) return;
  const points = [];
  costs.forEach((c, i) => {
    if (c === null) return;
    points.push(`${(PAD.l + i * step + step / 2).toFixed(2)},${(PAD.t + plotH - (c / maxCost) * plotH).toFixed(2)}`);
  });
  svg.append(
    s('polyline', { points: points.join(' '), class: 'cost-line' }),
    s('text', { x: W - PAD.r + 4, y: PAD.t + 10, class: 'tick', text: usd(maxCost) }),
    s('text', { x: W - PAD.r + 4, y: PAD.t + plotH, class: 'tick', text: '$0' }),
  );
}
