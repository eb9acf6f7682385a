// The commands that are not one tool's view (ingest, servers, tokens, sync, the tool runner) and
// the flags the CLI itself reads on every command. Each flag is declared here once, with its type
// and help; the tools' commands declare theirs in their own folders (src/tools/<tool>/cli.ts).

import { FORMATS } from '../../formats/registry.js';
import type { CommandFlag, CommandSpec } from '../../tools/catalogue.js';
import { agentCommands } from './agent-specs.js';
import { otelCommand } from './otel-command.js';

/** --db: every command that reads or writes a store. */
export const DB_FLAG: CommandFlag = {
  name: 'db',
  type: 'string',
  value: 'FILE|URL',
  help: 'the store: a SQLite file or a postgres:// URL (default $HINDSIGHT_DB, else ~/.local/share/hindsight/hindsight.db)',
};

/** --json on a tool's command: the envelope instead of text. */
export const JSON_FLAG: CommandFlag = { name: 'json', type: 'boolean', help: "print the tool's JSON envelope instead of text" };

/** Flags every command takes. */
export const EVERYWHERE: readonly CommandFlag[] = [
  { name: 'no-color', type: 'boolean', help: 'plain text even on a terminal (also NO_COLOR=1)' },
  { name: 'help', short: 'h', type: 'boolean', help: 'this help; after a command, that command\'s flags' },
  { name: 'version', type: 'boolean', help: 'the version' },
];

const json = (help: string): CommandFlag => ({ name: 'json', type: 'boolean', help });
const root = (help: string): CommandFlag => ({ name: 'root', type: 'string', value: 'PATH', help });
const SERVER_FLAGS: CommandFlag[] = [
  { name: 'host', type: 'string', value: 'HOST', help: 'the address to listen on (default 127.0.0.1)' },
  { name: 'port', type: 'string', value: 'N', help: 'the port (0: any free port)' },
  { name: 'token', type: 'string', value: 'T', help: 'the bearer token clients send (default $HINDSIGHT_TOKEN; required off loopback)' },
];

const own = (spec: Omit<CommandSpec, 'json' | 'positionals'> & Partial<Pick<CommandSpec, 'positionals'>>): CommandSpec => ({
  positionals: [],
  json: false,
  ...spec,
});

/** ingest comes first in --help; the tools' commands follow it, then the rest of these. */
export const LEADING_COMMANDS = ['ingest'];

