// Rows of the `sources` reports (files, defects) mapped to the Store's shapes, once for both engines.

import type { DefectRow, SourceFileRow } from '../store.js';

export interface SourceFileRowDb {
  root: string;
  rel_path: string;
  format: string;
  ledger: string;
  session_id: string | null;
  generation: number;
  superseded: number;
  superseded_reason: string | null;
  size: number;
  lines: number;
  bad_lines: number;
  events: number;
}

export function sourceFileFromRow(r: SourceFileRowDb): SourceFileRow {
  return {
    root: r.root,
    file: r.rel_path,
    format: r.format as SourceFileRow['format'],
    ledger: r.ledger,
    sessionId: r.session_id,
    generation: r.generation,
    superseded: r.superseded === 1,
    supersededReason: r.superseded_reason,
    size: r.size,
    lines: r.lines,
    badLines: r.bad_lines,
    events: r.events,
  };
}

export interface DefectRowDb {
  root: string;
  rel_path: string;
  line: number | null;
  severity: DefectRow['severity'];
  kind: string;
  message: string;
  session_id: string | null;
}

export function defectFromRow(r: DefectRowDb): DefectRow {
  return { root: r.root, file: r.rel_path, line: r.line, severity: r.severity, kind: r.kind, message: r.message, sessionId: r.session_id };
}
