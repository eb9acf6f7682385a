// `hindsight search QUERY...`: full-text search over sessions, ranked.

import { limitFlag, offsetFlag, projectFlag, rawFlag, sourceFormatFlag } from '../cli-flags.js';
import type { CliSpec } from '../tool.js';

export const cli: CliSpec = {
  command: 'search',
  summary: 'Full-text search over sessions: words, "phrases", prefix*; ranked by relevance then recency.',
  positionals: [{ name: 'QUERY', arg: 'query', required: true, variadic: true, help: 'words, "a phrase", prefix* (the words are joined by spaces)' }],
  needs: 'a QUERY (words, "a phrase", prefix*)',
  flags: [
    { name: 'scope', type: 'string', help: 'where to look: session metadata, the transcript, or both (default)', arg: 'scope' },
    projectFlag,
    {
      name: 'date-range',
      type: 'string',
      value: 'R',
      help: 'only sessions started in this UTC window: today, yesterday, last_week, last_month, YYYY-MM-DD[:YYYY-MM-DD]',
      arg: 'date_range',
    },
    sourceFormatFlag,
    limitFlag({ default: 20 }),
    offsetFlag(),
    rawFlag,
  ],
  fixed: { max_bytes: 10_000_000 },
};
