// The line parser of one ledger file: checks each entry against the hash chain, attributes it
// to its session and emits one event per entry; its snapshot is the chain state.

import type { LineContext, LineParser, ParserOptions, SourceFile } from '../importer.js';
import { sessionOf, workOrderOf } from './attribution.js';
import { computeEntryHash, initialChainState, restoreChainState, verifyLink } from './chain.js';
import { entryEvent } from './entry-event.js';
import { hugeLineEntry } from './huge-line.js';
import { MAIN_LEDGER } from './layout.js';

type Obj = Record<string, unknown>;

const TITLE_CHARS = 200;

function titleOf(message: string): string {
  const flat = message.replace(/\s+/g, ' ').trim();
  return flat.length > TITLE_CHARS ? `${flat.slice(0, TITLE_CHARS - 1)}…` : flat;
}

/** A LedgerEntry names its event_type; anything else (operator notes…) is not one. */
function isEntry(obj: Obj): boolean {
  return typeof obj.event_type === 'string' && obj.event_type !== '';
}

export function createControlPlaneParser(file: SourceFile, options: ParserOptions): LineParser {
  // On resume our own snapshot wins; at the start of a file that continues a rotated segment,
  // the segment's final state carries the chain across the boundary.
  const chain = restoreChainState(options.resumeState) ?? restoreChainState(options.chainState) ?? initialChainState();
  // Sessions whose layout facts were already sent by this parser (re-sending is harmless: facts merge).
  const announced = new Set<string>();

  function handle(entry: Obj, ctx: LineContext, computed: string | null, hashable: boolean, huge = false): void {
    const workOrder = workOrderOf(entry);
    const sessionId = sessionOf(entry, workOrder);
    const id = typeof entry.id === 'string' ? entry.id : null;
    const breaks = verifyLink(chain, { id, previousHash: entry.previous_hash, entryHash: entry.entry_hash, computed }, file.relPath, sessionId ?? null);
    for (const d of breaks) ctx.defect(d);
    if (computed === null) {
      ctx.defect({
        severity: 'warning',
        kind: 'hash_unverified',
        sessionId: sessionId ?? null,
        message: hashable
          ? `${id ?? 'entry'} could not be re-serialised for hashing; its own entry_hash was not checked`
          : `${id ?? 'entry'} is too large to re-hash (${ctx.byteLength} bytes); its link to the previous entry was checked, its own entry_hash was not`,
      });
    }

    const event = entryEvent({ entry, ledger: file.ledger, sessionId: sessionId ?? '', workOrder, where: `${file.relPath}:${ctx.lineNumber}` });
    if (!sessionId) delete event.sessionId; // the pipeline reports the entry as unattributed
    // As the other importers mark them: tools then point at raw_lines instead of parsing it again.
    if (huge) event.attrs = { ...event.attrs, huge: true, bytes: ctx.byteLength };
    if (typeof entry.timestamp === 'string' && entry.timestamp !== '') {
      event.timestamp = entry.timestamp;
    } else {
      // The writer always stamps entries, so this is damage, not a format habit; the event keeps
      // its place after the line before (the pipeline's rule for a missing time). A warning, not
      // an error: the line is whole and its hash verifies (it was hashed without a timestamp).
      ctx.defect({
        severity: 'warning',
        kind: 'missing_timestamp',
        sessionId: sessionId ?? null,
        message: `${id ?? 'entry'} (${String(entry.event_type)}) has no timestamp; it is placed after the line before it`,
      });
    }
    ctx.emit(event);

    if (sessionId && !announced.has(sessionId)) {
      announced.add(sessionId);
      ctx.facts({
        id: sessionId,
        format: 'control-plane',
        project: file.projectRoot ?? file.root,
        projectPath: file.projectRoot ?? file.root,
        kind: 'root',
        mainLedger: MAIN_LEDGER,
      });
    }
    const m = entry.metadata as Obj | undefined;
    if (sessionId && entry.event_type === 'TURN_RECORDED' && m?.turn_number === 1 && typeof m.user_message === 'string') {
      ctx.facts({ id: sessionId, format: 'control-plane', title: titleOf(m.user_message) });
    }
  }

  return {
    line(obj, ctx) {
      if (!isEntry(obj)) {
        const keys = Object.keys(obj).slice(0, 5).join(', ');
        ctx.defect({
          severity: 'error',
          kind: 'object_not_entry',
          message: `JSON object is not a ledger entry (no event_type; keys: ${keys || 'none'}); it is not part of the hash chain`,
        });
        return;
      }
      const computed = computeEntryHash(ctx.raw);
      handle(obj, ctx, computed, true);
    },
    hugeLine(head, ctx) {
      const entry = hugeLineEntry(head, ctx);
      if (!entry) {
        ctx.defect({ severity: 'error', kind: 'object_not_entry', message: 'oversized line does not start like a ledger entry (no event_type in its head)' });
        return;
      }
      handle(entry, ctx, null, false, true);
    },
    snapshot() {
      return { ...chain };
    },
  };
}
