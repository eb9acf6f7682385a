// Runs an importer over a root entirely in memory: discover, parse every file in order, merge
// facts and summarise each session (children first, as the store's writers do). Importer tests
// use it; the real pipeline stores instead.

import { statSync } from 'node:fs';
import type { LlmCall, ParsedEvent, StoredEvent } from '../core/events.js';
import { firstHandKeys, llmCalls } from '../core/llm-calls.js';
import type { Defect, SessionFacts, SessionSummary } from '../core/model.js';
import { mergeFacts } from '../core/facts.js';
import { childrenFirst, depths } from '../core/session-tree.js';
import { compareTimeline } from '../core/timeline-order.js';
import type { Importer, SourceFile } from '../formats/importer.js';
import { emptyFile, parseDocumentFile, parseJsonlFile } from './parse-file.js';
import { releaseBytes } from './held-bytes.js';
import { statRows } from './sqlite-rows.js';

export interface HarnessSession {
  facts: SessionFacts;
  events: StoredEvent[];
  summary: SessionSummary;
  derivedDefects: Defect[];
  /** The session's LLM calls as the store would keep them. */
  calls: LlmCall[];
}

export interface HarnessResult {
  files: SourceFile[];
  /** Evidence lines per file relPath: count and statuses. */
  lines: Map<string, { total: number; bad: number; blank: number; incomplete: number }>;
  events: ParsedEvent[];
  defects: Defect[];
  sessions: Map<string, HarnessSession>;
}

export interface HarnessOptions {
  /**
   * Which lines of a JSONL file to parse (the usage pass: Importer.usageLines); null or omitted:
   * every line. Skipped lines still count as evidence lines.
   */
  select?: (file: SourceFile) => ((line: Buffer) => boolean) | null;
  /** Keep only the events this accepts (the usage pass keeps those with usage); omitted: every event. */
  keepEvent?: (event: ParsedEvent) => boolean;
}

/**
 * @example const r = await runImporter(claudeCode, '../shared/fixtures/claude-code');
 */
export async function runImporter(importer: Importer, root: string, options: HarnessOptions = {}): Promise<HarnessResult> {
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
      event: (e: ParsedEvent) => {
        if (!options.keepEvent || options.keepEvent(e)) events.push(e);
      },
      defect: (d: Defect) => defects.push(d),
      facts: addFacts,
    };
    if (file.kind === 'document') parseDocumentFile(file, parser, sink);
    else {
      // As the pipeline does (ingest-file.ts): an empty JSONL file is worth an info line.
      // Database rows are read (and held for the line reader) by their stat, as in ingest-file.ts.
      const size = file.rows ? statRows({ ...file, rows: file.rows }, null).size : statSync(file.path).size;
      if (size === 0) {
        defects.push(emptyFile(file));
      }
      parseJsonlFile(file, parser, sink, { select: options.select?.(file) ?? undefined });
      if (file.rows) releaseBytes(file.path);
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
  // Children first, each parent told which calls its children record first-hand (a mirror of one
  // of them stops counting, and its usage is cleared as the store clears it).
  const childrenOf = new Map<string, string[]>();
  for (const f of facts.values()) {
    if (!f.parentId || !facts.has(f.parentId)) continue;
    childrenOf.set(f.parentId, [...(childrenOf.get(f.parentId) ?? []), f.id]);
  }
  const order = childrenFirst(facts.keys(), depths([...facts.values()].map((f) => ({ id: f.id, parentId: f.parentId ?? null }))));
  const firstHand = new Map<string, string[]>();
  const summarised = new Map<string, HarnessSession>();
  for (const id of order) {
    const f = facts.get(id)!;
    let list = (bySession.get(id) ?? []).sort(compareTimeline);
    const childCalls = new Set((childrenOf.get(id) ?? []).flatMap((c) => firstHand.get(c) ?? []));
    const out = importer.summarize({ facts: f, events: list, childCalls });
    const dropped = new Set(out.dropUsage ?? []);
    if (dropped.size > 0) list = list.map((e) => (dropped.has(e.seq) ? { ...e, usage: null } : e));
    const calls = out.calls ?? llmCalls(list);
    firstHand.set(id, firstHandKeys(calls));
    summarised.set(id, { facts: f, events: list, summary: out.summary, derivedDefects: out.defects, calls });
  }
  const sessions = new Map<string, HarnessSession>();
  for (const id of [...summarised.keys()].sort()) sessions.set(id, summarised.get(id)!);
  return { files, lines, events, defects, sessions };
}
