// The hindsight command line: a loop over the command table (command-table.ts) — the tools'
// commands as their own cli.ts declare them (show, timeline, grep, usage…) and the CLI's own
// (ingest, servers, tokens, sync, the tool runner). Nothing here declares a flag or a schema.

// Start-up: only what every command needs is imported here. Each command imports its own modules
// (the ingest pipeline, its tool, a store engine, the MCP SDK, hono, pg) when it runs, and the
// tools' flags come from the build's catalogue, so `--help`, `tools` and a SQLite tool call start
// within 2× a bare `node -e 0` (bench/startup-bench.ts measures it; docs/benchmarks.md gives the figures).
import { parseArgs } from 'node:util';
import { HindsightError } from '../../core/errors.js';
import { packageVersion } from '../../core/package-info.js';
import type { Format } from '../../core/model.js';
import type { IngestSummary } from '../../ingest/ingest.js';
import type { Store } from '../../store/store.js';
import { painter } from './colour.js';
import { checkFlags, commandTable, joinDashValues, loadedTable, parseOptions } from './command-table.js';
import { shellWord } from './command-line.js';
import { UsageError } from './usage-error.js';
import { plural } from './plural.js';
import { refreshes } from './refresh-flag.js';

const EMPTY_TOKEN = '--token must not be empty: pass the secret clients will send, or leave --token out';

