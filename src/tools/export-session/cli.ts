// `hindsight export ID`: the whole export streamed to stdout or a file (the CLI writes what
// exportSession() yields, without the tool's page and byte cap).

import { rawFlag } from '../cli-flags.js';
import type { CliSpec } from '../tool.js';

export const cli: CliSpec = {
  command: 'export',
  summary:
    'Write the session as a compact replay (default), a markdown transcript, its raw JSONL, or an OpenTelemetry trace ' +
    '(--format otlp: OTLP/JSON in the GenAI conventions, docs/otel.md). (--format replay|markdown|jsonl is the old spelling of --as: still read, with a notice.)',
  positionals: [{ name: 'ID', arg: 'session_id', required: true, help: 'the session: its id or a unique prefix of it' }],
  needs: 'a session ID (see hindsight sessions)',
  flags: [
    { name: 'as', type: 'string', help: 'the output: replay (default), markdown, jsonl or otlp', arg: 'format' },
    { name: 'include-content', type: 'boolean', help: 'otlp: prompts, replies and tool arguments on the spans (redacted unless --raw)', arg: 'include_content' },
    { name: 'out', type: 'string', value: 'FILE', help: 'write to FILE (and say where) instead of stdout' },
    { name: 'no-subagents', type: 'boolean', help: "leave the session's sub-agents and forks out", arg: 'include_subagents', sets: false },
    rawFlag,
    // Read by the CLI with a deprecation notice; --format names the source format everywhere else.
    { name: 'format', type: 'string', value: 'otlp|replay|markdown|jsonl', help: 'otlp: the session as an OpenTelemetry trace; the others: the old spelling of --as (still read, with a notice)' },
  ],
  json: false,
};
