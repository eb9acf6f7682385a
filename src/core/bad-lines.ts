// What counts as a bad line (decisions.md): a line with at least one error-severity finding
// (unparsable, truncated, non-object, tampered hash…), each line once. Warnings and info do not.

import type { Defect } from './model.js';

export function badLineCount(defects: Defect[]): number {
  const lines = new Set<string>();
  for (const d of defects) if (d.severity === 'error' && d.line !== null) lines.add(`${d.file}\0${d.line}`);
  return lines.size;
}
