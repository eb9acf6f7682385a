// Reads by ledger rather than by session: evidence lines by address or position, ledger entries by
// event type (index-backed, so a deep page costs a count per file and one range read), and a
// block-by-block scan of the evidence for grep.

import { partsToKey } from '../../core/time.js';
import { lineEntryAt, unpackLines } from '../sqlite/line-index.js';
import { inflateBlock, visitBlocks, visitPackedBlocks, type StoredBlock } from '../shared/visit-blocks.js';
import { gramProbe, mayHold, type GramProbe } from '../shared/gram-filter.js';
import type { EvidenceBlockView, EvidenceLine, EvidenceLineHash, EvidenceRef, EvidenceSkip, LedgerEntryQuery, LedgerEntryRow, PackedEvidenceBlockView, RawLineRow } from '../store.js';
import { first, RowList, type Sql } from './sql.js';

/** Blocks fetched per statement while scanning (each up to 512 KiB of input, ~1/6 of it stored). */
const SCAN_FETCH = 16;
/** Blocks fetched per statement while paging raw lines: a page needs only the first one or two. */
const PAGE_FETCH = 4;

/** The lines of a decompressed block from line `from` on, as raw-line rows. */
function blockLines(b: StoredBlock, raw: Buffer, fileId: number, file: string, from: number): RawLineRow[] {
  return unpackLines(b.line_index, b.first_line, b.first_offset)
    .filter((l) => l.lineNumber >= from)
    .map((l) => lineRow(b, raw, fileId, file, l));
}

function lineRow(b: StoredBlock, raw: Buffer, fileId: number, file: string, l: EvidenceLine): RawLineRow {
  const start = l.offset - b.first_offset;
  return { file, fileId, lineNumber: l.lineNumber, offset: l.offset, raw: raw.subarray(start, start + l.length), status: l.status, hash: l.hash.toString('hex') };
}

/**
 * One statement (on a server, one round trip): the block holding each address (the last one
 * starting at or before its line), each distinct block once, with `columns` of it (`b.`).
 */
function blocksHolding<Row extends object>(sql: Sql, refs: EvidenceRef[], columns: string): Promise<Row[]> {
  return sql.all<Row>(
    `SELECT ${columns}
     FROM (SELECT DISTINCT r.file_id, (SELECT b.first_line FROM blocks b WHERE b.file_id = r.file_id AND b.first_line <= r.line
         ORDER BY b.first_line DESC LIMIT 1) AS first_line
       FROM ${sql.dialect.rows('$1', 'r', [['file_id', 'int'], ['line', 'int']])}) k
     ${sql.dialect.joinOneByIndex('blocks', 'b', 'b.file_id = k.file_id AND b.first_line = k.first_line')}
     LEFT JOIN files f ON f.id = b.file_id`,
    [new RowList(refs.map((r) => [r.fileId, r.lineNumber]))],
  );
}

/** Each address's block among `blocks` (those blocksHolding fetched): its file's fetched block starting last at or before its line. */
function blockOf<B extends { file_id: number; first_line: number }>(byFile: Map<number, B[]>, ref: EvidenceRef): B | undefined {
  let b: B | undefined;
  for (const c of byFile.get(ref.fileId) ?? []) if (c.first_line <= ref.lineNumber && (!b || c.first_line > b.first_line)) b = c;
  return b;
}

function byFileId<B extends { file_id: number }>(blocks: readonly B[]): Map<number, B[]> {
  const byFile = new Map<number, B[]>();
  for (const b of blocks) {
    const list = byFile.get(b.file_id);
    if (list) list.push(b);
    else byFile.set(b.file_id, [b]);
  }
  return byFile;
}

/**
 * Lines' stored lengths and hashes by (file, line), in the order asked: read from the blocks' line
 * indexes (21 bytes a line), no block inflated (grep's live check: was ~10 ms of inflation for a
 * page of a 59 MB ledger's `error` lines, against ~1 ms of hashing the live lines).
 */
export async function readEvidenceLineHashes(sql: Sql, refs: EvidenceRef[]): Promise<EvidenceLineHash[]> {
  if (refs.length === 0) return [];
  const byFile = byFileId(await blocksHolding<{ file_id: number; first_line: number; line_index: Buffer }>(sql, refs, 'b.file_id, b.first_line, b.line_index'));
  const out: EvidenceLineHash[] = [];
  for (const ref of refs) {
    const b = blockOf(byFile, ref);
    const entry = b && lineEntryAt(b.line_index, ref.lineNumber - b.first_line); // a block holds consecutive lines
    if (entry) out.push({ fileId: ref.fileId, lineNumber: ref.lineNumber, length: entry.length, hash: entry.hash });
  }
  return out;
}

