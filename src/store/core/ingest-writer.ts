// The ingest writer, one algorithm for both engines: batches written atomically with their file's
// checkpoint, grouped into transactions committed every few megabytes of input (the engine's
// WriteGroup), so a crash at any moment leaves the store at the last committed group and a re-run
// resumes from there with the same result.

import { badLineCount } from '../../core/bad-lines.js';
import type { ParsedEvent } from '../../core/events.js';
import { mergeFacts } from '../../core/facts.js';
import type { Defect, Format, SessionFacts } from '../../core/model.js';
import { fileFromRow, type FileRowDb } from './rows.js';
import { packLines, unpackLines } from '../sqlite/line-index.js';
import type { EvidenceBlock, EvidenceLine, FileCheckpoint, FileRecord, IngestBatch, IngestWriter, NewFile, Summarizer } from '../store.js';
import { UNATTRIBUTED_SID } from '../shared/event-row.js';
import { summarizeDirty, type SummaryPort, type SummaryTarget } from '../shared/summarize-dirty.js';
import { readSessionEvents } from './session-events.js';
import { clearUsage, insertDefects, recomputeTotals, saveSummary } from './session-summary.js';
import { first, RowList, type Sql } from './sql.js';
import { storedCallKeys, writeUsageCalls } from './usage-calls.js';

/** Input bytes per commit of a write group. */
export const GROUP_BYTES = 4 * 1024 * 1024;

/** What the writer needs of an engine: its transactions, and the few writes each engine does its own way. */
export interface WriteGroup {
  /** Statements outside any transaction (committed state), retried where the engine can. */
  readonly reads: Sql;
  /** Called when the open group is lost (rolled back), so that caches built inside it are dropped. */
  onAbandon: () => void;
  /** Run `op` in the open group (opened if none); `bytes` of input count towards its commit. */
  write<T>(op: (sql: Sql) => Promise<T>, bytes?: number): Promise<T>;
  /** A read that sees the group's uncommitted writes. */
  read<T>(op: (sql: Sql) => Promise<T>): Promise<T>;
  /** Commit the open group, if any. */
  commit(): Promise<void>;
  /** A transaction of its own (summaries, once the group is committed). */
  transaction(body: (sql: Sql) => Promise<void>): Promise<void>;
  /** The id the next row of `table` gets (PostgreSQL takes it outside the group, so a replayed group reuses it). */
  nextId(table: 'roots' | 'files'): Promise<number>;
  /** Insert a batch's events (with their search index rows) under these session keys and sequence numbers. */
  insertEvents(sql: Sql, fileId: number, events: readonly ParsedEvent[], sids: number[], seqs: number[]): Promise<void>;
  /** Before a file's events from a line on are deleted: drop their search index rows kept outside the events table. */
  dropSearchRows(sql: Sql, fileId: number, fromLine: number): Promise<void>;
  /** Release the ingest lock. */
  release(): Promise<void>;
}

interface SessionCache {
  sid: number;
  facts: SessionFacts;
  nextSeq: number;
  factsChanged: boolean;
}

interface FileKey {
  id: number;
  rootId: number;
  format: Format;
  evidenceOnly: boolean;
}

interface BlockIndexRow {
  first_line: number;
  first_offset: number;
  line_index: Buffer;
}

const FILE_SELECT = (sql: Sql) => `SELECT f.id, f.root_id, r.path AS root_path, f.path, f.rel_path, f.format, f.ledger, f.ledger_rank,
  f.session_id, f.kind, f.evidence_only, f.chain_group, f.generation, f.superseded, f.superseded_reason, f.size, f.mtime_ms,
  f.${sql.dialect.offsetColumn} AS "offset", f.next_line, f.last_ts_key, f.parser_state, f.lines, f.bad_lines, f.events, f.content_hash
  FROM files f JOIN roots r ON r.id = f.root_id`;

const blockLines = (b: BlockIndexRow) => unpackLines(b.line_index, b.first_line, b.first_offset);

export class SqlIngestWriter implements IngestWriter {
  private sessions = new Map<string, SessionCache>();
  private noSession: SessionCache | undefined;
  private fileKeys = new Map<number, FileKey>();

  constructor(private readonly group: WriteGroup) {
    // Caches built inside a lost transaction would point at rows that no longer exist.
    group.onAbandon = () => {
      this.sessions = new Map();
      this.noSession = undefined;
      this.fileKeys = new Map();
    };
  }

