// Where a Control Plane root keeps its three ledgers, how their files are named, and how they
// rank when timestamps tie (formats.md: ho2m > ho1m > governance).

export interface LedgerSpec {
  /** Ledger name (decisions.md) and file stem. */
  name: 'ho2m' | 'ho1m' | 'governance';
  /** Directory relative to the root, with `/` separators. */
  dir: string;
  /** Merge priority when timestamps tie (lower first). */
  rank: number;
}

export const LEDGERS: readonly LedgerSpec[] = [
  { name: 'ho2m', dir: 'HO2/ledger', rank: 0 },
  { name: 'ho1m', dir: 'HO1/ledger', rank: 1 },
  { name: 'governance', dir: 'HOT/ledger', rank: 2 },
];

/** The ledger whose entries decide status and carry the conversation. */
export const MAIN_LEDGER = 'ho2m';

/** Environment variable naming plane roots (comma-separated). */
export const ROOT_ENV = 'HINDSIGHT_CP_ROOT';

/** The active file of a ledger: `<stem>.jsonl`. */
export function activeFileName(spec: LedgerSpec): string {
  return `${spec.name}.jsonl`;
}

const SEGMENT_RE = /^(ho2m|ho1m|governance)-\d{8}-\d{6}\.jsonl$/;

/** True for a rotated segment of this ledger: `<stem>-YYYYMMDD-HHMMSS.jsonl`. */
export function isSegmentName(spec: LedgerSpec, fileName: string): boolean {
  const m = SEGMENT_RE.exec(fileName);
  return m !== null && m[1] === spec.name;
}

/** True for the active file or a rotated segment of this ledger. */
export function isLedgerFileName(spec: LedgerSpec, fileName: string): boolean {
  return fileName === activeFileName(spec) || isSegmentName(spec, fileName);
}
