// A Store whose evidence comes back redacted, for read-only tokens: exact-evidence tools match and
// return redacted lines, so neither a regex nor a search can probe a secret through match counts.

import { redactText } from '../../../core/redact.js';
import type { EvidenceBlockView, LedgerInfo, RawLineRow, Store } from '../../../store/store.js';
import { searchMessagesRedacted, searchMetadataRedacted } from './redacted-search.js';

function redactBytes(raw: Buffer): Buffer {
  const text = raw.toString('utf8');
  const redacted = redactText(text);
  return redacted === text ? raw : Buffer.from(redacted, 'utf8');
}

function redactRow(row: RawLineRow): RawLineRow {
  const raw = redactBytes(row.raw);
  return raw === row.raw ? row : { ...row, raw };
}

/** The block with each line redacted; line numbers and statuses stay, starts and lengths follow the new bytes. */
function redactBlock(block: EvidenceBlockView): EvidenceBlockView {
  const parts: Buffer[] = [];
  const lines: EvidenceBlockView['lines'] = [];
  let at = 0;
  let changed = false;
  for (const l of block.lines) {
    const original = block.data.subarray(l.start, l.start + l.length);
    const bytes = redactBytes(original);
    changed ||= bytes !== original;
    parts.push(bytes, Buffer.from('\n'));
    lines.push({ ...l, start: at, length: bytes.length });
    at += bytes.length + 1;
  }
  return changed ? { ...block, data: Buffer.concat(parts), lines } : block;
}

/**
 * Ledgers whose files never look unchanged on disk: grep_jsonl reads an unchanged source file
 * directly (faster), which would bypass the redaction; an impossible mtime sends it to the store.
 */
function viaStore(ledgers: LedgerInfo[]): LedgerInfo[] {
  return ledgers.map((l) => ({ ...l, files: l.files.map((f) => ({ ...f, mtimeMs: -1 })) }));
}

/**
 * `store` with its evidence redacted (core/redact.ts), everything else passed through.
 *
 * @example const store = redactedEvidence(scopedStore(shared, ['-home-ana-app']));
 */
export function redactedEvidence(store: Store): Store {
  return {
    engine: store.engine,
    location: store.location,
    beginIngest: (o) => store.beginIngest(o),
    listSessions: (q) => store.listSessions(q),
    getSession: (id) => store.getSession(id),
    searchSessionMetadata: (q) => searchMetadataRedacted(store, q),
    searchMessages: (q) => searchMessagesRedacted(store, q),
    sessionLedgers: async (id) => viaStore(await store.sessionLedgers(id)),
    listRoots: (format) => store.listRoots(format),
    rootLedgers: async (path) => viaStore(await store.rootLedgers(path)),
    rawLines: async (ids, from, limit) => (await store.rawLines(ids, from, limit)).map(redactRow),
    sessionTimeline: (id, o) => store.sessionTimeline(id, o),
    sessionDescendants: (id) => store.sessionDescendants(id),
    evidenceLines: async (refs) => (await store.evidenceLines(refs)).map(redactRow),
    ledgerEntries: (q) => store.ledgerEntries(q),
    ledgerEventTypes: (ids) => store.ledgerEventTypes(ids),
    // No EvidenceSkip passed on: the gram filters describe the stored bytes, not the redacted ones.
    scanEvidence: (ids, visit) => store.scanEvidence(ids, (block) => visit(redactBlock(block))),
    listFiles: (o) => store.listFiles(o),
    listDefects: (q) => store.listDefects(q),
    totals: () => store.totals(),
    // Token counts and costs hold no secret text.
    usageCallGroups: store.usageCallGroups?.bind(store),
    usageCallRows: store.usageCallRows?.bind(store),
    usageCallHours: store.usageCallHours?.bind(store),
    tokens: () => store.tokens(),
    syncState: () => store.syncState(),
    close: () => store.close(),
  };
}