  private files(where: string, params: unknown[]): Promise<FileRecord[]> {
    return this.group.read(async (sql) => (await sql.all<FileRowDb>(`${FILE_SELECT(sql)} WHERE ${where}`, params)).map(fileFromRow));
  }

  async rootId(path: string, format: Format): Promise<number> {
    const found = await this.group.read((sql) => first<{ id: number }>(sql, 'SELECT id FROM roots WHERE path = $1', [path]));
    if (found) return found.id;
    const id = await this.group.nextId('roots');
    await this.group.write((sql) => sql.run('INSERT INTO roots (id, path, format) VALUES ($1, $2, $3)', [id, path, format]));
    return id;
  }

  async currentFile(path: string): Promise<FileRecord | null> {
    return (await this.files('f.path = $1 AND f.superseded = 0', [path]))[0] ?? null;
  }

  async createFile(file: NewFile, generation: number): Promise<FileRecord> {
    const id = await this.group.nextId('files');
    // A path whose earlier record moved away (rotation) may still own older generations.
    await this.group.write((sql) =>
      sql.run(
        `INSERT INTO files (id, root_id, path, rel_path, format, ledger, ledger_rank, session_id, kind, evidence_only, chain_group, generation)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, ${sql.dialect.greatest('$12', 'coalesce((SELECT max(generation) FROM files WHERE path = $3), 0) + 1')})`,
        [
          id, file.rootId, file.path, file.relPath, file.format, file.ledger, file.ledgerRank, file.sessionId, file.kind,
          file.evidenceOnly ? 1 : 0, file.chainGroup, generation,
        ],
      ),
    );
    const record = (await this.files('f.id = $1', [id]))[0]!;
    // Its batches look the key up next: known now, so not read again (one query per file saved).
    this.fileKeys.set(id, { id, rootId: record.rootId, format: record.format, evidenceOnly: record.evidenceOnly });
    return record;
  }

  async findByFirstLine(rootId: number, chainGroup: string, hash: Buffer): Promise<FileRecord[]> {
    const out: FileRecord[] = [];
    for (const file of await this.files('f.root_id = $1 AND f.chain_group = $2 AND f.superseded = 0 ORDER BY f.id', [rootId, chainGroup])) {
      const line = await this.lineAt(file.id, 1);
      if (line && Buffer.from(line.hash).equals(hash)) out.push(file);
    }
    return out;
  }

  async sameLedgerElsewhere(file: Pick<NewFile, 'rootId' | 'format' | 'ledger' | 'sessionId' | 'chainGroup'>): Promise<FileRecord[]> {
    return this.files(
      `f.root_id <> $1 AND f.format = $2 AND f.ledger = $3 AND f.session_id IS NOT DISTINCT FROM $4
       AND f.chain_group IS NOT DISTINCT FROM $5 AND f.superseded = 0 AND f.evidence_only = 0 AND f.kind = 'jsonl' ORDER BY f.id`,
      [file.rootId, file.format, file.ledger, file.sessionId, file.chainGroup],
    );
  }

  async markDuplicate(fileId: number): Promise<void> {
    await this.group.write(async (sql) => {
      await this.dropEventsFrom(sql, fileId, 0);
      await sql.run('UPDATE files SET evidence_only = 1, session_id = NULL, events = 0 WHERE id = $1', [fileId]);
    });
    this.fileKeys.delete(fileId);
  }

  async renameFile(fileId: number, path: string, relPath: string): Promise<FileRecord> {
    await this.group.write((sql) => sql.run('UPDATE files SET path = $1, rel_path = $2 WHERE id = $3', [path, relPath, fileId]));
    return (await this.files('f.id = $1', [fileId]))[0]!;
  }

  async supersedeFile(fileId: number, reason: string): Promise<void> {
    await this.group.write(async (sql) => {
      await sql.run('UPDATE files SET superseded = 1, superseded_reason = $1 WHERE id = $2', [reason, fileId]);
      await this.dropEventsFrom(sql, fileId, 0);
    });
  }

  /** Delete a file's events from a line on (and their search rows); their sessions become dirty. */
  private async dropEventsFrom(sql: Sql, fileId: number, fromLine: number): Promise<number> {
    await sql.run('UPDATE sessions SET dirty = 1 WHERE sid IN (SELECT DISTINCT sid FROM events WHERE file_id = $1 AND line_number >= $2)', [
      fileId, fromLine,
    ]);
    await this.group.dropSearchRows(sql, fileId, fromLine);
    return sql.run('DELETE FROM events WHERE file_id = $1 AND line_number >= $2', [fileId, fromLine]);
  }

