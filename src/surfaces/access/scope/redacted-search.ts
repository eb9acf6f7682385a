// Search for read-only tokens: a hit that matches only because of a secret (the terms are in the
// raw text and gone once it is redacted) is dropped, so queries cannot probe a secret by hit counts.

import { redactText } from '../../../core/redact.js';
import type { MessageHit, MetadataHit, SearchFilters, SearchTerm, Store } from '../../../store/store.js';
import { collectAll, pageOf } from './collect.js';

function holdsTerms(text: string, terms: SearchTerm[]): boolean {
  const lower = text.toLowerCase();
  return terms.every((t) => lower.includes(t.text.toLowerCase()));
}

/**
 * True when redaction removes what matched. A hit the substring test cannot explain either way
 * (tokenisation, diacritics) is kept: only a match that vanishes with the secret is evidence of one.
 *
 * @example revealsSecret('key sk-ant-abcdefghijkl', [{ kind: 'prefix', text: 'abcdef' }]) // true
 */
export function revealsSecret(text: string, terms: SearchTerm[]): boolean {
  return holdsTerms(text, terms) && !holdsTerms(redactText(text), terms);
}

export async function searchMetadataRedacted(store: Store, q: SearchFilters): Promise<{ total: number; hits: MetadataHit[] }> {
  const all = await collectAll(async (offset, limit) => (await store.searchSessionMetadata({ ...q, offset, limit })).hits);
  const { total, items } = pageOf(
    all.filter((h) => !revealsSecret(h.value, q.terms)),
    q.offset,
    q.limit,
  );
  return { total, hits: items };
}

export async function searchMessagesRedacted(store: Store, q: SearchFilters & { context?: number }): Promise<{ total: number; hits: MessageHit[] }> {
  const all = await collectAll(async (offset, limit) => (await store.searchMessages({ ...q, offset, limit })).hits);
  const lines = await store.evidenceLines(all.map((h) => ({ fileId: h.fileId, lineNumber: h.lineNumber })));
  const text = new Map(lines.map((l) => [`${l.fileId}:${l.lineNumber}`, l.raw.toString('utf8')]));
  const { total, items } = pageOf(
    all.filter((h) => !revealsSecret(text.get(`${h.fileId}:${h.lineNumber}`) ?? '', q.terms)),
    q.offset,
    q.limit,
  );
  return { total, hits: items };
}
