// One session: the about paragraph first, then diagnostics, the per-turn chart, grep and the timeline.

import { callTool } from './api.js';
import { h } from './dom.js';
import { day, duration, when } from './format.js';
import { route, sessionHref } from './router.js';
import { diagnostics, costFor } from './diagnostics.js';
import { callChart, turnChart } from './turn-chart.js';
import { grepPanel } from './grep-panel.js';
import { firstPage, kindsFromParams, timeline } from './timeline.js';
import { errorBox } from './errors.js';

export async function renderSession(root, ctx) {
  const id = ctx.parts[1];
  if (!id) {
    root.append(h('p', { class: 'error' }, 'No session named in the address. ', h('a', { href: '#/sessions' }, 'Pick one from the list.')));
    return;
  }
  // The server answers in order: the timeline page is asked for first so rows show up even while a
  // large session's overview is still being computed. Each section fails on its own.
  const page = firstPage(id, Number(ctx.params.get('offset')) || 0, kindsFromParams(ctx.params));
  page.promise.catch(() => {}); // shown by the timeline section, never left unhandled
  const overview = callTool('session_overview', { session_id: id, errors_limit: 50 });
  overview.catch(() => {});
  const head = h('div', { class: 'head' }, h('p', { class: 'muted' }, 'Loading the overview…'));
  const chartBox = h('section', { class: 'chart' }, h('h2', {}, 'Tokens per turn'), h('p', { class: 'muted' }, 'Loading…'));
  const callBox = h('section', { class: 'chart calls' }, h('h2', {}, 'Tokens and cost per LLM call'), h('p', { class: 'muted' }, 'Loading…'));
  const grepBox = h('section', { class: 'grep' });
  const timelineBox = h('section', { class: 'timeline' });
  root.append(head, chartBox, callBox, grepBox, timelineBox);
  const lanes = [{ id, name: 'main' }];
  const tl = timeline(timelineBox, id, lanes, page, ctx);
  tl.done.catch(() => {}); // awaited (and shown) below; when the overview fails it is moot
  let ov;
  try {
    ov = await overview;
  } catch (err) {
    // Nothing else can be right about a session the overview cannot find.
    if (ctx.live()) root.replaceChildren();
    throw err;
  }
  if (!ctx.live()) return;
  const sum = ov.summary;
  const diag = ov.diagnostics;
  const costSlot = h('span', { class: 'cost muted' }, 'cost: loading…');
  head.replaceChildren(
    h('p', { class: 'crumbs' }, h('a', { href: '#/sessions' }, 'Sessions'), ' / ', sum.parent_id ? [h('a', { href: sessionHref(sum.parent_id) }, 'parent'), ' / '] : null, h('span', { class: 'id' }, sum.session_id)),
    h('h1', { class: 'title' }, sum.title || (sum.top_user_messages && sum.top_user_messages[0]) || sum.session_id),
    h(
      'p',
      { class: 'meta' },
      h('span', { class: `badge st-${sum.status}` }, sum.status),
      ` ${sum.format} · ${sum.kind} · ${sum.project || 'no project'} · ${when(sum.started_at)} → ${when(sum.ended_at)} UTC · ${sum.duration || duration(sum.duration_seconds)} · ${sum.turn_count} turns`,
      diag.models && diag.models.length ? ` · ${diag.models.join(', ')}` : '',
    ),
    h('section', { class: 'about' }, h('h2', {}, 'About'), h('p', { class: 'about-text', text: sum.about })),
    diagnostics(sum, diag, costSlot),
  );
  tl.nameLanes([{ id: sum.session_id, name: 'main' }, ...(diag.sub_agents || []).map((a) => ({ id: a.session_id, name: a.agent_name || a.kind }))]);
  await Promise.all([
    guard(tl.done, timelineBox, ctx),
    guard(grepPanel(grepBox, sum.session_id, ctx), grepBox, ctx),
    guard(chart(sum, chartBox, ctx), chartBox, ctx),
    guard(callsChart(sum, callBox, ctx), callBox, ctx),
    guard(costBox(sum, costSlot), costSlot, ctx, true),
  ]);
}

async function guard(promise, box, ctx, inline = false) {
  try {
    await promise;
  } catch (err) {
    if (!ctx.live()) return;
    if (inline) box.textContent = `cost unavailable: ${err.message}`;
    else box.append(errorBox(err, () => window.dispatchEvent(new HashChangeEvent('hashchange'))));
  }
}

async function costBox(sum, slot) {
  const since = day(sum.started_at);
  const until = day(sum.ended_at) || since;
  const res = await callTool('usage_report', {
    group_by: 'session',
    project: sum.project || undefined,
    since: since || undefined,
    until: until || undefined,
    limit: 500,
    max_bytes: 2000000,
  });
  const row = costFor(res.rows, sum.session_id);
  slot.replaceChildren(...(row ? costText(row, res) : ['cost: no priced LLM calls']));
}

function costText(row, res) {
  const parts = [`cost: ${row.cost_usd === null || row.cost_usd === undefined ? 'unknown' : `$${row.cost_usd.toFixed(4)}`}`];
  if (row.partial) parts.push(` (partial: no price for ${(row.unpriced_models || []).join(', ')})`);
  parts.push(` · ${row.calls} LLM calls · prices as of ${res.prices_as_of}`);
  return parts;
}

async function chart(sum, box, ctx) {
  const res = await callTool('analyze_events', { session_id: sum.session_id, analysis_type: 'timeline', limit: 2000, max_bytes: 5000000 });
  if (!ctx.live()) return;
  box.replaceChildren(
    h('h2', {}, 'Tokens per turn'),
    turnChart(res.turns),
    h('p', { class: 'muted note' }, `${res.count} turns of this session's own events${res.has_more ? ' (first 2,000 shown)' : ''}. The line is each turn's cost (its own LLM calls; sub-agents are priced in their own sessions). `, h('a', { href: route(['usage']) }, 'Usage by day and project')),
  );
}

/** One bar per LLM call: where a session's tokens and money went, and how long each call took. */
async function callsChart(sum, box, ctx) {
  const res = await callTool('analyze_events', { session_id: sum.session_id, analysis_type: 'calls', limit: 2000, max_bytes: 5000000 });
  if (!ctx.live()) return;
  const timed = res.calls.filter((c) => c.latency_ms !== null && c.latency_ms !== undefined);
  const slowest = timed.reduce((a, c) => (a && a.latency_ms >= c.latency_ms ? a : c), null);
  box.replaceChildren(
    h('h2', {}, 'Tokens and cost per LLM call'),
    callChart(res.calls),
    h(
      'p',
      { class: 'muted note' },
      `${res.call_count} LLM calls of this session's own events${res.has_more ? ' (first 2,000 shown)' : ''}. The line is each call's cost; hover a bar for its model and latency.`,
      slowest ? ` Slowest: call ${slowest.call_num}, ${(slowest.latency_ms / 1000).toFixed(1)} s${slowest.latency_source === 'between_lines' ? ' (time between log lines)' : ''}.` : '',
    ),
  );
}
