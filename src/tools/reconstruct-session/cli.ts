// `hindsight timeline ID`: the conversation in order for people, one page at a time, with the
// words of every row (verbosity full) and hooks hidden unless --kind asks for them.

import { limitFlag, offsetFlag, rawFlag } from '../cli-flags.js';
import type { CliSpec, Refuse } from '../tool.js';
import { DEFAULT_VIEW_KINDS, VIEW_KINDS } from './view-kind.js';

/** `--kind a,b` → the view kinds asked for; `all` → no filter (undefined). */
function timelineKinds(flag: string, refuse: Refuse): string[] | undefined {
  const asked = flag.split(',').map((k) => k.trim().toLowerCase()).filter((k) => k !== '');
  if (asked.includes('all')) return undefined;
  const unknown = asked.filter((k) => !(VIEW_KINDS as readonly string[]).includes(k));
  if (unknown.length || !asked.length) refuse(`--kind takes a comma-separated list of ${VIEW_KINDS.join(', ')} (or all); got "${flag}"`);
  return asked;
}

export const cli: CliSpec = {
  command: 'timeline',
  summary:
    'The conversation in order, sub-agents interleaved: user and assistant text, tool calls with a result line, thinking folded ' +
    `(--full unfolds it and shows tool output). Kinds: ${VIEW_KINDS.join(', ')}; hooks hidden unless asked (reconstruct_session).`,
  positionals: [{ name: 'ID', arg: 'session_id', required: true, help: 'the session: its id or a unique prefix of it' }],
  needs: 'a session ID (see hindsight sessions)',
  flags: [
    {
      name: 'kind',
      type: 'string',
      value: 'K,...|all',
      help: 'only these kinds of rows (comma-separated), or all; default: every kind but hook',
      arg: 'kinds',
      default: [...DEFAULT_VIEW_KINDS],
      parse: timelineKinds,
    },
    limitFlag({ default: 50 }),
    offsetFlag(),
    { name: 'full', type: 'boolean', help: 'unfold thinking and show tool output' },
    rawFlag,
  ],
  // The conversation view shows the words, so it needs each row's content.
  fixed: { verbosity: 'full', max_bytes: 10_000_000 },
};