function out(text: string): void {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

function formatSummary(s: IngestSummary, db: string | undefined): string {
  const lines: string[] = [];
  if (s.defaults) {
    lines.push(s.roots.length ? 'No path given; ingested the default locations:' : 'No path given and no format\'s default location exists on this machine (see hindsight ingest --help for them), so nothing was ingested: pass a PATH.');
  }
  for (const r of s.roots) {
    lines.push(r.error ? `  ✗ ${r.path}: ${r.error.message}` : `  ✓ ${r.path} (${r.format})`);
  }
  lines.push(
    `${plural(s.files, 'file')} (${s.filesRead} read, ${s.filesUnchanged} unchanged), ${plural(s.sessions, 'session')} (${s.sessionsTouched} updated), ` +
      `${plural(s.events, 'new event')}, ${plural(s.lines, 'new line')}, ${plural(s.badLines, 'bad line')}, ${(s.bytes / 1e6).toFixed(1)} MB in ${s.seconds.toFixed(2)} s` +
      (s.rewrites ? `, ${plural(s.rewrites, 'rewritten source')}` : ''),
  );
  if (s.badLines || s.defects) lines.push(`See findings with: hindsight tool sources '{"section":"defects"}'${db === undefined ? '' : ` --db ${shellWord(db)}`}`);
  return lines.join('\n');
}

function printOutput(res: { stdout: string; stderr: string }): void {
  if (res.stdout) out(res.stdout);
  if (res.stderr) process.stderr.write(`${res.stderr}\n`);
}

/** Run `fn` on the store; read commands (the default) never create one, ingest passes create. */
async function withStore<T>(db: string | undefined, fn: (store: Store) => Promise<T>, create = false): Promise<T> {
  const { openStore } = await import('../../store/open.js');
  const store = await openStore({ db, mustExist: !create });
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

async function run(argv: string[]): Promise<number> {
  const table = await commandTable();
  const options = parseOptions(table);
  const { values, positionals, tokens } = parseArgs({ args: joinDashValues(argv, options), allowPositionals: true, strict: true, tokens: true, options });
  // Typed reads of the flags: the table gives every string flag as a string, every boolean as a boolean.
  const str = (name: string) => values[name] as string | undefined;
  const on = (name: string) => values[name] === true;
  if (on('version')) {
    out(packageVersion());
    return 0;
  }
  const [command, ...rest] = positionals;
  const spec = command === undefined ? undefined : table.byName.get(command === 'help' && rest[0] ? rest[0] : command);
  if (on('help') || !command || command === 'help') {
    const { commandHelp, usageText } = await import('./help.js');
    if (spec) {
      out(commandHelp(spec));
      return 0;
    }
    out(usageText(table));
    return command || on('help') ? 0 : 2;
  }
  checkFlags(table, command, tokens.flatMap((t) => (t.kind === 'option' ? [t.name] : [])), values);
  const db = str('db');
  switch (command) {
    case 'ingest': {
      const [{ ingestPaths }, { progressBar }] = await Promise.all([import('../../ingest/ingest.js'), import('./progress.js')]);
      return withStore(db, async (store) => {
        const bar = process.stderr.isTTY && !on('json') ? progressBar(process.stderr) : null;
        const summary = await ingestPaths(store, rest, {
          format: str('format') as Format | undefined,
          wait: on('wait'),
          onProgress: bar ? (p) => bar.update(p) : undefined,
        });
        bar?.done();
        if (on('json')) out(JSON.stringify({ status: 'ok', db: store.location, ...summary }, null, 2));
        else out(`${formatSummary(summary, db)}\nStore: ${store.location}`);
        return summary.roots.some((r) => r.error) ? 1 : 0;
      }, true);
    }
    case 'mcp': {
      if (str('token') === '') throw new UsageError(EMPTY_TOKEN);
      // Loaded here so other commands do not pay for the MCP SDK at start-up.
      const { runMcpCommand } = await import('../mcp/command.js');
      return runMcpCommand({
        db, root: str('root'), http: on('http'), host: str('host'), port: str('port'), token: str('token'),
        tools: str('tools'), outputSchemas: on('output-schemas'),
      });
    }
    case 'serve': {
      if (str('token') === '') throw new UsageError(EMPTY_TOKEN);
      // Loaded here so other commands do not pay for hono at start-up.
      const { serveCommand } = await import('../http/serve-command.js');
      return serveCommand({ db, host: str('host'), port: str('port'), token: str('token'), root: str('root') });
    }
    case 'token': {
      // Loaded here so other commands do not pay for the token module at start-up.
      const { runTokenCommand } = await import('./token-command.js');
      const [sub, ...args] = rest;
      return runTokenCommand(sub, args, { db, user: str('user'), projects: str('projects'), readOnly: on('read-only'), json: on('json') });
    }
    case 'sync': {
      // Loaded here so other commands do not pay for sync at start-up.
      const { syncCommand } = await import('./sync-command.js');
      return syncCommand({ sub: rest[0], sessionId: rest[1], db, remote: str('remote'), json: on('json') });
    }
    case 'otel': {
      const { runOtelCommand } = await import('./otel-command.js');
      return runOtelCommand({ sub: rest[0], db, since: str('since'), format: str('format'), project: str('project'), includeContent: on('include-content'), raw: on('raw'), json: on('json') });
    }
    case 'ask':
    case 'chat':
    case 'run':
    case 'doctor':
    case 'skills': {
      // Loaded here so other commands do not pay for the agent runtime at start-up.
      const { runAgentCommand, agentFlagsOf } = await import('./agent-commands.js');
      return runAgentCommand({ command, positionals: rest, flags: agentFlagsOf(values) });
    }
    case 'parse-tools': {
      // Loaded here so other commands do not pay for the parsers at start-up.
      const { parseToolsCommand } = await import('./parse-tools-command.js');
      return parseToolsCommand({ parser: str('parser'), tools: str('tools'), deltas: on('deltas'), input: rest[0] }, out);
    }
    case 'tools': {
      const { listTools, toolSummaries } = await import('./tool-lookup.js');
      if (on('json')) out(JSON.stringify({ tools: await listTools() }, null, 2));
      else for (const t of await toolSummaries()) out(`${t.name.padEnd(22)} ${t.description.split('. ')[0]}.`);
      return 0;
    }
    case 'tool': {
      const [{ toolByName, toolSummaries }, { runTool }] = await Promise.all([import('./tool-lookup.js'), import('../../tools/tool.js')]);
      const [name, json] = rest;
      if (!name) throw new UsageError('tool needs a NAME: hindsight tool NAME \'{"json": "args"}\' (see hindsight tools)');
      const tool = await toolByName(name);
      if (!tool) throw new UsageError(`unknown tool "${name}"; known tools: ${(await toolSummaries()).map((t) => t.name).join(', ')}`);
      let args: unknown = {};
      if (json !== undefined) {
        try {
          args = JSON.parse(json);
        } catch (err) {
          throw new UsageError(`the arguments are not JSON (${(err as Error).message}); pass one JSON object, e.g. '{"limit": 5}'`);
        }
      }
      return withStore(db, async (store) => {
        const result = await runTool(tool, args, { store, workspaceRoot: str('root') ?? process.cwd() });
        out(JSON.stringify(result, null, 2));
        return result.status === 'ok' ? 0 : 1;
      });
    }
    default: {
      // A tool's command: the tool's own folder says what it takes (cli.ts); only that tool loads.
      if (!spec?.tool) throw new UsageError(`unknown command "${command}"; run hindsight --help`);
      const [{ toolByName }, { prepareToolCommand, runPrepared }] = await Promise.all([import('./tool-lookup.js'), import('./tool-command.js')]);
      const tool = await toolByName(spec.tool);
      if (!tool) throw new Error(`the command table names a tool "${spec.tool}" the registry does not hold; rebuild (npm run build)`);
      // Checked before the store opens: a bad command line is a usage error even without a store.
      const prepared = await prepareToolCommand(tool, rest, values);
      const paint = painter(process.stdout, process.env, on('no-color'));
      if (refreshes(command, db, on('no-refresh'), process.env)) {
        // Reports on the default store bring it up to date first (refresh.ts says how and when).
        const { runWithRefresh } = await import('./refresh.js');
        const run = await runWithRefresh(prepared, { env: process.env, err: process.stderr, paint, argv, print: printOutput });
        return run.code;
      }
      return withStore(db, async (store) => {
        const res = await runPrepared(prepared, store, paint, argv);
        printOutput(res);
        return res.code;
      });
    }
  }
}

/** Entry point used by bin/hindsight; returns the exit code. */
/** A reader that stops early (`hindsight tools | head`) closes the pipe: that ends the output quietly, not with a stack trace. */
function endQuietlyOnClosedPipe(): void {
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });
}

export async function main(argv: string[]): Promise<number> {
  endQuietlyOnClosedPipe();
  try {
    return await run(argv);
  } catch (err) {
    if (err instanceof UsageError || (err as NodeJS.ErrnoException).code?.startsWith?.('ERR_PARSE_ARGS')) {
      process.stderr.write(`hindsight: ${(err as Error).message}\n`);
      return 2;
    }
    if (err instanceof HindsightError) {
      const { inCliTerms } = await import('./cli-terms.js');
      process.stderr.write(`hindsight: ${inCliTerms(err.message, loadedTable())}\n`);
      return 1;
    }
    throw err;
  }
}
