// Merging session facts that arrive from several lines and files.

import type { SessionFacts } from './model.js';

/**
 * Merge `next` over `prev`: defined fields of `next` win, undefined never erases, attrs merge.
 *
 * @example mergeFacts({id:'a', format:'f', kind:'root'}, {id:'a', format:'f', title:'x'})
 */
export function mergeFacts(prev: SessionFacts | undefined, next: SessionFacts): SessionFacts {
  if (!prev) return { ...next, attrs: next.attrs ? { ...next.attrs } : undefined };
  const out: SessionFacts = { ...prev };
  for (const [k, v] of Object.entries(next) as [keyof SessionFacts, unknown][]) {
    if (v === undefined || k === 'attrs') continue;
    (out as unknown as Record<string, unknown>)[k] = v;
  }
  if (next.attrs) out.attrs = { ...(prev.attrs ?? {}), ...next.attrs };
  return out;
}
