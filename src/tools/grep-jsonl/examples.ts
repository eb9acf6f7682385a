// grep_jsonl's examples: valid calls on the example store (../example-store.ts) and what each answers.
// A test runs every one on every surface; docs/tools.md prints them.

import type { ToolExample } from '../tool.js';

export const examples: readonly ToolExample[] = [
  { about: "A regex over the ho2m ledger's stored lines.", args: { pattern: 'SESSION', ledger: 'ho2m', limit: 5 }, status: 'ok' },
  { about: 'Every session of every format, any case.', args: { pattern: 'error', scope: 'all', ignore_case: true, limit: 5 }, status: 'ok' },
  { about: 'A back-reference, which the linear-time engine refuses.', args: { pattern: '(a)\\1', ledger: 'ho2m' }, status: 'error', code: 'INVALID_PATTERN' },
];
