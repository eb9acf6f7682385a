// The SQLite side of ingest: batches written atomically with their file checkpoint, so a crash at
// any moment leaves the store at the last committed batch and a re-run resumes from there.

import type Database from 'better-sqlite3';
import { mergeFacts } from '../../core/facts.js';
import { keyToParts } from '../../core/time.js';
import type { Defect, Format, SessionFacts } from '../../core/model.js';
import type { EvidenceLine, FileCheckpoint, FileRecord, IngestBatch, IngestWriter, NewFile, Summarizer } from '../store.js';
import { fileFromRow, type FileRowDb } from './rows.js';
import { readSessionEvents } from './session-events.js';
import { badLineCount } from '../../core/bad-lines.js';
import { packLines, unpackLines } from './line-index.js';
import { clearUsage, recomputeTotals, saveSummary } from './session-summary.js';
import { storedCallKeys, writeUsageCalls } from './usage-calls.js';
import { compactReasoning, compactTiebreak, compactUsageKey, UNATTRIBUTED_SID } from '../shared/event-row.js';
import { summarizeDirty, type SummaryPort, type SummaryTarget } from '../shared/summarize-dirty.js';

/** Input bytes per commit when batches are grouped. */
const GROUP_BYTES = 4 * 1024 * 1024;


interface SessionCache {
  sid: number;
  facts: SessionFacts;
  nextSeq: number;
  factsChanged: boolean;
}

export class SqliteIngestWriter implements IngestWriter {
  private readonly sessions = new Map<string, SessionCache>();
  private noSession: SessionCache | undefined;
  private groupBytes = 0;
  private readonly st;

