// The seed's `metadata`: the session's own metadata document exactly as its writer saved it
// (Amplifier `metadata.json`; a Claude Code sub-agent's `agent-<id>.meta.json`), read back from the
// stored evidence so it survives the source being deleted. Formats without such a document get
// null. Facts derived from it (renamed, clipped) are get_session's `facts`, not this.

import { redactValue } from '../../core/redact.js';
import type { LedgerInfo, SessionRow, Store } from '../../store/store.js';

/** A document larger than this is not inlined (read it with raw_lines). */
export const METADATA_MAX_BYTES = 64 * 1024;

export interface MetadataDocument {
  /** The parsed document; null when there is none, it is not valid JSON, or it is too large. */
  metadata: unknown;
  /** Where it was read from (relative to the root), and why `metadata` is null when it is. */
  metadata_file: string | null;
  metadata_note: string | null;
}

/** The session's own metadata ledger: `metadata` (Amplifier) or `<main ledger>.meta` (a Claude Code sub-agent). */
function metadataLedger(s: SessionRow, ledgers: LedgerInfo[]): LedgerInfo | undefined {
  const names = new Set(['metadata', ...(s.mainLedger ? [`${s.mainLedger}.meta`] : [])]);
  return ledgers.find((l) => names.has(l.ledger));
}

export async function metadataDocument(store: Store, s: SessionRow, ledgers: LedgerInfo[], redact: boolean): Promise<MetadataDocument> {
  const ledger = metadataLedger(s, ledgers);
  const file = ledger?.files.find((f) => !f.superseded) ?? ledger?.files[ledger.files.length - 1];
  if (!file) return { metadata: null, metadata_file: null, metadata_note: null };
  const note = (why: string): MetadataDocument => ({ metadata: null, metadata_file: file.relPath, metadata_note: why });
  if (file.offset > METADATA_MAX_BYTES) return note(`${file.relPath} has ${file.offset} bytes (over ${METADATA_MAX_BYTES}); read it with raw_lines.`);
  const lines = await store.rawLines([file.fileId], 1, Math.max(file.lines, 1));
  const text = Buffer.concat(lines.flatMap((l, i) => (i === 0 ? [l.raw] : [Buffer.from('\n'), l.raw]))).toString('utf8');
  if (text.trim() === '') return note(`${file.relPath} is empty.`);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    return note(`${file.relPath} is not valid JSON (${(err as Error).message.slice(0, 120)}); its raw lines are in raw_lines.`);
  }
  return { metadata: redact ? redactValue(doc) : doc, metadata_file: file.relPath, metadata_note: null };
}
