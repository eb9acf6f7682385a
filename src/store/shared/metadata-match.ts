// Engine-neutral pieces of search: the metadata columns, LIKE patterns with ASCII-only case
// folding (SQLite's LIKE rule, which PostgreSQL reproduces), and which field a metadata hit is shown on.

import type { Format } from '../../core/model.js';
import { keyToIso } from '../../core/time.js';
import { METADATA_FIELDS, type MetadataField, type MetadataHit, type SearchTerm } from '../store.js';

/** Each metadata field's column over `sessions s`. */
export const METADATA_COLUMN: Record<MetadataField, string> = {
  title: 's.title',
  first_user_message: 's.first_user_message',
  id: 's.id',
  agent_name: 's.agent_name',
  project: 's.project',
  project_path: 's.project_path',
};

/** Event kinds that count as messages (search context neighbours), as an SQL list. */
export const MESSAGE_KINDS = "('user_message', 'assistant_message')";

/** SQLite's LIKE folds ASCII letters only: fold the same way so that JS and SQL agree on a match. */
export function asciiLower(text: string): string {
  return text.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

/** A LIKE pattern that matches `text` anywhere, with LIKE's own wildcards escaped. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export interface MetadataRowDb {
  id: string;
  format: Format;
  project: string | null;
  project_path: string | null;
  title: string | null;
  first_user_message: string | null;
  agent_name: string | null;
  started_at: string | null;
}

/** The field a session matched on: the first holding every term, else the first holding the first term. */
export function matchedField(row: MetadataRowDb, terms: SearchTerm[]): MetadataField {
  const needles = terms.map((t) => asciiLower(t.text));
  const holds = (f: MetadataField, n: string) => row[f] !== null && asciiLower(row[f]!).includes(n);
  return METADATA_FIELDS.find((f) => needles.every((n) => holds(f, n))) ?? METADATA_FIELDS.find((f) => holds(f, needles[0]!)) ?? 'id';
}

/** A metadata hit from its row: the matched field and that field's full value. */
export function metadataHit(r: MetadataRowDb, terms: SearchTerm[]): MetadataHit {
  const field = matchedField(r, terms);
  return { sessionId: r.id, format: r.format, project: r.project, startedAt: keyToIso(r.started_at), field, value: r[field] ?? '' };
}