  constructor(
    private readonly db: Database.Database,
    private readonly releaseLock: () => void,
  ) {
    this.st = {
      root: db.prepare('SELECT id FROM roots WHERE path = ?'),
      insertRoot: db.prepare('INSERT INTO roots (path, format) VALUES (?, ?)'),
      currentFile: db.prepare(
        'SELECT f.*, r.path AS root_path FROM files f JOIN roots r ON r.id = f.root_id WHERE f.path = ? AND f.superseded = 0',
      ),
      fileById: db.prepare('SELECT f.*, r.path AS root_path FROM files f JOIN roots r ON r.id = f.root_id WHERE f.id = ?'),
      insertFile: db.prepare(`INSERT INTO files (root_id, path, rel_path, format, ledger, ledger_rank, session_id, kind,
        evidence_only, chain_group, generation) VALUES (@rootId, @path, @relPath, @format, @ledger, @ledgerRank, @sessionId,
        @kind, @evidenceOnly, @chainGroup, @generation)`),
      insertBlock: db.prepare(
        'INSERT INTO blocks (file_id, first_line, line_count, first_offset, raw_bytes, line_index, data) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      sessionById: db.prepare('SELECT sid, facts, next_seq FROM sessions WHERE id = ?'),
      maxSeq: db.prepare('SELECT max(seq) AS n FROM events WHERE sid = ?'),
      insertSession: db.prepare(
        `INSERT INTO sessions (id, format, root_id, kind, facts, next_seq, dirty) VALUES (?, ?, ?, 'root', ?, 1, 1)`,
      ),
      updateSessionFacts: db.prepare(`UPDATE sessions SET facts = @facts, project = @project, project_path = @projectPath,
        parent_id = @parentId, kind = @kind, title = @title, agent_name = @agentName, main_ledger = @mainLedger,
        next_seq = @nextSeq, dirty = 1 WHERE sid = @sid`),
      markDirty: db.prepare('UPDATE sessions SET next_seq = ?, dirty = 1 WHERE sid = ?'),
      markDirtyById: db.prepare('UPDATE sessions SET dirty = 1 WHERE id = ?'),
      insertEvent: db.prepare(`INSERT INTO events (sid, seq, file_id, line_number, part, ts_ms, ts_ns, ts_missing, ledger_rank,
        tiebreak, type, kind, actor, turn, wo_id, tool_call_id, message_id, request_id, agent_id, entry_id, usage_key, model,
        tok_in, tok_out, tok_cw, tok_cr, tool_name, tool_status, summary, attrs, tok_rs) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
        ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
      insertFts: db.prepare('INSERT INTO message_fts (rowid, text) VALUES (?, ?)'),
      insertDefect: db.prepare(`INSERT OR IGNORE INTO defects (root_id, file_id, rel_path, line, severity, kind, message,
        session_id, derived) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`),
      checkpoint: db.prepare(`UPDATE files SET size = @size, mtime_ms = @mtimeMs, offset = @offset, next_line = @nextLine,
        last_ts_key = @lastTsKey, parser_state = @parserState, content_hash = coalesce(@contentHash, content_hash),
        lines = lines + @lines, bad_lines = bad_lines + @badLines, events = events + @events WHERE id = @id`),
      blocksFromLine: db.prepare(
        'SELECT first_line, first_offset, line_index FROM blocks WHERE file_id = ? AND first_line >= ? ORDER BY first_line LIMIT ?',
      ),
      blockOfLine: db.prepare(
        'SELECT first_line, first_offset, line_index FROM blocks WHERE file_id = ? AND first_line <= ? ORDER BY first_line DESC LIMIT 1',
      ),
      maxGeneration: db.prepare('SELECT max(generation) AS g FROM files WHERE path = ?'),
      liveInGroup: db.prepare(
        `SELECT f.*, r.path AS root_path FROM files f JOIN roots r ON r.id = f.root_id
         WHERE f.root_id = ? AND f.chain_group = ? AND f.superseded = 0 ORDER BY f.id`,
      ),
      rename: db.prepare('UPDATE files SET path = ?, rel_path = ? WHERE id = ?'),
      sameLedgerElsewhere: db.prepare(
        `SELECT f.*, r.path AS root_path FROM files f JOIN roots r ON r.id = f.root_id
         WHERE f.root_id <> @rootId AND f.format = @format AND f.ledger = @ledger AND f.session_id IS @sessionId
           AND f.chain_group IS @chainGroup AND f.superseded = 0 AND f.evidence_only = 0 AND f.kind = 'jsonl' ORDER BY f.id`,
      ),
      markDuplicate: db.prepare('UPDATE files SET evidence_only = 1, session_id = NULL, events = 0 WHERE id = ?'),
      touch: db.prepare('UPDATE files SET size = ?, mtime_ms = ? WHERE id = ?'),
      supersede: db.prepare('UPDATE files SET superseded = 1, superseded_reason = ? WHERE id = ?'),
      eventsOfFileFrom: db.prepare('SELECT id, sid FROM events WHERE file_id = ? AND line_number >= ?'),
      deleteFts: db.prepare('DELETE FROM message_fts WHERE rowid = ?'),
      deleteEventsFrom: db.prepare('DELETE FROM events WHERE file_id = ? AND line_number >= ?'),
      deleteBlocksFrom: db.prepare('DELETE FROM blocks WHERE file_id = ? AND first_line >= ?'),
      deleteDefectsFrom: db.prepare('DELETE FROM defects WHERE file_id = ? AND line >= ? AND derived = 0'),
      badLinesFrom: db.prepare(
        "SELECT count(DISTINCT line) AS n FROM defects WHERE file_id = ? AND line >= ? AND severity = 'error' AND derived = 0",
      ),
      blocksFrom: db.prepare('SELECT first_line, first_offset, line_index FROM blocks WHERE file_id = ? AND first_line >= ?'),
      adjustCounts: db.prepare('UPDATE files SET lines = lines - ?, bad_lines = bad_lines - ?, events = events - ? WHERE id = ?'),
      sidDirty: db.prepare('UPDATE sessions SET dirty = 1 WHERE sid = ?'),
      dirty: db.prepare('SELECT sid, id, format, facts, root_id FROM sessions WHERE dirty = 1 ORDER BY id'),
      target: db.prepare('SELECT sid, id, format, facts, root_id FROM sessions WHERE sid = ?'),
      links: db.prepare('SELECT sid, id, parent_id FROM sessions'),
    };
  }

  async rootId(path: string, format: Format): Promise<number> {
    const row = this.st.root.get(path) as { id: number } | undefined;
    if (row) return row.id;
    return Number(this.st.insertRoot.run(path, format).lastInsertRowid);
  }

  async currentFile(path: string): Promise<FileRecord | null> {
    const row = this.st.currentFile.get(path) as FileRowDb | undefined;
    return row ? fileFromRow(row) : null;
  }

  async createFile(file: NewFile, generation: number): Promise<FileRecord> {
    // A path whose earlier record moved away (rotation) may still own older generations.
    const taken = (this.st.maxGeneration.get(file.path) as { g: number | null }).g ?? 0;
    const id = Number(
      this.st.insertFile.run({ ...file, evidenceOnly: file.evidenceOnly ? 1 : 0, generation: Math.max(generation, taken + 1) })
        .lastInsertRowid,
    );
    return fileFromRow(this.st.fileById.get(id) as FileRowDb);
  }

  async findByFirstLine(rootId: number, chainGroup: string, hash: Buffer): Promise<FileRecord[]> {
    const out: FileRecord[] = [];
    for (const row of this.st.liveInGroup.all(rootId, chainGroup) as FileRowDb[]) {
      const first = await this.lineAt(row.id, 1);
      if (first && Buffer.from(first.hash).equals(hash)) out.push(fileFromRow(row));
    }
    return out;
  }

  async sameLedgerElsewhere(file: Pick<NewFile, 'rootId' | 'format' | 'ledger' | 'sessionId' | 'chainGroup'>): Promise<FileRecord[]> {
    const rows = this.st.sameLedgerElsewhere.all({
      rootId: file.rootId, format: file.format, ledger: file.ledger, sessionId: file.sessionId, chainGroup: file.chainGroup,
    }) as FileRowDb[];
    return rows.map(fileFromRow);
  }

  async markDuplicate(fileId: number): Promise<void> {
    this.db.transaction(() => {
      this.dropEventsFrom(fileId, 0);
      this.st.markDuplicate.run(fileId);
    })();
  }

  async renameFile(fileId: number, path: string, relPath: string): Promise<FileRecord> {
    this.st.rename.run(path, relPath, fileId);
    return fileFromRow(this.st.fileById.get(fileId) as FileRowDb);
  }

  async supersedeFile(fileId: number, reason: string): Promise<void> {
    this.db.transaction(() => {
      this.st.supersede.run(reason, fileId);
      this.dropEventsFrom(fileId, 0);
    })();
  }

  /** Delete a file's events from a line on (and their search rows); their sessions become dirty. */
  private dropEventsFrom(fileId: number, fromLine: number): number {
    const rows = this.st.eventsOfFileFrom.all(fileId, fromLine) as { id: number; sid: number }[];
    for (const sid of new Set(rows.map((r) => r.sid))) this.st.sidDirty.run(sid);
    for (const { id } of rows) this.st.deleteFts.run(id);
    this.st.deleteEventsFrom.run(fileId, fromLine);
    return rows.length;
  }

  async addDefects(rootId: number, defects: Defect[]): Promise<number> {
    let added = 0;
    this.db.transaction(() => {
      for (const d of defects) added += this.insertDefect(rootId, null, d, false);
    })();
    return added;
  }

  private insertDefect(rootId: number, fileId: number | null, d: Defect, derived: boolean): number {
    return this.st.insertDefect.run(rootId, fileId, d.file, d.line, d.severity, d.kind, d.message, d.sessionId ?? null, derived ? 1 : 0)
      .changes;
  }

  /**
   * Ledger entries that name no session (Control Plane contract-level entries) are stored under
   * sid 0, which no session has: ledger queries see them, session views and summaries do not.
   */
  private unattributed(): SessionCache {
    if (!this.noSession) {
      const row = this.st.maxSeq.get(UNATTRIBUTED_SID) as { n: number | null };
      this.noSession = { sid: UNATTRIBUTED_SID, facts: { id: '', format: '' }, nextSeq: (row.n ?? 0) + 1, factsChanged: false };
    }
    return this.noSession;
  }

  private session(id: string, format: Format, rootId: number): SessionCache {
    let s = this.sessions.get(id);
    if (s) return s;
    const row = this.st.sessionById.get(id) as { sid: number; facts: string; next_seq: number } | undefined;
    if (row) {
      s = { sid: row.sid, facts: JSON.parse(row.facts) as SessionFacts, nextSeq: row.next_seq, factsChanged: false };
    } else {
      const facts: SessionFacts = { id, format };
      const sid = Number(this.st.insertSession.run(id, format, rootId, JSON.stringify(facts)).lastInsertRowid);
      s = { sid, facts, nextSeq: 1, factsChanged: true };
    }
    this.sessions.set(id, s);
    return s;
  }

  async writeBatch(batch: IngestBatch): Promise<void> {
    const file = fileFromRow(this.st.fileById.get(batch.fileId) as FileRowDb);
    const touched = new Set<SessionCache>();
    this.inGroup(batch.blocks.reduce((n, b) => n + b.rawBytes, 0) + 256, () => {
      let removedLines = 0;
      let removedBad = 0;
      let removedEvents = 0;
      if (batch.clearFromLine !== undefined) {
        const from = batch.clearFromLine;
        removedEvents = this.dropEventsFrom(file.id, from);
        for (const b of this.st.blocksFrom.all(file.id, from) as { first_line: number; first_offset: number; line_index: Buffer }[]) {
          removedLines += unpackLines(b.line_index, b.first_line, b.first_offset).length;
        }
        removedBad = (this.st.badLinesFrom.get(file.id, from) as { n: number }).n;
        this.st.deleteBlocksFrom.run(file.id, from);
        this.st.deleteDefectsFrom.run(file.id, from);
        this.st.adjustCounts.run(removedLines, removedBad, removedEvents, file.id);
      }
      let lines = 0;
      let bad = 0;
      for (const block of batch.blocks) {
        this.st.insertBlock.run(
          file.id, block.firstLine, block.lines.length, block.firstOffset, block.rawBytes, packLines(block.lines), block.data,
        );
        lines += block.lines.length;
      }
      for (const f of batch.layoutFacts ?? []) {
        const s = this.session(f.id, f.format, file.rootId);
        const merged = mergeFacts(f, s.facts);
        if (JSON.stringify(merged) !== JSON.stringify(s.facts)) {
          s.facts = merged;
          s.factsChanged = true;
        }
        touched.add(s);
      }
      for (const f of batch.facts) {
        const s = this.session(f.id, f.format, file.rootId);
        const merged = mergeFacts(s.facts, f);
        if (JSON.stringify(merged) !== JSON.stringify(s.facts)) {
          s.facts = merged;
          s.factsChanged = true;
        }
        touched.add(s);
      }
      for (const id of batch.touchSessions ?? []) this.st.markDirtyById.run(id);
      // An evidence-only file never has events, even from a parse planned before it became one
      // (a duplicate source found later in the same run): so a copy is never counted twice.
      const events = file.evidenceOnly ? [] : batch.events;
      for (const e of events) {
        const s = e.sessionId === '' ? this.unattributed() : this.session(e.sessionId, file.format, file.rootId);
        if (s.sid !== UNATTRIBUTED_SID) touched.add(s);
        const u = e.usage;
        const ids = e.ids;
        const [tsMs, tsNs] = e.tsKey ? keyToParts(e.tsKey) : [null, null];
        const tiebreak = compactTiebreak(e);
        const usageKey = compactUsageKey(e);
        const res = this.st.insertEvent.run(
          s.sid, s.nextSeq++, file.id, e.lineNumber, e.part, tsMs, tsNs, e.tsMissing ? 1 : 0, e.ledgerRank, tiebreak,
          e.type, e.kind, e.actor, e.turn, ids.workOrder ?? null, ids.toolCall ?? null, ids.message ?? null,
          ids.request ?? null, ids.agent ?? null, ids.entry ?? null, usageKey, u ? u.model : null,
          u ? u.input : null, u ? u.output : null, u ? u.cacheWrite : null, u ? u.cacheRead : null, e.toolName,
          e.toolStatus, e.summary, Object.keys(e.attrs).length ? JSON.stringify(e.attrs) : null, compactReasoning(e),
        );
        if (e.text) this.st.insertFts.run(res.lastInsertRowid, e.text);
      }
      for (const d of batch.defects) this.insertDefect(file.rootId, file.id, d, false);
      bad = badLineCount(batch.defects);
      for (const s of touched) {
        if (s.factsChanged) {
          const f = s.facts;
          this.st.updateSessionFacts.run({
            sid: s.sid, facts: JSON.stringify(f), project: f.project ?? null, projectPath: f.projectPath ?? null,
            parentId: f.parentId ?? null, kind: f.kind ?? 'root', title: f.title ?? null, agentName: f.agentName ?? null,
            mainLedger: f.mainLedger ?? null, nextSeq: s.nextSeq,
          });
          s.factsChanged = false;
        } else {
          this.st.markDirty.run(s.nextSeq, s.sid);
        }
      }
      const cp: FileCheckpoint = batch.checkpoint;
      this.st.checkpoint.run({
        id: file.id, size: cp.size, mtimeMs: cp.mtimeMs, offset: cp.offset, nextLine: cp.nextLine,
        lastTsKey: cp.lastTsKey, parserState: cp.parserState === undefined ? null : JSON.stringify(cp.parserState),
        contentHash: cp.contentHash ?? null, lines, badLines: bad, events: events.length,
      });
    });
  }

  /**
   * Run `body` inside the open group transaction, committing when the group holds enough input.
   * Grouping keeps each batch atomic with its checkpoint (a crash loses whole batches only)
   * while a folder of 10,000 tiny files does not pay 10,000 commits.
   */
  private inGroup(bytes: number, body: () => void): void {
    if (!this.db.inTransaction) {
      this.db.exec('BEGIN IMMEDIATE');
      this.groupBytes = 0;
    }
    // No savepoint per batch: FTS5 flushes its pending index at every savepoint, which turns
    // thousands of tiny batches into thousands of index segments. An error rolls back the
    // whole uncommitted group (and its checkpoints), which the next run simply re-reads.
    try {
      body();
    } catch (err) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      this.sessions.clear();
      throw err;
    }
    this.groupBytes += bytes;
    if (this.groupBytes >= GROUP_BYTES) this.commitGroup();
  }

  private commitGroup(): void {
    if (this.db.inTransaction) this.db.exec('COMMIT');
    this.groupBytes = 0;
  }

  async storedLines(fileId: number, fromLine: number, maxBlocks: number): Promise<EvidenceLine[]> {
    const blocks = this.st.blocksFromLine.all(fileId, fromLine, maxBlocks) as { first_line: number; first_offset: number; line_index: Buffer }[];
    return blocks.flatMap((b) => unpackLines(b.line_index, b.first_line, b.first_offset));
  }

  async lineAt(fileId: number, lineNumber: number): Promise<{ offset: number; length: number; hash: Buffer } | null> {
    const b = this.st.blockOfLine.get(fileId, lineNumber) as { first_line: number; first_offset: number; line_index: Buffer } | undefined;
    if (!b) return null;
    return unpackLines(b.line_index, b.first_line, b.first_offset).find((l) => l.lineNumber === lineNumber) ?? null;
  }

  async touchFile(fileId: number, cp: Pick<FileCheckpoint, 'size' | 'mtimeMs'>): Promise<void> {
    this.st.touch.run(cp.size, cp.mtimeMs, fileId);
  }

  async summarizeDirty(summarize: Summarizer): Promise<number> {
    this.commitGroup();
    return summarizeDirty(this.summaryPort(), summarize);
  }

  /** The engine side of store/shared/summarize-dirty.ts. */
  private summaryPort(): SummaryPort {
    const db = this.db;
    const target = (r: { sid: number; id: string; format: Format; facts: string; root_id: number }): SummaryTarget => ({
      sid: r.sid, id: r.id, format: r.format, facts: JSON.parse(r.facts) as SessionFacts, rootId: r.root_id,
    });
    type TargetRow = Parameters<typeof target>[0];
    return {
      sessionLinks: async () => (this.st.links.all() as { sid: number; id: string; parent_id: string | null }[]).map((r) => ({ sid: r.sid, id: r.id, parentId: r.parent_id })),
      dirtySessions: async () => (this.st.dirty.all() as TargetRow[]).map(target),
      target: async (sid) => target(this.st.target.get(sid) as TargetRow),
      sessionEvents: async (t) => readSessionEvents(db, t.sid, t.id),
      callKeys: async (sids, mirror) => storedCallKeys(db, sids, mirror),
      commit: async (jobs, last) => {
        db.transaction(() => {
          for (const j of jobs) {
            // With the summary that clears the dirty flag: a crash after it must not leave calls or
            // counted mirrors that no later summarise would refresh.
            clearUsage(db, j.target.sid, j.dropUsage);
            saveSummary(db, j.target.sid, j.target.id, j.target.rootId, j.out);
            writeUsageCalls(db, j.target.sid, j.calls);
          }
          if (last) recomputeTotals(db);
        })();
      },
    };
  }

  async release(): Promise<void> {
    this.commitGroup();
    this.sessions.clear();
    this.releaseLock();
  }
}
