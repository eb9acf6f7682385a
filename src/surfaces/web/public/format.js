// Number, date, duration and cost formatting shared by the pages (UTC everywhere, like the tools).

const INT = new Intl.NumberFormat('en-US');

export function int(n) {
  return n === null || n === undefined ? '—' : INT.format(n);
}

export function compact(n) {
  if (n === null || n === undefined) return '—';
  const a = Math.abs(n);
  if (a >= 1e9) return `${(n / 1e9).toFixed(1)}B`;
  if (a >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (a >= 1e3) return `${(n / 1e3).toFixed(1)}k`;
  return String(n);
}

export function usd(n) {
  if (n === null || n === undefined) return '—';
  return n >= 100 ? `$${n.toFixed(0)}` : n >= 1 ? `$${n.toFixed(2)}` : `$${n.toFixed(4)}`;
}

/** '2026-02-11T21:41:40.277Z' → '2026-02-11 21:41:40' */
export function when(iso) {
  if (!iso) return '—';
  return String(iso).replace('T', ' ').replace(/\.\d+Z$|Z$/, '');
}

export function day(iso) {
  return iso ? String(iso).slice(0, 10) : '';
}

export function duration(seconds) {
  if (seconds === null || seconds === undefined) return '—';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`;
  return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
}

export function bytes(n) {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** Cut long text for a table cell; the full text stays available in the title. */
export function cut(text, max = 120) {
  if (text === null || text === undefined) return '';
  const t = String(text);
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

/**
 * A session's cost as the tables show it (usage_report's figures): "—" without LLM calls or
 * price, "≥ $x (partial)" when some models have no price — never $0 for what is not priced.
 */
export function costLabel(c) {
  if (!c || !c.calls) return '—';
  if (c.cost_usd === null || c.cost_usd === undefined) return 'unpriced';
  return c.partial ? `≥ ${usd(c.cost_usd)} (partial)` : usd(c.cost_usd);
}
