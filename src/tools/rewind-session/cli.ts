// `hindsight rewind ID`: a dry run that prints the plan, unless --apply.

import type { CliSpec } from '../tool.js';

export const cli: CliSpec = {
  command: 'rewind',
  summary:
    'Cut a Claude Code or Amplifier session back so the agent can resume there. A dry run unless --apply; backups first; ' +
    'refuses live sessions (written in the last 60 s) unless --force.',
  positionals: [{ name: 'ID', arg: 'session_id', required: true, help: 'the session: its id or a unique prefix of it' }],
  needs: 'a session ID and one of --to-turn N, --to-message N, --before TIMESTAMP',
  flags: [
    { name: 'to-turn', type: 'integer', value: 'N', help: 'keep turns 1..N', arg: 'to_turn' },
    { name: 'to-message', type: 'integer', value: 'N', help: 'keep messages 1..N', arg: 'to_message' },
    { name: 'before', type: 'string', value: 'TIMESTAMP', help: 'cut before the first line at or after this ISO 8601 time', arg: 'before' },
    { name: 'apply', type: 'boolean', help: 'rewrite the files (after backing them up)', arg: 'apply' },
    { name: 'force', type: 'boolean', help: 'apply even when the session was written in the last 60 s', arg: 'force' },
  ],
};
