// The `jsonl` export: the session's raw lines from the stored evidence, ledger by ledger, each in
// its file order (not interleaved by time, so every ledger stays a valid file of its format):
// - Claude Code / Amplifier: the session's main ledger, then its other JSONL ledgers by name
//   (Claude Code sub-agent files `agent-<id>`, Amplifier `events`), then, with sub-agents, each
//   descendant session's ledgers the same way (descendants in id order). JSON documents
//   (Amplifier metadata.json, Claude Code agent .meta.json) are not lines and are left out.
// - Control Plane: the session's entries of ho2m, then ho1m, then governance (the plane's
//   ledgers hold every session; only entries attributed to this one are exported).
// Lines are exact bytes (decoded as UTF-8; blank lines are left out); with redaction, a line that holds a secret is
// re-serialised with the secret replaced, every other line stays byte-identical.

import { jsonDepth, MAX_JSON_DEPTH } from '../../core/json-depth.js';
import { redactValue } from '../../core/redact.js';
import type { FormatProfile, SharedLedgers } from '../../formats/profile.js';
import { profileOf } from '../../formats/registry.js';
import type { SessionRow, Store } from '../../store/store.js';

const PAGE = 500;

/** A line, with any secret redacted; unchanged lines keep their exact bytes. */
function redactLine(text: string): string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text;
  }
  const redacted = redactValue(value);
  // A line nested deeper than MAX_JSON_DEPTH comes back cut (and JSON.stringify could not take it whole).
  if (jsonDepth(value, MAX_JSON_DEPTH + 1) > MAX_JSON_DEPTH) return JSON.stringify(redacted);
  return JSON.stringify(redacted) === JSON.stringify(value) ? text : JSON.stringify(redacted);
}

/** A session's entries of ledgers its root shares with every session (see SharedLedgers), in the format's ledger order. */
async function* sharedLedgerLines(store: Store, session: SessionRow, shared: SharedLedgers): AsyncGenerator<string> {
  const ledgers = await store.sessionLedgers(session.id);
  const order = shared.names;
  const rank = (l: string) => (order.indexOf(l) + order.length + 1) % (order.length + 1);
  const ordered = [...ledgers].sort((a, b) => rank(a.ledger) - rank(b.ledger) || a.ledger.localeCompare(b.ledger));
  for (const ledger of ordered) {
    const fileIds = ledger.files.filter((f) => !f.superseded).map((f) => f.fileId);
    if (fileIds.length === 0) continue;
    for (let offset = 0; ; offset += PAGE) {
      const { entries } = await store.ledgerEntries({ fileIds, sessionId: session.id, offset, limit: PAGE });
      const rows = await store.evidenceLines(entries.map((e) => ({ fileId: e.fileId, lineNumber: e.lineNumber })));
      for (const row of rows) yield row.raw.toString('utf8');
      if (entries.length < PAGE) break;
    }
  }
}

async function* fileLines(store: Store, session: SessionRow, profile: FormatProfile, includeSubagents: boolean): AsyncGenerator<string> {
  const ids = [session.id, ...(includeSubagents ? await store.sessionDescendants(session.id) : [])];
  const seen = new Set<number>();
  for (const id of ids) {
    const own = id === session.id ? session : await store.getSession(id);
    const main = own?.mainLedger ?? 'transcript';
    const ledgers = (await store.sessionLedgers(id))
      .filter((l) => !profile.isDocumentLedger(l.ledger))
      // A parent may list its sub-agents' files as its ledgers (Claude Code): without sub-agents, only
      // the files that are its own (or name no session).
      .filter((l) => includeSubagents || id !== session.id || l.ledger === main || l.files.every((f) => f.sessionId === null || f.sessionId === id))
      .sort((a, b) => Number(b.ledger === main) - Number(a.ledger === main) || a.ledger.localeCompare(b.ledger));
    for (const ledger of ledgers) {
      const files = ledger.files.filter((f) => !f.superseded && !seen.has(f.fileId));
      files.forEach((f) => seen.add(f.fileId));
      const fileIds = files.map((f) => f.fileId);
      const total = files.reduce((n, f) => n + f.lines, 0);
      for (let from = 1; from <= total; from += PAGE) {
        const rows = await store.rawLines(fileIds, from, PAGE);
        for (const row of rows) if (row.status !== 'blank') yield row.raw.toString('utf8');
        if (rows.length < PAGE) break;
      }
    }
  }
}

/** The session's raw lines (see the module comment for the order). */
export async function* jsonlLines(store: Store, session: SessionRow, opts: { includeSubagents: boolean; redact: boolean }): AsyncGenerator<string> {
  const profile = await profileOf(session.format);
  const lines = profile.sharedLedgers ? sharedLedgerLines(store, session, profile.sharedLedgers) : fileLines(store, session, profile, opts.includeSubagents);
  for await (const line of lines) yield opts.redact ? redactLine(line) : line;
}
