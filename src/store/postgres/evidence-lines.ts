// Exact evidence lines by address on PostgreSQL (Store.evidenceLines): the same blocks as
// core/ledger-reads.ts' readEvidenceLines, each fetched on the blocks' unique index. The shared
// statement joins the addresses' blocks to `blocks`, and the planner, counting on 100 rows out of
// json_array_elements, hashed a sequential scan of every block of the store (0.6 ms for 1,793 blocks
// of a 300 MB store, growing with it) to keep one or two. A LATERAL subquery with LIMIT 1 (not
// pulled up into a join) makes it one index probe per distinct block.

import { RowList, type Sql } from '../core/sql.js';
import { linesOfBlocks, type AddressedBlock } from '../core/ledger-reads.js';
import type { EvidenceRef, RawLineRow } from '../store.js';

/**
 * readEvidenceLines, its blocks found by index.
 *
 * @example await readEvidenceLinesByIndex(sql, [{ fileId: 512, lineNumber: 2081 }]);
 */
export async function readEvidenceLinesByIndex(sql: Sql, refs: EvidenceRef[]): Promise<RawLineRow[]> {
  if (refs.length === 0) return [];
  const blocks = await sql.all<AddressedBlock>(
    `SELECT b.file_id, b.first_line, b.first_offset, b.raw_bytes, b.line_index, b.data, (SELECT rel_path FROM files WHERE id = b.file_id) AS rel_path
     FROM (SELECT DISTINCT r.file_id, (SELECT b.first_line FROM blocks b WHERE b.file_id = r.file_id AND b.first_line <= r.line
         ORDER BY b.first_line DESC LIMIT 1) AS first_line
       FROM ${sql.dialect.rows('$1', 'r', [['file_id', 'int'], ['line', 'int']])}) k
     CROSS JOIN LATERAL (SELECT * FROM blocks b WHERE b.file_id = k.file_id AND b.first_line = k.first_line LIMIT 1) b`,
    [new RowList(refs.map((r) => [r.fileId, r.lineNumber]))],
  );
  return linesOfBlocks(blocks, refs);
}
