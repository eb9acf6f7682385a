// A source file's size in bytes for planning (progress totals, the usage pass's claiming order): 0
// when it cannot be stat'ed (gone, a dangling link, a link loop), which the read itself then reports
// or skips.

import { statSync } from 'node:fs';

/** `path`'s size, or 0 when it cannot be stat'ed. @example sizeOf('/tmp/a.jsonl') // 2048 */
export function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
