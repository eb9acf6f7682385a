// What a team token may not do, as errors a tool call answers with (mapped to 403 over HTTP).

import { defineError } from '../../core/errors.js';

export const ReadOnlyToken = defineError(
  'READ_ONLY_TOKEN',
  (tool: string) =>
    `${tool} can change files, and this server's token is read-only. Ask the server's admin for a token created without --read-only, or run it locally with hindsight ${tool === 'rewind_session' ? 'rewind' : 'tool'}.`,
);

export const ScopedWriteRefused = defineError(
  'SCOPED_WRITE_REFUSED',
  () =>
    'A team token cannot write to the shared store (ingest, or rewind_session with apply). Run that on the machine that holds the logs, with the store URL as --db.',
);

export const MachineToolRefused = defineError(
  'MACHINE_TOOL_REFUSED',
  (tool: string) =>
    `${tool} reads the serving machine's own files or settings, which a team token does not see (it sees its projects in the store). Run it on your own machine, or ask the server's admin.`,
);
