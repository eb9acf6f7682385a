// Runs an importer over a root entirely in memory: discover, parse every file in order, merge
// facts and summarise each session. Importer tests use it; the real pipeline stores instead.

import { statSync } from 'node:fs';
import type { Defect, SessionFacts, SessionSummary } from '../core/model.js';
import { mergeFacts } from '../core/facts.js';
import { compareTimeline } from '../core/timeline-order.js';
import { emptyFile, parseDocumentFile, parseJsonlFile, type ParsedEvent } from '../ingest/parse-file.js';
import { dropCoveredMirrors } from '../store/shared/usage-mirrors.js';
import type { Importer, SourceFile, StoredEvent } from './importer.js';

export interface HarnessSession {
  facts: SessionFacts;
  events: StoredEvent[];
  summary: SessionSummary;
  derivedDefects: Defect[];
}

export interface HarnessResult {
  files: SourceFile[];
  /** Evidence lines per file relPath: count and statuses. */
  lines: Map<string, { total: number; bad: number; blank: number; incomplete: number }>;
  events: ParsedEvent[];
  defects: Defect[];
  sessions: Map<string, HarnessSession>;
}

/**
 * @example const r = await runImporter(claudeCode, '../shared/fixtures/claude-code');
 */
export async function runImporter(importer: Importer, root: string): Promise<HarnessResult> {
  const files = await importer.discover(root);
  const events: ParsedEvent[] = [];
  const defects: Defect[] = [];
  const facts = new Map<string, SessionFacts>();
  const lines = new Map<string, { total: number; bad: number; blank: number; incomplete: number }>();
  const chainStates = new Map<string, unknown>();
  const addFacts = (f: SessionFacts) => facts.set(f.id, mergeFacts(facts.get(f.id), f));

  for (const file of files) {
    for (const note of file.notes ?? []) defects.push(note);
    // Layout facts fill gaps under what parsers said (as the store merges them).
    for (const f of file.facts ?? []) {
      const known = facts.get(f.id);
      facts.set(f.id, known ? mergeFacts(f, known) : mergeFacts(undefined, f));
    }
    const counts = { total: 0, bad: 0, blank: 0, incomplete: 0 };
    lines.set(file.relPath, counts);
    const parser = file.evidenceOnly
      ? null
      : importer.createParser(file, { chainState: file.chainGroup ? chainStates.get(file.chainGroup) : undefined });
    const sink = {
      line(_n: number, _o: number, _b: Buffer, status: 'ok' | 'blank' | 'bad' | 'incomplete') {
        counts.total++;
        if (status === 'bad') counts.bad++;
        if (status === 'blank') counts.blank++;
        if (status === 'incomplete') counts.incomplete++;
      },
      event: (e: ParsedEvent) => events.push(e),
      defect: (d: Defect) => defects.push(d),
      facts: addFacts,
    };
    if (file.kind === 'document') parseDocumentFile(file, parser, sink);
    else {
      // As the pipeline does (ingest-file.ts): an empty JSONL file is worth an info line.
      if (statSync(file.path).size === 0) {
        defects.push(emptyFile(file));
      }
      parseJsonlFile(file, parser, sink);
    }
    if (parser && file.chainGroup) chainStates.set(file.chainGroup, parser.snapshot());
  }

  const bySession = new Map<string, StoredEvent[]>();
  events.forEach((e, i) => {
    if (e.sessionId === '') return; // an entry that names no session stays a ledger entry only
    const { tsMissing: _m, text: _t, ...stored } = e;
    const list = bySession.get(e.sessionId) ?? [];
    list.push({ ...stored, seq: i + 1, fileId: 0 });
    bySession.set(e.sessionId, list);
  });
  for (const id of bySession.keys()) {
    if (!facts.has(id)) facts.set(id, { id, format: importer.format });
  }
  // As the writers do before summarising (store/shared/usage-mirrors.ts).
  dropCoveredMirrors(new Map([...bySession].map(([id, list]) => [id, { parentId: facts.get(id)?.parentId ?? null, events: list }])));
  const sessions = new Map<string, HarnessSession>();
  for (const [id, f] of [...facts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const list = (bySession.get(id) ?? []).sort(compareTimeline);
    const out = importer.summarize({ facts: f, events: list });
    sessions.set(id, { facts: f, events: list, summary: out.summary, derivedDefects: out.defects });
  }
  return { files, lines, events, defects, sessions };
}