/** Exact lines by (file, line), in the order asked; one decompression per block touched. */
export async function readEvidenceLines(sql: Sql, refs: EvidenceRef[]): Promise<RawLineRow[]> {
  if (refs.length === 0) return [];
  const data = await blocksHolding<AddressedBlock>(sql, refs, 'b.file_id, b.first_line, b.first_offset, b.raw_bytes, b.line_index, b.data, f.rel_path');
  return linesOfBlocks(data, refs);
}

/** A stored block as an exact-line read fetches it: with its file's id and path. */
export type AddressedBlock = StoredBlock & { file_id: number; rel_path: string | null };

/**
 * The lines at `refs`, in that order, cut from `blocks`: for each file, at least the last block
 * starting at or before each of its addresses (other blocks may be among them). Addresses that
 * hold no line are left out.
 */
export function linesOfBlocks(blocks: readonly AddressedBlock[], refs: readonly EvidenceRef[]): RawLineRow[] {
  // Each address's block is the fetched block of its file starting last at or before its line: the
  // fetched blocks include that block, so no other fetched one can start between it and the line.
  // Each block is decompressed and its line index unpacked once, however many of its lines are
  // asked for (grep's live check asks for up to 500 lines, often of the same few blocks).
  type Fetched = AddressedBlock & { raw?: Buffer; lines?: EvidenceLine[] };
  const byFile = byFileId(blocks as readonly Fetched[]);
  const out: RawLineRow[] = [];
  for (const ref of refs) {
    const b = blockOf(byFile, ref);
    if (!b) continue;
    b.raw ??= inflateBlock(b.data, b.raw_bytes, b.rel_path ?? `file ${ref.fileId}`, b.first_line);
    b.lines ??= unpackLines(b.line_index, b.first_line, b.first_offset);
    const line = b.lines[ref.lineNumber - b.first_line]; // a block holds consecutive lines
    if (line?.lineNumber === ref.lineNumber) out.push(lineRow(b, b.raw, ref.fileId, b.rel_path ?? '', line));
  }
  return out;
}

/** Evidence lines of the files in ledger order, from position `from` (1-based) of their concatenation. */
export async function readRawLines(sql: Sql, fileIds: number[], from: number, limit: number): Promise<RawLineRow[]> {
  const out: RawLineRow[] = [];
  let skip = from - 1;
  for (const fileId of fileIds) {
    if (out.length >= limit) break;
    const f = (await first<{ rel_path: string; lines: number }>(sql, 'SELECT rel_path, lines FROM files WHERE id = $1', [fileId]))!;
    if (skip >= f.lines) {
      skip -= f.lines;
      continue;
    }
    const wantLine = skip + 1;
    skip = 0;
    // The first fetch starts at the block holding wantLine, the next ones after the last block read.
    let after = wantLine;
    let cond = 'first_line + line_count > $2';
    while (out.length < limit) {
      const blocks = await sql.all<StoredBlock & { line_count: number }>(
        `SELECT first_line, line_count, first_offset, raw_bytes, line_index, data FROM blocks WHERE file_id = $1 AND ${cond}
         ORDER BY first_line LIMIT ${PAGE_FETCH}`,
        [fileId, after],
      );
      cond = 'first_line >= $2';
      for (const b of blocks) {
        out.push(...blockLines(b, inflateBlock(b.data, b.raw_bytes, f.rel_path, b.first_line), fileId, f.rel_path, wantLine).slice(0, limit - out.length));
        if (out.length >= limit) break;
      }
      if (blocks.length < PAGE_FETCH) break;
      const last = blocks[blocks.length - 1]!;
      after = last.first_line + last.line_count;
    }
  }
  return out;
}

/**
 * One row per entry (a line's first event: Claude Code writes several events per line), filtered
 * by type and session, in ledger order. Files are walked in reading order: each costs one indexed
 * count, and only the files holding the page are read.
 */
