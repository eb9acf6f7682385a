// Which parts of which files the model has seen: the read handler records every range it returned,
// so the session (and compaction, which may later drop a read result from view) can tell what the
// model has inspected and how much it read in a turn.

export interface InspectedRange {
  /** The path as the model gave it. */
  path: string;
  /** First and last line shown, 1-based and inclusive (0 and 0 for an empty file). */
  startLine: number;
  endLine: number;
  /** Lines in the whole file. */
  totalLines: number;
  /** The result was cut at the read cap before `endLine` reached what was asked. */
  capped: boolean;
  /** Characters of the result the model received. */
  chars: number;
  turn: number;
}

export class InspectionLedger {
  private readonly entries: InspectedRange[] = [];

  record(range: InspectedRange): void {
    this.entries.push({ ...range });
  }

  /** Every range, in the order read. */
  all(): readonly InspectedRange[] {
    return this.entries;
  }

  /** The ranges read of one path, in order. */
  rangesOf(path: string): InspectedRange[] {
    return this.entries.filter((e) => e.path === path);
  }

  /** Whether line `line` of `path` has been shown. */
  hasSeen(path: string, line: number): boolean {
    return this.entries.some((e) => e.path === path && line >= e.startLine && line <= e.endLine);
  }

  /** Characters read in one turn (the budget's maxTotalReadResultTokensPerTurn is checked against this). */
  charsReadInTurn(turn: number): number {
    return this.entries.reduce((sum, e) => sum + (e.turn === turn ? e.chars : 0), 0);
  }
}
