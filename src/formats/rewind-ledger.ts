// The rewind ledger: a JSONL file Hindsight itself writes beside a session when rewind_session
// applies a cut (the seed's "rewind creates a REWIND block that syncs"). It lives in the session's
// own folder, so the format's discover picks it up as one more ledger of that session (`rewinds`):
// the entry is evidence like any other line, `hindsight sync push` mirrors it with the session's
// files, and every store that ingests it — this machine's after the next ingest, the shared
// remote after a push — records an info `rewind` finding on the session from it.
//
//   Amplifier    projects/<slug>/sessions/<id>/hindsight-rewinds.jsonl
//   Claude Code  projects/<slug>/<sessionId>/hindsight-rewinds.jsonl (the folder of its sub-agents)
//
// One line per applied rewind:
//   {"type":"REWIND","timestamp":"…Z","session_id":"…","by":"hindsight rewind_session",
//    "target":{"kind":"turn","requested":2,"file":"…","line_number":15},
//    "files":[{"file":"…","lines_before":20,"lines_after":14,"bytes_before":…,"bytes_after":…,"backup":"….bak-pre-rewind-…"}],
//    "removed":{"messages":6,"events":60,"tool_calls":2},"turn_count_before":4,"turn_count_after":2}

import { join } from 'node:path';
import type { LineParser, SourceFile } from './importer.js';

export const REWIND_FILE = 'hindsight-rewinds.jsonl';
export const REWIND_LEDGER = 'rewinds';
/** Merge rank: after a session's own ledgers, before evidence-only backups. */
export const REWIND_RANK = 8;
export const REWIND_TYPE = 'REWIND';

/** Where a session's rewind ledger is, given the folder that holds it (see the table above). */
export function rewindLedgerPath(sessionFolder: string): string {
  return join(sessionFolder, REWIND_FILE);
}

/** The source file entry for a rewind ledger found in a session's folder. */
export function rewindSourceFile(base: Pick<SourceFile, 'root' | 'sessionId'>, path: string, relPath: string): SourceFile {
  return { ...base, path, relPath, ledger: REWIND_LEDGER, ledgerRank: REWIND_RANK, kind: 'jsonl' };
}

export interface RewindEntry {
  type: typeof REWIND_TYPE;
  timestamp: string;
  session_id: string;
  by: string;
  target: { kind: string; requested: number | string; file: string; line_number: number };
  files: { file: string; lines_before: number; lines_after: number; bytes_before: number; bytes_after: number; backup: string }[];
  removed: { messages: number; events: number; tool_calls: number };
  turn_count_before: number;
  turn_count_after: number;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

function describe(entry: Record<string, unknown>): string {
  const target = (entry.target ?? {}) as Record<string, unknown>;
  const files = Array.isArray(entry.files) ? (entry.files as Record<string, unknown>[]) : [];
  const cuts = files.map((f) => `${str(f.file) ?? '?'} ${String(f.lines_before ?? '?')} → ${String(f.lines_after ?? '?')} lines`).join(', ');
  const turns = entry.turn_count_before !== undefined ? `; turns ${String(entry.turn_count_before)} → ${String(entry.turn_count_after)}` : '';
  return `session cut by ${str(entry.by) ?? 'a rewind'} at ${str(entry.timestamp) ?? '(no time)'} (${str(target.kind) ?? '?'} ${String(target.requested ?? '?')}): ${cuts || 'no files named'}${turns}; the removed lines stay in the store as the earlier generation`;
}

/**
 * Each REWIND line becomes an info `rewind` finding of the session (no events: a rewind is not
 * something the agent did, and the session's summaries must not count it). Anything else in the
 * file is a warning: the file is Hindsight's own and holds nothing else.
 */
export function createRewindParser(file: SourceFile): LineParser {
  const sessionId = file.sessionId ?? null;
  return {
    line(obj, ctx) {
      if (obj.type !== REWIND_TYPE) {
        ctx.defect({ severity: 'warning', kind: 'unexpected_rewind_entry', sessionId, message: `line is not a ${REWIND_TYPE} entry (type ${JSON.stringify(obj.type ?? null)}); kept as evidence` });
        return;
      }
      ctx.defect({ severity: 'info', kind: 'rewind', sessionId, message: describe(obj) });
    },
    snapshot: () => null,
  };
}