export async function readLedgerEntries(sql: Sql, q: LedgerEntryQuery): Promise<{ total: number; entries: LedgerEntryRow[] }> {
  const params: unknown[] = [];
  const conds: string[] = [];
  if (q.type !== undefined) {
    params.push(q.type);
    conds.push(`e.type = $${params.length}`);
  }
  if (q.sessionId !== undefined) {
    params.push(q.sessionId);
    conds.push(`e.sid = (SELECT sid FROM sessions WHERE id = $${params.length})`);
  }
  const filter = conds.map((c) => ` AND ${c}`).join('');
  // Every file's path and count in one statement (on a server, one round trip instead of one per file).
  const counted = await sql.all<{ id: number; rel_path: string; n: number }>(
    `SELECT f.id, f.rel_path, (SELECT count(DISTINCT e.line_number) FROM events e WHERE e.file_id = f.id${filter}) AS n
     FROM files f WHERE ${sql.dialect.inArray('f.id', `$${params.length + 1}`, 'int')}`,
    [...params, q.fileIds],
  );
  const byId = new Map(counted.map((r) => [r.id, r]));
  // Pages past the middle of a file are read backwards from its end: OFFSET walks the index, so a
  // "last 10 entries" query costs 10 steps instead of the whole ledger.
  const f = params.length + 1;
  const page = (order: 'ASC' | 'DESC') =>
    `${sql.dialect.firstEventOfEachLine('e.line_number, e.type, s.id, e.ts_ms, e.ts_ns', 'events e LEFT JOIN sessions s ON s.sid = e.sid', `e.file_id = $${f}${filter}`, order)}
     LIMIT $${f + 1} OFFSET $${f + 2}`;
  let total = 0;
  let skip = q.offset;
  const entries: LedgerEntryRow[] = [];
  for (const fileId of q.fileIds) {
    const n = byId.get(fileId)?.n ?? 0;
    total += n;
    if (entries.length >= q.limit || n === 0) continue;
    if (skip >= n) {
      skip -= n;
      continue;
    }
    const want = Math.min(q.limit - entries.length, n - skip);
    const rows =
      skip > n / 2
        ? (await sql.arrays(page('DESC'), [...params, fileId, want, n - skip - want])).reverse()
        : await sql.arrays(page('ASC'), [...params, fileId, want, skip]);
    for (const r of rows) {
      entries.push({
        fileId,
        file: byId.get(fileId)?.rel_path ?? '',
        lineNumber: r[0] as number,
        type: r[1] as string,
        sessionId: (r[2] as string | null) ?? null,
        tsKey: r[3] === null ? null : partsToKey(r[3] as number, (r[4] as number | null) ?? 0),
      });
    }
    skip = 0;
  }
  return { total, entries };
}

/** Distinct event types of the files with the lines holding each (a line belongs to one file, so counts per file add up). */
export async function readLedgerEventTypes(sql: Sql, fileIds: number[]): Promise<{ type: string; count: number }[]> {
  const rows = await sql.all<{ type: string; n: number }>(
    `SELECT type, sum(n) AS n FROM (SELECT file_id, type, count(DISTINCT line_number) AS n FROM events
     WHERE ${sql.dialect.inArray('file_id', '$1', 'int')} GROUP BY file_id, type) x GROUP BY type ORDER BY type`,
    [fileIds],
  );
  return rows.map((r) => ({ type: r.type, count: r.n }));
}

/** Visit every block of the files in reading order; blocks are fetched a few at a time and decompressed ahead. */
export async function scanEvidence(sql: Sql, fileIds: number[], visit: (block: EvidenceBlockView) => boolean | void, skip?: EvidenceSkip): Promise<void> {
  return scanStoredBlocks(sql, fileIds, (rows, fileId, file) => visitBlocks(rows, fileId, file, visit), skip);
}

/** The same blocks, left compressed (Store.scanPackedEvidence). */
export async function scanPackedEvidence(sql: Sql, fileIds: number[], visit: (block: PackedEvidenceBlockView) => boolean | void, skip?: EvidenceSkip): Promise<void> {
  return scanStoredBlocks(sql, fileIds, async (rows, fileId, file) => visitPackedBlocks(rows, fileId, file, visit), skip);
}

const BLOCK_COLUMNS = 'first_line, first_offset, raw_bytes, line_index, data';
/** A scan's block row also names its file (the blocks statements' $1): on a server, no round trip of its own for the path. */
const FILE_PATH = '(SELECT rel_path FROM files WHERE id = $1) AS rel_path';

type ScannedBlock = StoredBlock & { rel_path: string | null };

