// Token totals up the parent chain: a session's totals are its own plus every descendant's (children
// count in their parent's totals, as ccusage does). Both engines roll up with this, then write.

/** input, output, cache write, cache read, reasoning (TokenCounts.reasoning). */
export type TokenTuple = [number, number, number, number, number];

export interface TokenTotalsRow {
  sid: number;
  id: string;
  parentId: string | null;
  own: TokenTuple;
  /** The totals stored now. */
  total: TokenTuple;
}

/** The sessions whose totals (own + descendants', cycles in parent links cut) differ from the stored ones, in row order. */
export function rollUpTotals(rows: TokenTotalsRow[]): { sid: number; total: TokenTuple }[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const children = new Map<string, TokenTotalsRow[]>();
  for (const r of rows) {
    if (r.parentId && byId.has(r.parentId) && r.parentId !== r.id) {
      const list = children.get(r.parentId) ?? [];
      list.push(r);
      children.set(r.parentId, list);
    }
  }
  const memo = new Map<string, TokenTuple>();
  const visiting = new Set<string>();
  const total = (r: TokenTotalsRow): TokenTuple => {
    const done = memo.get(r.id);
    if (done) return done;
    const t: TokenTuple = [...r.own];
    visiting.add(r.id);
    for (const c of children.get(r.id) ?? []) {
      if (visiting.has(c.id)) continue;
      const ct = total(c);
      for (let i = 0; i < t.length; i++) t[i]! += ct[i]!;
    }
    visiting.delete(r.id);
    memo.set(r.id, t);
    return t;
  };
  return rows.map((r) => ({ sid: r.sid, stored: r.total, total: total(r) }))
    .filter(({ stored, total: t }) => t.some((v, i) => v !== stored[i]))
    .map(({ sid, total: t }) => ({ sid, total: t }));
}
