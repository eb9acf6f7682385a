// A session's metadata for get_session: the list_sessions row, then what only one session shows —
// project path, parent and children (listed, never merged: a session's ledgers are its own files),
// its source ledgers with paths and line counts, models, tokens own and total, its metadata
// document as written (`metadata`) and the facts Hindsight derived from it (`facts`, each bounded).

import type { SessionRow, Store } from '../../store/store.js';
import { seedListFields } from '../../analysis/seed-fields.js';
import { capValue } from '../../analysis/text-cap.js';
import { sessionListItem, tokensView } from '../session-view.js';
import { metadataDocument } from './metadata-document.js';

const MAX_CHILDREN = 100;
const FACT_CHARS = 1_000;

async function childIds(store: Store, id: string): Promise<{ total: number; ids: string[] }> {
  const { total, sessions } = await store.listSessions({ parentId: id, limit: MAX_CHILDREN, offset: 0 });
  return { total, ids: sessions.map((s) => s.id).sort() };
}

/** Small format facts (Amplifier metadata.json fields, Control Plane work orders…), each bounded. */
function bounded(record: Record<string, unknown>, redact: boolean): Record<string, unknown> {
  const keys = Object.keys(record).sort();
  return Object.fromEntries(keys.map((k) => [k, capValue(record[k], FACT_CHARS, redact).value]));
}

export async function sessionMetadata(store: Store, s: SessionRow, redact: boolean) {
  const [children, ledgers] = await Promise.all([childIds(store, s.id), store.sessionLedgers(s.id)]);
  const ledgerViews = ledgers.map((l) => ({
    ledger: l.ledger,
    files: l.files
      .map((f) => ({ path: f.path, rel_path: f.relPath, lines: f.lines, size: f.size, generation: f.generation, superseded: f.superseded }))
      .sort((a, b) => Number(a.superseded) - Number(b.superseded)),
  }));
  const document = await metadataDocument(store, s, ledgers, redact);
  const main = ledgerViews.find((l) => l.ledger === s.mainLedger) ?? ledgerViews[0];
  const path = main?.files.find((f) => !f.superseded)?.path ?? null;
  // The row's `status` would overwrite the envelope's: the session's is session_status here.
  const { tokens: _total, children: childCount, status, ...row } = sessionListItem(s, redact);
  return {
    ...row,
    ...seedListFields(s, redact),
    session_status: status,
    project_path: s.projectPath,
    root: s.root,
    agent_name: s.agentName,
    main_ledger: s.mainLedger,
    source: 'local' as const,
    path,
    children_count: childCount,
    children_ids: children.ids,
    children_ids_truncated: children.total > children.ids.length,
    tokens: { own: tokensView(s.tokensOwn), total: tokensView(s.tokensTotal) },
    llm_calls: s.llmCalls,
    tool_calls: s.toolCalls,
    tool_errors: s.toolErrors,
    errors: s.errors,
    warnings: s.warnings,
    compactions: s.compactions,
    rewrites: s.rewrites,
    ledgers: ledgerViews,
    ...document,
    facts: bounded(s.facts.attrs ?? {}, redact),
    summary_attrs: bounded(s.attrs, redact),
  };
}
