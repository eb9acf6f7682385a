// The PostgreSQL side of ingest: batches (bulk inserts through unnest) and the file records they
// belong to are written in groups committed every few megabytes (write-group.ts), so a crash at any
// moment leaves the store at the last committed group and a re-run gives the same store.

import type pg from 'pg';
import { badLineCount } from '../../core/bad-lines.js';
import { mergeFacts } from '../../core/facts.js';
import type { Defect, Format, SessionFacts } from '../../core/model.js';
import { fileFromRow, type FileRowDb } from '../sqlite/rows.js';
import { unpackLines } from '../sqlite/line-index.js';
import type { EvidenceLine, FileCheckpoint, FileRecord, IngestBatch, IngestWriter, NewFile, Summarizer } from '../store.js';
import { guardClient, withRetry } from './connection.js';
import type { Queryable } from './query.js';
import { WriteGroup } from './write-group.js';
import { insertBlocks, insertDefects, insertEvents, pgText } from './bulk-inserts.js';
import { readSessionEvents } from './session-events.js';
import { clearUsage, recomputeTotals, saveSummary } from './session-summary.js';
import { storedCallKeys, writeUsageCalls } from './usage-calls.js';
import { UNATTRIBUTED_SID } from '../shared/event-row.js';
import { summarizeDirty, type SummaryPort, type SummaryTarget } from '../shared/summarize-dirty.js';


interface FileKey {
  id: number;
  rootId: number;
  format: Format;
  evidenceOnly: boolean;
}

export const FILE_SELECT = `SELECT f.id, f.root_id, r.path AS root_path, f.path, f.rel_path, f.format, f.ledger, f.ledger_rank,
  f.session_id, f.kind, f.evidence_only, f.chain_group, f.generation, f.superseded, f.superseded_reason, f.size, f.mtime_ms,
  f.byte_offset AS "offset", f.next_line, f.last_ts_key, f.parser_state, f.lines, f.bad_lines, f.events, f.content_hash
  FROM files f JOIN roots r ON r.id = f.root_id`;

interface SessionCache {
  sid: number;
  facts: SessionFacts;
  nextSeq: number;
  factsChanged: boolean;
}

export class PostgresIngestWriter implements IngestWriter {
  private sessions = new Map<string, SessionCache>();
  private noSession: SessionCache | undefined;
  private fileKeys = new Map<number, FileKey>();
  private readonly group: WriteGroup;

  constructor(
    private readonly pool: pg.Pool,
    private readonly releaseLock: () => Promise<void>,
    private readonly location: string,
  ) {
    // Caches built inside a lost transaction would point at rows that no longer exist.
    this.group = new WriteGroup(pool, location, () => {
      this.sessions = new Map();
      this.noSession = undefined;
      this.fileKeys = new Map();
    });
  }

