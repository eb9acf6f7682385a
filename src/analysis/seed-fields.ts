// The session-analyst seed's names for a session row (`list` operation), beside Hindsight's own:
// created, modified, name, model, bundle. Always present; null when the data does not say.

import { z } from 'zod';
import { redactText } from '../core/redact.js';
import type { SessionRow } from '../store/store.js';

export const seedListShape = {
  created: z.string().nullable(),
  modified: z.string().nullable(),
  name: z.string().nullable(),
  model: z.string().nullable(),
  bundle: z.string().nullable(),
};

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/**
 * - created: when the session started (started_at: its first timestamped entry).
 * - modified: its last recorded time: ended_at (the last entry; Control Plane: SESSION_END), else started_at.
 * - name: its title (Amplifier: metadata.json `name`, else its description).
 * - model: the model its metadata names (Amplifier), else the first model its LLM calls used.
 * - bundle: the Amplifier bundle from metadata.json; null for other formats.
 */
export function seedListFields(s: SessionRow, redact: boolean): { [K in keyof typeof seedListShape]: string | null } {
  const attrs = s.facts.attrs ?? {};
  return {
    created: s.startedAt,
    modified: s.endedAt ?? s.startedAt,
    name: s.title !== null && redact ? redactText(s.title) : s.title,
    model: text(attrs.model) ?? s.models[0] ?? null,
    bundle: text(attrs.bundle),
  };
}