  async addDefects(rootId: number, defects: Defect[]): Promise<number> {
    if (defects.length === 0) return 0;
    return this.group.write((sql) => insertDefects(sql, rootId, null, defects, false));
  }

  /**
   * Ledger entries that name no session (Control Plane contract-level entries) are stored under
   * sid 0, which no session has: ledger queries see them, session views and summaries do not.
   */
  private async unattributed(sql: Sql): Promise<SessionCache> {
    if (!this.noSession) {
      const n = (await first<{ n: number | null }>(sql, 'SELECT max(seq) AS n FROM events WHERE sid = $1', [UNATTRIBUTED_SID]))?.n;
      this.noSession = { sid: UNATTRIBUTED_SID, facts: { id: '', format: '' }, nextSeq: (n ?? 0) + 1, factsChanged: false };
    }
    return this.noSession;
  }

  private async session(sql: Sql, id: string, format: Format, rootId: number): Promise<SessionCache> {
    let s = this.sessions.get(id);
    if (s) return s;
    const row = await first<{ sid: number; facts: string; next_seq: number }>(sql, 'SELECT sid, facts, next_seq FROM sessions WHERE id = $1', [id]);
    if (row) {
      s = { sid: row.sid, facts: JSON.parse(row.facts) as SessionFacts, nextSeq: row.next_seq, factsChanged: false };
    } else {
      const facts: SessionFacts = { id, format };
      const ins = await first<{ sid: number }>(
        sql,
        `INSERT INTO sessions (id, format, root_id, kind, facts, next_seq, dirty) VALUES ($1, $2, $3, 'root', $4, 1, 1) RETURNING sid`,
        [id, format, rootId, JSON.stringify(facts)],
      );
      s = { sid: ins!.sid, facts, nextSeq: 1, factsChanged: true };
    }
    this.sessions.set(id, s);
    return s;
  }

  private merge(s: SessionCache, merged: SessionFacts): void {
    if (JSON.stringify(merged) !== JSON.stringify(s.facts)) {
      s.facts = merged;
      s.factsChanged = true;
    }
  }

  async writeBatch(batch: IngestBatch): Promise<void> {
    const bytes = batch.blocks.reduce((n, b) => n + b.rawBytes, 0) + 256;
    await this.group.write(async (sql) => {
      const file = await this.fileKey(sql, batch.fileId);
      // An evidence-only file never has events, even from a parse planned before it became one
      // (a duplicate source found later in the same run): so a copy is never counted twice.
      const events = file.evidenceOnly ? [] : batch.events;
      const touched = new Set<SessionCache>();
      if (batch.clearFromLine !== undefined) await this.clearFrom(sql, file.id, batch.clearFromLine);
      await insertBlocks(sql, file.id, batch.blocks);
      for (const f of batch.layoutFacts ?? []) {
        const s = await this.session(sql, f.id, f.format, file.rootId);
        this.merge(s, mergeFacts(f, s.facts));
        touched.add(s);
      }
      for (const f of batch.facts) {
        const s = await this.session(sql, f.id, f.format, file.rootId);
        this.merge(s, mergeFacts(s.facts, f));
        touched.add(s);
      }
      if (batch.touchSessions?.length) {
        await sql.run(`UPDATE sessions SET dirty = 1 WHERE ${sql.dialect.inArray('id', '$1', 'text')}`, [batch.touchSessions]);
      }
      const sids: number[] = [];
      const seqs: number[] = [];
      for (const e of events) {
        const s = e.sessionId === '' ? await this.unattributed(sql) : await this.session(sql, e.sessionId, file.format, file.rootId);
        if (s.sid !== UNATTRIBUTED_SID) touched.add(s);
        sids.push(s.sid);
        seqs.push(s.nextSeq++);
      }
      if (events.length) await this.group.insertEvents(sql, file.id, events, sids, seqs);
      await insertDefects(sql, file.rootId, file.id, batch.defects, false);
      await this.saveSessions(sql, touched);
      const cp = batch.checkpoint;
      await sql.run(
        `UPDATE files SET size = $2, mtime_ms = $3, ${sql.dialect.offsetColumn} = $4, next_line = $5, last_ts_key = $6, parser_state = $7,
         content_hash = coalesce($8, content_hash), lines = lines + $9, bad_lines = bad_lines + $10, events = events + $11 WHERE id = $1`,
        [
          file.id, cp.size, cp.mtimeMs, cp.offset, cp.nextLine, cp.lastTsKey, cp.parserState === undefined ? null : JSON.stringify(cp.parserState),
          cp.contentHash ?? null, batch.blocks.reduce((n, b) => n + b.lines.length, 0), badLineCount(batch.defects), events.length,
        ],
      );
    }, bytes);
  }

