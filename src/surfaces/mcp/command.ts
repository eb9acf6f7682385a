// `hindsight mcp [--http]`: open the store, serve MCP over stdio or Streamable HTTP, and close
// the store on the way out. Returns the exit code (2 for a malformed command line).

import { openStore } from '../../store/open.js';
import type { Store } from '../../store/store.js';
import { tokenStoreFor } from '../access/tokens/open-tokens.js';
import { DEFAULT_MCP_PORT, startMcpHttpServer } from './http.js';
import { serveStdio } from './stdio.js';
import { DEFAULT_TOOL_SET, resolveToolSelection, ToolSelectionError } from './tool-sets.js';
import { assertServable, listenFailure, parsePort, untilSignal } from '../server-process.js';

export interface McpCommandOptions {
  db?: string;
  root?: string;
  http?: boolean;
  host?: string;
  port?: string;
  token?: string;
  /** `--tools`: tool and set names, comma-separated (tool-sets.ts); default the core set. */
  tools?: string;
  /** `--output-schemas`: list output schemas and full parameter descriptions too. */
  outputSchemas?: boolean;
}

function log(line: string): void {
  process.stderr.write(`hindsight mcp: ${line}\n`);
}

function usage(message: string): number {
  process.stderr.write(`hindsight: ${message}\n`);
  return 2;
}

/** "9 tools (core)" — so a person starting the server sees what agents will be offered. */
function describeExposure(count: number, opts: McpCommandOptions): string {
  const which = opts.tools ?? `${DEFAULT_TOOL_SET}; --tools all for every tool`;
  return `${count} tool${count === 1 ? '' : 's'}: ${which}${opts.outputSchemas ? ', with output schemas' : ''}`;
}

function logInternal(tool: string, err: unknown): void {
  log(`internal error in ${tool}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
}

/** An agent sees only empty lists from an empty store; say so where a person can read it. */
async function warnIfEmpty(store: Store): Promise<void> {
  const { total } = await store.listSessions({ limit: 1, offset: 0 });
  if (total === 0) log(`the store ${store.location} holds no sessions yet: run hindsight ingest (with the same --db) first.`);
}

/**
 * Run the `mcp` command.
 *
 * @example
 * process.exitCode = await runMcpCommand({ db: '/tmp/h.db', http: true, port: '0' });
 */
export async function runMcpCommand(opts: McpCommandOptions): Promise<number> {
  const workspaceRoot = opts.root ?? process.cwd();
  let tools;
  try {
    tools = resolveToolSelection(opts.tools);
  } catch (err) {
    if (err instanceof ToolSelectionError) return usage(err.message);
    throw err;
  }
  const exposure = { tools, fullListing: opts.outputSchemas === true };
  if (!opts.http) {
    const extra = (['host', 'port', 'token'] as const).filter((k) => opts[k] !== undefined);
    if (extra.length) return usage(`${extra.map((k) => `--${k}`).join(', ')} only apply with --http (stdio needs no address or token)`);
    const store = await openStore({ db: opts.db });
    try {
      log(`serving ${store.location} over stdio (${describeExposure(tools.length, opts)})`);
      await warnIfEmpty(store);
      await serveStdio({ store, workspaceRoot, onInternalError: logInternal, ...exposure });
    } finally {
      await store.close();
    }
    return 0;
  }

  const host = opts.host ?? '127.0.0.1';
  const port = parsePort(opts.port, DEFAULT_MCP_PORT);
  if (port === null) return usage(`--port must be a whole number from 0 to 65535 (0 = any free port), got "${opts.port}"`);
  const token = opts.token || process.env.HINDSIGHT_TOKEN || undefined;
  const store = await openStore({ db: opts.db });
  try {
    const tokens = tokenStoreFor(store);
    const team = await tokens.anyTokens();
    try {
      await assertServable(host, token, tokens);
    } catch (err) {
      return usage((err as Error).message);
    }
    let server;
    try {
      server = await startMcpHttpServer({ store, workspaceRoot, host, port, token, tokens, onInternalError: logInternal, ...exposure });
    } catch (err) {
      const why = listenFailure(err, host, port);
      if (why === null) throw err;
      log(why);
      return 1;
    }
    const guard = team ? ' (bearer token required: the admin --token or a team token, which sees only its projects)' : token ? ' (bearer token required)' : '';
    log(`serving ${store.location} at ${server.url}${guard} (${describeExposure(tools.length, opts)})`);
    await warnIfEmpty(store);
    await untilSignal();
    await server.close();
  } finally {
    await store.close();
  }
  return 0;
}
