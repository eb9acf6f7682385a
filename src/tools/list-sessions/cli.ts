// `hindsight sessions`: the sessions as a table (the CLI reads the store for it, with each
// session's cost); --json prints this tool's envelope with the same filters.

import { limitFlag, offsetFlag, projectFlag, sourceFormatFlag } from '../cli-flags.js';
import type { CliSpec } from '../tool.js';

export const cli: CliSpec = {
  command: 'sessions',
  summary: 'List sessions as a table, newest first (--top-level hides sub-agents, forks and sidechains).',
  flags: [
    // Ranges checked here: the table is read from the store, not through the tool's validation.
    limitFlag({ default: 50, min: 1, max: 500 }),
    offsetFlag({ default: 0, min: 0 }),
    sourceFormatFlag,
    projectFlag,
    { name: 'top-level', type: 'boolean', help: 'hide sub-agents, forks and sidechains', arg: 'top_level_only', default: false },
  ],
};