  /** Sessions a batch touched: new facts written where they changed, the rest only marked dirty with their next sequence number. */
  private async saveSessions(sql: Sql, touched: Set<SessionCache>): Promise<void> {
    const dirtyOnly: SessionCache[] = [];
    for (const s of touched) {
      if (!s.factsChanged) {
        dirtyOnly.push(s);
        continue;
      }
      const f = s.facts;
      await sql.run(
        `UPDATE sessions SET facts = $2, project = $3, project_path = $4, parent_id = $5, kind = $6, title = $7, agent_name = $8,
         main_ledger = $9, next_seq = $10, dirty = 1 WHERE sid = $1`,
        [
          s.sid, JSON.stringify(f), f.project ?? null, f.projectPath ?? null, f.parentId ?? null, f.kind ?? 'root', f.title ?? null,
          f.agentName ?? null, f.mainLedger ?? null, s.nextSeq,
        ],
      );
      s.factsChanged = false;
    }
    if (dirtyOnly.length) {
      await sql.run(
        `UPDATE sessions SET next_seq = u.next_seq, dirty = 1 FROM ${sql.dialect.rows('$1', 'u', [['sid', 'int'], ['next_seq', 'int']])}
         WHERE sessions.sid = u.sid`,
        [new RowList(dirtyOnly.map((s) => [s.sid, s.nextSeq]))],
      );
    }
  }

  /** A file's root and format (which never change) and evidence-only flag (changed only by markDuplicate), looked up once per writer. */
  private async fileKey(sql: Sql, id: number): Promise<FileKey> {
    let key = this.fileKeys.get(id);
    if (!key) {
      const row = (await first<{ root_id: number; format: Format; evidence_only: number }>(sql, 'SELECT root_id, format, evidence_only FROM files WHERE id = $1', [id]))!;
      key = { id, rootId: row.root_id, format: row.format, evidenceOnly: Number(row.evidence_only) === 1 };
      this.fileKeys.set(id, key);
    }
    return key;
  }

  /** A held-back line is being re-read: drop the file's lines, events and defects from it, and their counts. */
  private async clearFrom(sql: Sql, fileId: number, from: number): Promise<void> {
    const removedEvents = await this.dropEventsFrom(sql, fileId, from);
    const blocks = await sql.all<BlockIndexRow>('SELECT first_line, first_offset, line_index FROM blocks WHERE file_id = $1 AND first_line >= $2', [fileId, from]);
    const removedLines = blocks.reduce((n, b) => n + blockLines(b).length, 0);
    const bad = (await first<{ n: number }>(
      sql,
      "SELECT count(DISTINCT line) AS n FROM defects WHERE file_id = $1 AND line >= $2 AND severity = 'error' AND derived = 0",
      [fileId, from],
    ))!.n;
    await sql.run('DELETE FROM blocks WHERE file_id = $1 AND first_line >= $2', [fileId, from]);
    await sql.run('DELETE FROM block_filters WHERE file_id = $1 AND first_line >= $2', [fileId, from]); // a filter outliving its block could hide the next one's lines
    await sql.run('DELETE FROM defects WHERE file_id = $1 AND line >= $2 AND derived = 0', [fileId, from]);
    await sql.run('UPDATE files SET lines = lines - $1, bad_lines = bad_lines - $2, events = events - $3 WHERE id = $4', [removedLines, bad, removedEvents, fileId]);
  }

  async storedLines(fileId: number, fromLine: number, maxBlocks: number): Promise<EvidenceLine[]> {
    const blocks = await this.group.read((sql) =>
      sql.all<BlockIndexRow>('SELECT first_line, first_offset, line_index FROM blocks WHERE file_id = $1 AND first_line >= $2 ORDER BY first_line LIMIT $3', [
        fileId, fromLine, maxBlocks,
      ]),
    );
    return blocks.flatMap(blockLines);
  }