export const OWN_COMMANDS: readonly CommandSpec[] = [
  own({
    command: 'ingest',
    summary:
      `Ingest agent logs of every format (${FORMATS.join(', ')}). With no PATH, ingests each format's default locations that exist and says which.`,
    positionals: [{ name: 'PATH', display: 'PATH', help: 'a root, a folder holding roots, or one transcript', required: false, variadic: true }],
    flags: [
      { name: 'format', type: 'string', value: 'F', help: 'read every PATH as this format instead of detecting it from the layout', choices: FORMATS },
      DB_FLAG,
      json('print the summary as JSON'),
      { name: 'wait', type: 'boolean', help: 'queue behind a running ingest into the same store instead of failing' },
    ],
  }),
  own({
    command: 'mcp',
    summary:
      'Serve the tools to agents over MCP on stdin/stdout (claude mcp add hindsight -- npx -y hindsight-sessions mcp). Default: the core set ' +
      '(9 tools, ~16 KB listing); --tools picks sets and tools (docs/mcp.md). With --http: Streamable HTTP at http://HOST:PORT/mcp ' +
      '(default port 7437; 0 = any free port); a token (--token or HINDSIGHT_TOKEN) is required when HOST is not loopback.',
    synopses: [
      'hindsight mcp [--tools core|analyst|ledger|admin|files|all|NAME,...] [--output-schemas] [--db FILE] [--root PATH]',
      'hindsight mcp --http [--host 127.0.0.1] [--port N] [--token T] [--db FILE] [--root PATH]',
    ],
    flags: [
      DB_FLAG,
      root('the workspace of the file tools (default: the current directory)'),
      { name: 'http', type: 'boolean', help: 'serve over Streamable HTTP instead of stdio' },
      ...SERVER_FLAGS,
      { name: 'tools', type: 'string', value: 'SETS', help: 'the tool sets and tools to serve: core|analyst|ledger|admin|files|all|NAME,...' },
      { name: 'output-schemas', type: 'boolean', help: "list each tool's output schema and full parameter descriptions" },
    ],
  }),
  own({
    command: 'serve',
    summary:
      'Serve the HTTP API (POST /api/tools/<name>, GET views, /api/openapi.json) and the web viewer at http://HOST:PORT/ (default port 7718; ' +
      '0 = any free port). A token (--token or HINDSIGHT_TOKEN) is required when HOST is not loopback; with one, /api needs Bearer auth.',
    synopses: ['hindsight serve [--host 127.0.0.1] [--port N] [--token T] [--db FILE] [--root PATH]'],
    flags: [DB_FLAG, root('the workspace of the file tools (default: the current directory)'), ...SERVER_FLAGS],
  }),
  own({
    command: 'token',
    summary:
      'A team token for serve and mcp --http: sees only those projects (as list_sessions names them); --read-only redacts every answer and ' +
      'refuses rewind. The token is the last word printed. list: the store\'s tokens (never the tokens themselves); revoke: at once.',
    synopses: [
      'hindsight token create --user U --projects P1,P2 [--read-only] [--db FILE]',
      'hindsight token list [--json] [--db FILE] | hindsight token revoke ID [--db FILE]',
    ],
    flags: [
      DB_FLAG,
      json('token list: the tokens as JSON'),
      { name: 'user', type: 'string', value: 'U', help: 'create: who the token is for' },
      { name: 'projects', type: 'string', value: 'P1,P2', help: 'create: the projects it sees' },
      { name: 'read-only', type: 'boolean', help: 'create: redact every answer and refuse rewind' },
    ],
  }),
  own({
    command: 'sync',
    summary:
      "Push this machine's sessions (with their evidence) to the shared PostgreSQL remote, or pull other machines' sessions into the local " +
      'store; idempotent and resumable (docs/sync.md). status: per session, local and cloud sequence, synced | ahead | behind | conflict ' +
      '(sync_status). The remote: --remote, else HINDSIGHT_REMOTE, else "remote" in ~/.config/hindsight/config.json.',
    synopses: ['hindsight sync push|pull [--remote URL] [--db FILE] [--json]', 'hindsight sync status [SESSION_ID] [--remote URL] [--db FILE] [--json]'],
    flags: [
      DB_FLAG,
      json('print the summary as JSON'),
      { name: 'remote', type: 'string', value: 'URL', help: 'the sync remote, a postgres:// URL (default $HINDSIGHT_REMOTE, else the config file)' },
    ],
  }),
  otelCommand(DB_FLAG),
  ...agentCommands(DB_FLAG),
  own({
    command: 'tools',
    summary: 'List the tools (--json: names, descriptions and JSON schemas).',
    flags: [json('names, descriptions and JSON schemas')],
  }),
  own({
    command: 'parse-tools',
    summary:
      'Run a model family\'s tool-call parser over raw model output (FILE or stdin) and print {"calls", "content", "reasoning", "parse_errors"}; ' +
      '--deltas reads a JSON array of streamed pieces; --tools takes [{name, parameters}] to type XML parameters (docs/parsers.md).',
    positionals: [{ name: 'FILE', display: 'FILE|-', help: 'the model output (default: stdin)', required: false, variadic: false }],
    flags: [
      { name: 'parser', type: 'string', value: 'ID', help: 'the parser of the model family (docs/parsers.md)' },
      { name: 'tools', type: 'string', value: 'FILE', help: 'a JSON file of [{name, parameters}] to type XML parameters' },
      { name: 'deltas', type: 'boolean', help: 'the input is a JSON array of streamed pieces' },
    ],
  }),
  own({
    command: 'tool',
    summary: 'Run one tool and print its JSON result (exit 0 ok, 1 tool error, 2 usage error).',
    positionals: [
      { name: 'NAME', display: 'NAME', help: 'the tool (see hindsight tools)', required: true, variadic: false },
      { name: 'JSON', display: '\'{"json": "args"}\'', help: 'its arguments as one JSON object (default {})', required: false, variadic: false },
    ],
    flags: [DB_FLAG, root('the workspace of the file tools (default: the current directory)')],
  }),
];
