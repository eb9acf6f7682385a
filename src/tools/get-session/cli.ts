// `hindsight session ID`: one session's stored details for people (ledgers, children, findings).

import type { CliSpec } from '../tool.js';

export const cli: CliSpec = {
  command: 'session',
  summary: "Show one session's stored details (ledgers, children, findings).",
  positionals: [{ name: 'ID', arg: 'session_id', required: true, help: 'the session: its id or a unique prefix of it' }],
  needs: 'an ID (see hindsight sessions)',
  flags: [],
  json: false,
};