/**
 * The files' stored blocks, a few rows at a time, in reading order, until `visitRows` resolves
 * false. With `skip`, each batch's gram filters are read first and only the blocks that may hold
 * `skip.holding` are fetched (a block without a filter always is).
 */
async function scanStoredBlocks(
  sql: Sql,
  fileIds: number[],
  visitRows: (rows: StoredBlock[], fileId: number, file: string) => Promise<boolean>,
  skip: EvidenceSkip | undefined,
): Promise<void> {
  const search = skip ? searchFor(skip.holding) : null;
  for (const fileId of fileIds) {
    let after = -1;
    for (;;) {
      const batch = search ? await filteredBatch(sql, fileId, after, search, skip!) : await blockBatch(sql, fileId, after);
      if (batch.rows.length === 0) {
        if (batch.last === null) break;
        after = batch.last;
        continue;
      }
      if (!(await visitRows(batch.rows, fileId, batch.rows[0]!.rel_path ?? ''))) return;
      if (batch.last === null) break;
      after = batch.last;
    }
  }
}

/** A search's probe, and how many of the blocks it looked at so far may hold its bytes. */
interface Search {
  probe: GramProbe;
  seen: number;
  passed: number;
}

/** Searches by the bytes they look for: a search scans file by file, each time with the same bytes (a new search, new bytes). */
const searches = new WeakMap<Uint8Array, Search | null>();

function searchFor(holding: Uint8Array): Search | null {
  let search = searches.get(holding);
  if (search === undefined) {
    const probe = gramProbe(holding);
    searches.set(holding, (search = probe && { probe, seen: 0, passed: 0 }));
  }
  return search;
}

/** Blocks a search looks at before their pass rate decides how its batches are read. */
const EAGER_AFTER = 16;

/** The next SCAN_FETCH blocks after line `after`; `last`: where the next batch starts, null when this was the file's last. */
async function blockBatch(sql: Sql, fileId: number, after: number): Promise<{ rows: ScannedBlock[]; last: number | null }> {
  const rows = await sql.all<ScannedBlock>(`SELECT ${BLOCK_COLUMNS}, ${FILE_PATH} FROM blocks WHERE file_id = $1 AND first_line > $2 ORDER BY first_line LIMIT ${SCAN_FETCH}`, [fileId, after]);
  return { rows, last: rows.length < SCAN_FETCH ? null : rows[rows.length - 1]!.first_line };
}

/**
 * The same batch, only its blocks that may hold the probe's bytes fetched (skip.left hears of the
 * others). Once most blocks of the search have passed (a common literal), the blocks are read with
 * their filters in one statement: on PostgreSQL, a second round trip per file cost `error` 12–15%
 * more than reading the blocks whole, where the few blocks read for nothing cost less.
 */
async function filteredBatch(sql: Sql, fileId: number, after: number, search: Search, skip: EvidenceSkip): Promise<{ rows: ScannedBlock[]; last: number | null }> {
  const eager = search.seen >= EAGER_AFTER && search.passed * 2 > search.seen;
  const heads = await sql.all<ScannedBlock & { gram_filter: Buffer | null }>(
    `SELECT b.first_line${eager ? `, b.first_offset, b.raw_bytes, b.line_index, b.data, ${FILE_PATH}` : ''}, f.gram_filter
     FROM blocks b LEFT JOIN block_filters f ON f.file_id = b.file_id AND f.first_line = b.first_line
     WHERE b.file_id = $1 AND b.first_line > $2 ORDER BY b.first_line LIMIT ${SCAN_FETCH}`,
    [fileId, after],
  );
  const last = heads.length < SCAN_FETCH ? null : heads[heads.length - 1]!.first_line;
  const passing = heads.filter((h) => mayHold(h.gram_filter, search.probe));
  search.seen += heads.length;
  search.passed += passing.length;
  for (let i = passing.length; i < heads.length; i++) skip.left?.(fileId);
  if (passing.length === 0) return { rows: [], last };
  if (eager) return { rows: passing, last };
  if (passing.length === heads.length) return { rows: (await blockBatch(sql, fileId, after)).rows, last };
  const rows = await sql.all<ScannedBlock>(
    `SELECT ${BLOCK_COLUMNS}, ${FILE_PATH} FROM blocks WHERE file_id = $1 AND ${sql.dialect.inArray('first_line', '$2', 'int')} ORDER BY first_line`,
    [fileId, passing.map((h) => h.first_line)],
  );
  return { rows, last };
}