  /** One transaction of its own (summaries, after the group is committed), retried whole on transient errors. */
  private async transaction<T>(body: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    return withRetry(async () => {
      const client = await this.pool.connect();
      const unguard = guardClient(client);
      let broken = false;
      try {
        await client.query('BEGIN');
        const out = await body(client);
        await client.query('COMMIT');
        return out;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {
          broken = true;
        });
        throw err;
      } finally {
        unguard();
        client.release(broken);
      }
    }, { location: this.location });
  }

  /** The next id of a table, taken outside the transaction: a replayed insert reuses it, so callers keep valid ids. */
  private async nextId(table: 'roots' | 'files'): Promise<number> {
    const { rows } = await this.group.read((c) => c.query<{ id: number }>(`SELECT nextval(pg_get_serial_sequence('${table}', 'id')) AS id`));
    return rows[0]!.id;
  }

  async rootId(path: string, format: Format): Promise<number> {
    const found = await this.group.read((c) => c.query<{ id: number }>('SELECT id FROM roots WHERE path = $1', [path]));
    if (found.rows[0]) return found.rows[0].id;
    const id = await this.nextId('roots');
    await this.group.write((c) => c.query('INSERT INTO roots (id, path, format) VALUES ($1, $2, $3)', [id, path, format]));
    return id;
  }

  private async fileById(id: number): Promise<FileRecord> {
    const { rows } = await this.group.read((c) => c.query<FileRowDb>(`${FILE_SELECT} WHERE f.id = $1`, [id]));
    return fileFromRow(rows[0]!);
  }

  async currentFile(path: string): Promise<FileRecord | null> {
    const { rows } = await this.group.read((c) => c.query<FileRowDb>(`${FILE_SELECT} WHERE f.path = $1 AND f.superseded = 0`, [path]));
    return rows[0] ? fileFromRow(rows[0]) : null;
  }

  async createFile(file: NewFile, generation: number): Promise<FileRecord> {
    const id = await this.nextId('files');
    // A path whose earlier record moved away (rotation) may still own older generations.
    await this.group.write((c) =>
      c.query(
        `INSERT INTO files (id, root_id, path, rel_path, format, ledger, ledger_rank, session_id, kind, evidence_only, chain_group, generation)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, greatest($12::int, coalesce((SELECT max(generation) FROM files WHERE path = $3), 0) + 1))`,
        [
          id, file.rootId, file.path, file.relPath, file.format, file.ledger, file.ledgerRank, file.sessionId, file.kind,
          file.evidenceOnly ? 1 : 0, file.chainGroup, generation,
        ],
      ),
    );
    return this.fileById(id);
  }

  async findByFirstLine(rootId: number, chainGroup: string, hash: Buffer): Promise<FileRecord[]> {
    const { rows } = await this.group.read((c) =>
      c.query<FileRowDb>(`${FILE_SELECT} WHERE f.root_id = $1 AND f.chain_group = $2 AND f.superseded = 0 ORDER BY f.id`, [rootId, chainGroup]),
    );
    const out: FileRecord[] = [];
    for (const row of rows) {
      const first = await this.lineAt(row.id, 1);
      if (first && Buffer.from(first.hash).equals(hash)) out.push(fileFromRow(row));
    }
    return out;
  }

  async sameLedgerElsewhere(file: Pick<NewFile, 'rootId' | 'format' | 'ledger' | 'sessionId' | 'chainGroup'>): Promise<FileRecord[]> {
    const { rows } = await this.group.read((c) =>
      c.query<FileRowDb>(
        `${FILE_SELECT} WHERE f.root_id <> $1 AND f.format = $2 AND f.ledger = $3 AND f.session_id IS NOT DISTINCT FROM $4
           AND f.chain_group IS NOT DISTINCT FROM $5 AND f.superseded = 0 AND f.evidence_only = 0 AND f.kind = 'jsonl' ORDER BY f.id`,
        [file.rootId, file.format, file.ledger, file.sessionId, file.chainGroup],
      ),
    );
    return rows.map(fileFromRow);
  }

  async markDuplicate(fileId: number): Promise<void> {
    await this.group.write(async (c) => {
      await this.dropEventsFrom(c, fileId, 0);
      await c.query('UPDATE files SET evidence_only = 1, session_id = NULL, events = 0 WHERE id = $1', [fileId]);
    });
    this.fileKeys.delete(fileId);
  }

  async renameFile(fileId: number, path: string, relPath: string): Promise<FileRecord> {
    await this.group.write((c) => c.query('UPDATE files SET path = $1, rel_path = $2 WHERE id = $3', [path, relPath, fileId]));
    return this.fileById(fileId);
  }

  async supersedeFile(fileId: number, reason: string): Promise<void> {
    await this.group.write(async (c) => {
      await c.query('UPDATE files SET superseded = 1, superseded_reason = $1 WHERE id = $2', [reason, fileId]);
      await this.dropEventsFrom(c, fileId, 0);
    });
  }

  /** Delete a file's events from a line on (their search lexemes go with them); their sessions become dirty. */
  private async dropEventsFrom(c: Queryable, fileId: number, fromLine: number): Promise<number> {
    await c.query(
      'UPDATE sessions SET dirty = 1 WHERE sid IN (SELECT DISTINCT sid FROM events WHERE file_id = $1 AND line_number >= $2)',
      [fileId, fromLine],
    );
    const res = await c.query('DELETE FROM events WHERE file_id = $1 AND line_number >= $2', [fileId, fromLine]);
    return res.rowCount ?? 0;
  }

  async addDefects(rootId: number, defects: Defect[]): Promise<number> {
    if (defects.length === 0) return 0;
    return this.group.write((c) => insertDefects(c, rootId, null, defects, false));
  }

  /** Ledger entries that name no session are stored under sid 0, which no session has (see the SQLite writer). */
  private async unattributed(c: Queryable): Promise<SessionCache> {
    if (!this.noSession) {
      const { rows } = await c.query<{ n: number | null }>('SELECT max(seq) AS n FROM events WHERE sid = $1', [UNATTRIBUTED_SID]);
      this.noSession = { sid: UNATTRIBUTED_SID, facts: { id: '', format: '' }, nextSeq: (rows[0]?.n ?? 0) + 1, factsChanged: false };
    }
    return this.noSession;
  }

  private async session(c: Queryable, id: string, format: Format, rootId: number): Promise<SessionCache> {
    let s = this.sessions.get(id);
    if (s) return s;
    const { rows } = await c.query<{ sid: number; facts: string; next_seq: number }>(
      'SELECT sid, facts, next_seq FROM sessions WHERE id = $1',
      [id],
    );
    if (rows[0]) {
      s = { sid: rows[0].sid, facts: JSON.parse(rows[0].facts) as SessionFacts, nextSeq: rows[0].next_seq, factsChanged: false };
    } else {
      const facts: SessionFacts = { id, format };
      const ins = await c.query<{ sid: number }>(
        `INSERT INTO sessions (id, format, root_id, kind, facts, next_seq, dirty) VALUES ($1, $2, $3, 'root', $4, 1, 1) RETURNING sid`,
        [id, format, rootId, JSON.stringify(facts)],
      );
      s = { sid: ins.rows[0]!.sid, facts, nextSeq: 1, factsChanged: true };
    }
    this.sessions.set(id, s);
    return s;
  }

  async writeBatch(input: IngestBatch): Promise<void> {
    const bytes = input.blocks.reduce((n, b) => n + b.rawBytes, 0) + 256;
    await this.group.write(async (c) => {
      const cp = input.checkpoint;
      const file = await this.fileKey(c, input.fileId);
      // An evidence-only file never has events, even from a parse planned before it became one
      // (a duplicate source found later in the same run): so a copy is never counted twice.
      const batch = file.evidenceOnly && input.events.length > 0 ? { ...input, events: [] } : input;
      const touched = new Set<SessionCache>();
      if (batch.clearFromLine !== undefined) await this.clearFrom(c, file.id, batch.clearFromLine);
      await insertBlocks(c, file.id, batch);
      for (const f of batch.layoutFacts ?? []) {
        const s = await this.session(c, f.id, f.format, file.rootId);
        this.merge(s, mergeFacts(f, s.facts));
        touched.add(s);
      }
      for (const f of batch.facts) {
        const s = await this.session(c, f.id, f.format, file.rootId);
        this.merge(s, mergeFacts(s.facts, f));
        touched.add(s);
      }
      if (batch.touchSessions?.length) await c.query('UPDATE sessions SET dirty = 1 WHERE id = ANY($1::text[])', [batch.touchSessions]);
      const sids: number[] = [];
      const seqs: number[] = [];
      for (const e of batch.events) {
        const s = e.sessionId === '' ? await this.unattributed(c) : await this.session(c, e.sessionId, file.format, file.rootId);
        if (s.sid !== UNATTRIBUTED_SID) touched.add(s);
        sids.push(s.sid);
        seqs.push(s.nextSeq++);
      }
      await insertEvents(c, file.id, batch, sids, seqs);
      await insertDefects(c, file.rootId, file.id, batch.defects, false);
      const dirtyOnly: SessionCache[] = [];
      for (const s of touched) {
        if (!s.factsChanged) {
          dirtyOnly.push(s);
          continue;
        }
        const f = s.facts;
        await c.query(
          `UPDATE sessions SET facts = $2, project = $3, project_path = $4, parent_id = $5, kind = $6, title = $7, agent_name = $8,
           main_ledger = $9, next_seq = $10, dirty = 1 WHERE sid = $1`,
          [
            s.sid, JSON.stringify(f), pgText(f.project ?? null), pgText(f.projectPath ?? null), f.parentId ?? null, f.kind ?? 'root',
            pgText(f.title ?? null), pgText(f.agentName ?? null), f.mainLedger ?? null, s.nextSeq,
          ],
        );
        s.factsChanged = false;
      }
      if (dirtyOnly.length) {
        await c.query(
          'UPDATE sessions s SET next_seq = u.n, dirty = 1 FROM unnest($1::int[], $2::int[]) AS u(sid, n) WHERE s.sid = u.sid',
          [dirtyOnly.map((s) => s.sid), dirtyOnly.map((s) => s.nextSeq)],
        );
      }
      await c.query(
        `UPDATE files SET size = $2, mtime_ms = $3, byte_offset = $4, next_line = $5, last_ts_key = $6, parser_state = $7,
         content_hash = coalesce($8, content_hash), lines = lines + $9, bad_lines = bad_lines + $10, events = events + $11 WHERE id = $1`,
        [
          file.id, cp.size, cp.mtimeMs, cp.offset, cp.nextLine, cp.lastTsKey,
          cp.parserState === undefined ? null : pgText(JSON.stringify(cp.parserState)), cp.contentHash ?? null,
          batch.blocks.reduce((n, b) => n + b.lines.length, 0), badLineCount(batch.defects), batch.events.length,
        ],
      );
    }, bytes);
  }

  /** A file's root and format (which never change) and evidence-only flag (changed only by markDuplicate), looked up once per writer: one round trip less per batch. */
  private async fileKey(c: Queryable, id: number): Promise<FileKey> {
    let key = this.fileKeys.get(id);
    if (!key) {
      const { rows } = await c.query<{ root_id: number; format: Format; evidence_only: number }>(
        'SELECT root_id, format, evidence_only FROM files WHERE id = $1',
        [id],
      );
      key = { id, rootId: rows[0]!.root_id, format: rows[0]!.format, evidenceOnly: Number(rows[0]!.evidence_only) === 1 };
      this.fileKeys.set(id, key);
    }
    return key;
  }

  private merge(s: SessionCache, merged: SessionFacts): void {
    if (JSON.stringify(merged) !== JSON.stringify(s.facts)) {
      s.facts = merged;
      s.factsChanged = true;
    }
  }

  /** A held-back line is being re-read: drop the file's lines, events and defects from it, and their counts. */
  private async clearFrom(c: Queryable, fileId: number, from: number): Promise<void> {
    const removedEvents = await this.dropEventsFrom(c, fileId, from);
    const { rows: blocks } = await c.query<{ first_line: number; first_offset: number; line_index: Buffer }>(
      'SELECT first_line, first_offset, line_index FROM blocks WHERE file_id = $1 AND first_line >= $2',
      [fileId, from],
    );
    const removedLines = blocks.reduce((n, b) => n + unpackLines(b.line_index, b.first_line, b.first_offset).length, 0);
    const { rows: bad } = await c.query<{ n: number }>(
      "SELECT count(DISTINCT line) AS n FROM defects WHERE file_id = $1 AND line >= $2 AND severity = 'error' AND derived = 0",
      [fileId, from],
    );
    await c.query('DELETE FROM blocks WHERE file_id = $1 AND first_line >= $2', [fileId, from]);
    await c.query('DELETE FROM defects WHERE file_id = $1 AND line >= $2 AND derived = 0', [fileId, from]);
    await c.query('UPDATE files SET lines = lines - $1, bad_lines = bad_lines - $2, events = events - $3 WHERE id = $4', [
      removedLines, bad[0]!.n, removedEvents, fileId,
    ]);
  }

  async storedLines(fileId: number, fromLine: number, maxBlocks: number): Promise<EvidenceLine[]> {
    const { rows } = await this.group.read((c) =>
      c.query<{ first_line: number; first_offset: number; line_index: Buffer }>(
        'SELECT first_line, first_offset, line_index FROM blocks WHERE file_id = $1 AND first_line >= $2 ORDER BY first_line LIMIT $3',
        [fileId, fromLine, maxBlocks],
      ),
    );
    return rows.flatMap((b) => unpackLines(b.line_index, Number(b.first_line), Number(b.first_offset)));
  }

  async lineAt(fileId: number, lineNumber: number): Promise<{ offset: number; length: number; hash: Buffer } | null> {
    const { rows } = await this.group.read((c) =>
      c.query<{ first_line: number; first_offset: number; line_index: Buffer }>(
        'SELECT first_line, first_offset, line_index FROM blocks WHERE file_id = $1 AND first_line <= $2 ORDER BY first_line DESC LIMIT 1',
        [fileId, lineNumber],
      ),
    );
    const b = rows[0];
    if (!b) return null;
    return unpackLines(b.line_index, b.first_line, b.first_offset).find((l) => l.lineNumber === lineNumber) ?? null;
  }

  async touchFile(fileId: number, cp: Pick<FileCheckpoint, 'size' | 'mtimeMs'>): Promise<void> {
    await this.group.write((c) => c.query('UPDATE files SET size = $1, mtime_ms = $2 WHERE id = $3', [cp.size, cp.mtimeMs, fileId]));
  }

  async summarizeDirty(summarize: Summarizer): Promise<number> {
    await this.group.commit();
    return summarizeDirty(this.summaryPort(), summarize);
  }

  /** The engine side of store/shared/summarize-dirty.ts. */
  private summaryPort(): SummaryPort {
    const read = <T>(fn: () => Promise<T>) => withRetry(fn, { location: this.location });
    type TargetRow = { sid: number; id: string; format: Format; facts: string; root_id: number };
    const target = (r: TargetRow): SummaryTarget => ({ sid: r.sid, id: r.id, format: r.format, facts: JSON.parse(r.facts) as SessionFacts, rootId: r.root_id });
    return {
      sessionLinks: async () =>
        (await read(() => this.pool.query<{ sid: number; id: string; parent_id: string | null }>('SELECT sid, id, parent_id FROM sessions'))).rows.map((r) => ({
          sid: r.sid,
          id: r.id,
          parentId: r.parent_id,
        })),
      dirtySessions: async () =>
        (await read(() => this.pool.query<TargetRow>('SELECT sid, id, format, facts, root_id FROM sessions WHERE dirty = 1 ORDER BY id'))).rows.map(target),
      target: async (sid) => target((await read(() => this.pool.query<TargetRow>('SELECT sid, id, format, facts, root_id FROM sessions WHERE sid = $1', [sid]))).rows[0]!),
      sessionEvents: (t) => read(() => readSessionEvents(this.pool, t.sid, t.id)),
      callKeys: (sids, mirror) => read(() => storedCallKeys(this.pool, sids, mirror)),
      commit: async (jobs, last) => {
        for (const j of jobs) {
          const out = j.out;
          out.summary.firstUserMessage = pgText(out.summary.firstUserMessage);
          out.summary.lastResponsePreview = pgText(out.summary.lastResponsePreview);
          for (const d of out.defects) d.message = pgText(d.message);
        }
        await this.transaction(async (c) => {
          for (const j of jobs) {
            await clearUsage(c, j.target.sid, j.dropUsage);
            await saveSummary(c, j.target.sid, j.target.id, j.target.rootId, j.out);
          }
          // In the transaction that clears the sessions' dirty flags: a crash after it must not
          // leave calls that no later summarise would refresh.
          await writeUsageCalls(c, jobs.map((j) => ({ sid: j.target.sid, calls: j.calls })));
          if (last) await recomputeTotals(c);
        });
      },
    };
  }

  async release(): Promise<void> {
    try {
      await this.group.commit();
    } finally {
      this.sessions.clear();
      await this.releaseLock();
    }
  }
}
