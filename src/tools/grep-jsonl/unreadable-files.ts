// The files a search of every session (scope "all") goes on without: a damaged block of stored
// evidence (EVIDENCE_DAMAGED) or a source that failed to read (SOURCE_UNREADABLE) costs that
// file, not the whole answer, and the answer names each one with its error. One ledger (scope
// "ledger") is an explicit request for it: there the error stays the answer.

import { z } from 'zod';
import { EvidenceDamaged, HindsightError, SourceUnreadable } from '../../core/errors.js';
import type { LedgerFile } from '../ledger-address.js';

export const skippedFileShape = z.object({
  file: z.string(),
  line_number: z.number().int().nullable().describe('The first line of the damaged evidence block (lines before it were searched); null: the source file failed to read.'),
  code: z.string().describe('EVIDENCE_DAMAGED or SOURCE_UNREADABLE.'),
  error: z.string().describe('What went wrong and what to do, as the error would say it.'),
});
export type SkippedFile = z.infer<typeof skippedFileShape>;

/** Errors that are one file's, not the search's. */
const FILE_ERRORS: ReadonlySet<string> = new Set([EvidenceDamaged.code, SourceUnreadable.code]);

export class UnreadableFiles {
  private readonly byFile = new Map<number, SkippedFile>();

  /** `skipping`: whether a file's error skips the file (scope all) or ends the search (one ledger). */
  constructor(private readonly skipping: boolean) {}

  /**
   * Whether the search goes on without `file` after `err`; if so the file is recorded (its first
   * error) and has() says so from now on.
   *
   * @example if (!unreadable.skip(file, err)) session.abort(err);
   */
  skip(file: Pick<LedgerFile, 'fileId' | 'file'>, err: unknown): boolean {
    if (!this.skipping || !(err instanceof HindsightError) || !FILE_ERRORS.has(err.code)) return false;
    if (!this.byFile.has(file.fileId)) {
      const line = err.details?.['line'];
      this.byFile.set(file.fileId, { file: file.file, line_number: typeof line === 'number' ? line : null, code: err.code, error: err.message });
    }
    return true;
  }

  /** Whether the file was skipped: its later blocks and ranges are left out. */
  has(fileId: number): boolean {
    return this.byFile.has(fileId);
  }

  /** The files skipped, in the order of `files` (the reading order, whichever worker answered first). */
  list(files: readonly LedgerFile[]): SkippedFile[] {
    return files.flatMap((f) => this.byFile.get(f.fileId) ?? []);
  }
}
