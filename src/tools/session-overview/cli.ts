// `hindsight show ID`: the overview as text for people (or the envelope with --json).

import { rawFlag } from '../cli-flags.js';
import type { CliSpec } from '../tool.js';

export const cli: CliSpec = {
  command: 'show',
  summary: 'What the session was about: status, the about paragraph, tokens, tools, errors (session_overview).',
  positionals: [{ name: 'ID', arg: 'session_id', required: true, help: 'the session: its id or a unique prefix of it' }],
  needs: 'a session ID (see hindsight sessions)',
  flags: [rawFlag],
};
