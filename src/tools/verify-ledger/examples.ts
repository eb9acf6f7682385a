// verify_ledger's examples: valid calls on the example store (../example-store.ts) and what each answers.
// A test runs every one on every surface; docs/tools.md prints them.

import type { ToolExample } from '../tool.js';

export const examples: readonly ToolExample[] = [
  { about: "Check the governance ledger's hash chain.", args: { ledger: 'governance' }, status: 'ok' },
];
