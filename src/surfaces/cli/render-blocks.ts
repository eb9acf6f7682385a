// `hindsight usage blocks`: the 5-hour billing windows as a table (gaps between them as their own
// rows, like ccusage), then what the active window is burning and where it is heading. Reads the
// usage_report envelope that --json prints.

import type { Paint } from './colour.js';
import { count, usd } from './render-tools.js';
import { table } from './table.js';

type Obj = Record<string, any>;

const MINUTE = 60_000;

/** "2026-02-11 21:00" from an ISO time (the table says the times are UTC). */
function minute(iso: string | null | undefined): string {
  return iso ? iso.slice(0, 16).replace('T', ' ') : '—';
}

/** A span as "4d 4h", "2h 05m" or "47m". */
export function span(ms: number): string {
  const minutes = Math.max(0, Math.round(ms / MINUTE));
  const d = Math.floor(minutes / 1440);
  const h = Math.floor((minutes % 1440) / 60);
  const m = minutes % 60;
  if (d) return `${d}d ${h}h`;
  return h ? `${h}h ${String(m).padStart(2, '0')}m` : `${m}m`;
}

function status(x: Obj, now: number): string {
  const start = Date.parse(x.start);
  const end = Date.parse(x.end);
  if (x.gap) return `gap ${span(end - start)}`;
  if (x.active) return `active, ${span(end - now)} left`;
  return `${span(Date.parse(x.actual_end) - start)} used`;
}

function perHour(x: Obj): string {
  const rate = x.burn_rate?.cost_per_hour;
  return typeof rate === 'number' ? `$${rate.toFixed(2)}/h` : '';
}

/** The blocks table, a TOTAL row, and a paragraph on the active block when there is one. */
export function renderBlocks(r: Obj, paint: Paint, asked: { active?: boolean } = {}): string {
  const rows = (r.rows ?? []) as Obj[];
  const now = Date.parse(r.now);
  if (!rows.length) return asked.active ? `No block is active at ${minute(r.now)} UTC.` : 'No LLM calls in this range.';
  const line = (first: string, state: string, x: Obj, rate: string) => [
    first,
    state,
    String(x.calls ?? ''),
    count(x.tokens.input),
    count(x.tokens.output),
    count(x.tokens.cache_write),
    count(x.tokens.cache_read),
    count(x.tokens.total),
    usd(x.cost_usd, x.partial),
    rate,
    (x.models ?? []).join(', '),
  ];
  const body: string[][] = [];
  for (const x of rows) {
    body.push(line(minute(x.start), status(x, now), x, perHour(x)));
    for (const m of (x.model_breakdowns ?? []) as Obj[]) body.push(line(`  └ ${m.model}`, '', { ...m, models: [] }, ''));
  }
  const t: Obj = r.totals ?? {};
  body.push(line('TOTAL', '', t, ''));
  const out = table(
    [
      { head: 'START (UTC)' },
      { head: 'STATUS', style: (v) => (v.startsWith('active') ? 'green' : v.startsWith('gap') ? 'dim' : undefined) },
      { head: 'CALLS' },
      { head: 'INPUT' },
      { head: 'OUTPUT' },
      { head: 'CACHE WRITE' },
      { head: 'CACHE READ' },
      { head: 'TOTAL' },
      { head: 'COST', style: (v) => (v === 'unpriced' || v.endsWith('*') ? 'yellow' : undefined) },
      { head: 'BURN' },
      { head: 'MODELS' },
    ],
    body,
    paint,
  );
  const notes: string[] = [];
  const active = rows.find((x) => x.active);
  if (active) notes.push(activeNote(active, now));
  if ((t.unpriced_models ?? []).length) notes.push(`* partial cost: no price for ${t.unpriced_models.join(', ')} (never counted as $0)`);
  notes.push(paint('dim', `blocks of 5 hours from the first call's hour; now ${minute(r.now)} UTC${r.prices_as_of ? `; prices as of ${r.prices_as_of}` : ''}`));
  if (r.has_more) notes.push(`${r.returned} of ${r.count} rows; next page: --offset ${r.next_offset}`);
  return [out, ...notes].join('\n');
}

function activeNote(x: Obj, now: number): string {
  const parts = [`Active block ${minute(x.start)}–${x.end.slice(11, 16)} UTC: ${span(Date.parse(x.end) - now)} left`];
  const rate = x.burn_rate;
  if (rate) {
    parts.push(`burning ${Math.round(rate.tokens_per_minute).toLocaleString('en-US')} tokens/min${rate.cost_per_hour === null ? '' : ` ($${rate.cost_per_hour.toFixed(2)}/h)`}`);
  }
  const p = x.projection;
  if (p) parts.push(`projected by its end: ${count(p.total_tokens)} tokens${p.cost_usd === null ? '' : `, $${p.cost_usd.toFixed(2)}`}`);
  return parts.join('; ');
}
