// What `otel push` sent, kept with the store so a second push sends only new or changed sessions:
// per traces endpoint, each top-level session's fingerprint when its trace was last accepted. It
// lives in the store's sync document (Store.syncState: `<db>.sync.json` beside SQLite, a row in
// PostgreSQL) under its own key, `otel_push`; sync reads and rewrites that document whole and keeps
// keys it does not know, and this module keeps sync's (`version`, `remotes`) in turn.

import { createHash } from 'node:crypto';
import type { SessionRow, Store } from '../store/store.js';

export interface EndpointRecord {
  last_push: string | null;
  /** Top-level session id → fingerprint of what was sent. */
  sent: Record<string, string>;
}

type Doc = Record<string, unknown> & { otel_push?: Record<string, EndpointRecord> };

async function readDoc(store: Store): Promise<Doc> {
  try {
    const parsed = JSON.parse((await store.syncState().read()) ?? 'null') as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Doc;
  } catch {
    // A damaged document: sync starts over too (sync-state.ts); so does the record of pushes.
  }
  return {};
}

/** What was sent to `endpoint` (empty when nothing was). */
export async function readPushRecord(store: Store, endpoint: string): Promise<EndpointRecord> {
  const doc = await readDoc(store);
  const entry = doc.otel_push?.[endpoint];
  return { last_push: entry?.last_push ?? null, sent: { ...(entry?.sent ?? {}) } };
}

/** Record sessions as sent (re-reading the document first, so a sync that ran meanwhile keeps its part). */
export async function recordSent(store: Store, endpoint: string, sent: Record<string, string>, at: string): Promise<void> {
  const doc = await readDoc(store);
  const all = { ...(doc.otel_push ?? {}) };
  const entry = all[endpoint] ?? { last_push: null, sent: {} };
  all[endpoint] = { last_push: at, sent: { ...entry.sent, ...sent } };
  // sync's reader wants these two; a document written first by a push still reads as "never synced".
  const out = { version: 1, remotes: {}, ...doc, otel_push: all };
  await store.syncState().write(`${JSON.stringify(out)}\n`);
}

/**
 * A session tree's fingerprint: what its trace is made of as the summaries say (events, calls,
 * tokens, tools, status, times) for it and every session below it, and the export's options. A
 * session that gained a line, a call or a sub-agent gets a new one.
 */
export function treeFingerprint(tree: readonly SessionRow[], options: string): string {
  const h = createHash('sha256').update(options);
  for (const s of [...tree].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    h.update(
      JSON.stringify([s.id, s.parentId, s.status, s.startedAt, s.endedAt, s.eventCount, s.llmCalls, s.toolCalls, s.toolErrors, s.tokensOwn, s.models, s.agentName, s.project]),
    );
  }
  return h.digest('hex').slice(0, 32);
}