  async lineAt(fileId: number, lineNumber: number): Promise<Pick<EvidenceLine, 'offset' | 'length' | 'hash'> | null> {
    const b = await this.group.read((sql) =>
      first<BlockIndexRow>(sql, 'SELECT first_line, first_offset, line_index FROM blocks WHERE file_id = $1 AND first_line <= $2 ORDER BY first_line DESC LIMIT 1', [
        fileId, lineNumber,
      ]),
    );
    return (b && blockLines(b).find((l) => l.lineNumber === lineNumber)) ?? null;
  }

  async touchFile(fileId: number, cp: Pick<FileCheckpoint, 'size' | 'mtimeMs'>): Promise<void> {
    await this.group.write((sql) => sql.run('UPDATE files SET size = $1, mtime_ms = $2 WHERE id = $3', [cp.size, cp.mtimeMs, fileId]));
  }

  async summarizeDirty(summarize: Summarizer): Promise<number> {
    await this.group.commit();
    return summarizeDirty(this.summaryPort(), summarize);
  }

  /** The store side of store/shared/summarize-dirty.ts. */
  private summaryPort(): SummaryPort {
    const reads = this.group.reads;
    type TargetRow = { sid: number; id: string; format: Format; facts: string; root_id: number };
    const target = (r: TargetRow): SummaryTarget => ({ sid: r.sid, id: r.id, format: r.format, facts: JSON.parse(r.facts) as SessionFacts, rootId: r.root_id });
    const targets = 'SELECT sid, id, format, facts, root_id FROM sessions';
    return {
      sessionLinks: async () =>
        (await reads.all<{ sid: number; id: string; parent_id: string | null }>('SELECT sid, id, parent_id FROM sessions')).map((r) => ({ sid: r.sid, id: r.id, parentId: r.parent_id })),
      dirtySessions: async () => (await reads.all<TargetRow>(`${targets} WHERE dirty = 1 ORDER BY id`)).map(target),
      target: async (sid) => target((await first<TargetRow>(reads, `${targets} WHERE sid = $1`, [sid]))!),
      sessionEvents: (t) => readSessionEvents(reads, t.sid, t.id),
      callKeys: (sids, mirror) => storedCallKeys(reads, sids, mirror),
      commit: (jobs, last) =>
        // One transaction with the summaries that clear the dirty flags: a crash after it must not
        // leave calls or counted mirrors that no later summarise would refresh.
        this.group.transaction(async (sql) => {
          for (const j of jobs) {
            await clearUsage(sql, j.target.sid, j.dropUsage);
            await saveSummary(sql, j.target.sid, j.target.id, j.target.rootId, j.out);
          }
          await writeUsageCalls(sql, jobs.map((j) => ({ sid: j.target.sid, calls: j.calls })));
          if (last) await recomputeTotals(sql);
        }),
    };
  }

  async release(): Promise<void> {
    try {
      await this.group.commit();
    } finally {
      this.sessions.clear();
      await this.group.release();
    }
  }
}

/** A batch's evidence blocks, in one statement. */
async function insertBlocks(sql: Sql, fileId: number, blocks: readonly EvidenceBlock[]): Promise<void> {
  if (blocks.length === 0) return;
  const values: unknown[] = [];
  const tuples = blocks.map((b, i) => {
    values.push(fileId, b.firstLine, b.lines.length, b.firstOffset, b.rawBytes, packLines(b.lines), b.data);
    return `(${Array.from({ length: 7 }, (_, k) => `$${i * 7 + k + 1}`).join(', ')})`;
  });
  await sql.run(`INSERT INTO blocks (file_id, first_line, line_count, first_offset, raw_bytes, line_index, data) VALUES ${tuples.join(', ')}`, values);
  await insertFilters(sql, fileId, blocks);
}

/** The blocks' gram filters (grep skips blocks by them), in one statement. */
async function insertFilters(sql: Sql, fileId: number, blocks: readonly EvidenceBlock[]): Promise<void> {
  const values: unknown[] = [];
  const tuples: string[] = [];
  for (const b of blocks) {
    if (!b.gramFilter) continue;
    values.push(fileId, b.firstLine, b.gramFilter);
    tuples.push(`($${values.length - 2}, $${values.length - 1}, $${values.length})`);
  }
  if (tuples.length > 0) await sql.run(`INSERT INTO block_filters (file_id, first_line, gram_filter) VALUES ${tuples.join(', ')}`, values);
}
