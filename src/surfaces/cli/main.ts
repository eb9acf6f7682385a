// The `hindsight` command line: ingest, tools, tool, and the views for people (sessions, session,
// show, timeline, grep, ledger). A thin loop over the ingest pipeline and the tool registry;
// nothing here re-declares a schema.

// Start-up: only what every command needs is imported here. Each command imports its own modules
// (the ingest pipeline, the tool registry, a store engine, the MCP SDK, hono, pg) when it runs, so
// `--help`, `tools` and a SQLite tool call start within 2× a bare `node -e 0`
// (bench/startup-bench.ts measures it; docs/benchmarks.md gives the figures).
import { parseArgs } from 'node:util';
import { resolve as resolvePath } from 'node:path';
import { HindsightError } from '../../core/errors.js';
import { packageVersion } from '../../core/package-info.js';
import type { Format } from '../../core/model.js';
import { FORMATS } from '../../formats/registry.js';
import type { IngestSummary } from '../../ingest/ingest.js';
import type { Store } from '../../store/store.js';
import type { ExportFormat } from '../../tools/export-session/index.js';
import { painter } from './colour.js';
import { checkFlags } from './command-flags.js';
import { shellWord } from './command-line.js';
import { UsageError } from './usage-error.js';
import { plural } from './plural.js';

const USAGE = `hindsight — forensics for AI-agent sessions

Usage:
  hindsight ingest [PATH...] [--format F] [--db FILE] [--json] [--wait]
      Ingest agent logs (Claude Code config folders, Amplifier homes, Control Plane roots).
      With no PATH, ingests the default locations and says which.
  hindsight sessions [--limit N] [--offset N] [--format F] [--project P] [--top-level] [--db FILE]
      List sessions as a table (--top-level hides sub-agents, forks and sidechains).
  hindsight session ID [--db FILE]
      Show one session's stored details (ledgers, children, findings).
  hindsight show ID [--raw] [--json]
      What the session was about: status, the about paragraph, tokens, tools, errors (session_overview).
  hindsight timeline ID [--kind K,...|all] [--limit N] [--offset N] [--full] [--raw] [--json]
      The conversation in order, sub-agents interleaved: user and assistant text, tool calls with a
      result line, thinking folded (--full unfolds it and shows tool output). Kinds: user, assistant,
      thinking, tool, hook, agent, error, llm, system; hooks hidden unless asked (reconstruct_session).
  hindsight grep PATTERN [--session ID] [--format F] [--project P] [--since YYYY-MM-DD] [-i] [--limit N] [--offset N] [--json]
      Regex search over every session's stored lines (every format): session, ledger, file:line,
      byte offset and the text around the match (grep_jsonl). --ledger L [--root PATH]: one ledger.
  hindsight ledger [--ledger L] [--type EVENT_TYPE] [--session ID] [--root PATH] [--limit N] [--offset N] [--json]
      Ledger entries with their metadata, oldest first (query_ledger_full).
  hindsight export ID [--as replay|markdown|jsonl] [--out FILE] [--no-subagents] [--raw]
      Write the session as a compact replay (default), a markdown transcript or its raw JSONL.
      (--format replay|markdown|jsonl is the old spelling of --as: still read, with a notice.)
  hindsight search QUERY... [--scope metadata|transcript|all] [--project P] [--date-range R] [--format F] [--json]
      Full-text search over sessions: words, "phrases", prefix*; ranked by relevance then recency.
  hindsight usage [daily|weekly|monthly|session|project|blocks] [--since YYYY-MM-DD] [--until YYYY-MM-DD]
      [--breakdown] [--mode calculate|display|auto] [--project P] [--format F] [--json]
      [--timezone TZ] [--order asc|desc] [--active] [--now TIME]
      Tokens and cost by day, week, month, session, project or 5-hour billing block; each LLM call
      counted once (usage_report). Days are cut in UTC unless --timezone names an IANA zone;
      --breakdown adds a row per model. blocks: ccusage's windows with gaps, burn rate and, for the
      block still open, a projection; --active shows only that one; --now TIME (ISO 8601) sets the clock.
  hindsight inspect --metrics [--session ID | --stats [--days N] [--until YYYY-MM-DD]] [--format F] [--project P] [--json]
      Recent sessions (date, format, model, steps, tool calls, status, files changed), one session turn by
      turn, or statistics over the last N days (success rate, averages, tokens, cost, models, failure modes).
  hindsight rewind ID (--to-turn N | --to-message N | --before TIMESTAMP) [--apply] [--force] [--json]
      Cut a Claude Code or Amplifier session back so the agent can resume there. A dry run unless
      --apply; backups first; refuses live sessions (written in the last 60 s) unless --force.
  hindsight mcp [--tools core|analyst|ledger|admin|files|all|NAME,...] [--output-schemas] [--db FILE] [--root PATH]
      Serve the tools to agents over MCP on stdin/stdout (claude mcp add hindsight -- npx -y hindsight-sessions mcp).
      Default: the core set (9 tools, ~16 KB listing); --tools picks sets and tools (docs/mcp.md).
  hindsight mcp --http [--host 127.0.0.1] [--port N] [--token T] [--db FILE] [--root PATH]
      Serve MCP over Streamable HTTP at http://HOST:PORT/mcp (default port 7437; 0 = any free port).
      A token (--token or HINDSIGHT_TOKEN) is required when HOST is not loopback.
  hindsight serve [--host 127.0.0.1] [--port N] [--token T] [--db FILE] [--root PATH]
      Serve the HTTP API (POST /api/tools/<name>, GET views, /api/openapi.json) and the web viewer
      at http://HOST:PORT/ (default port 7718; 0 = any free port). A token (--token or
      HINDSIGHT_TOKEN) is required when HOST is not loopback; with one, /api needs Bearer auth.
  hindsight token create --user U --projects P1,P2 [--read-only] [--db FILE]
      A team token for serve and mcp --http: sees only those projects (as list_sessions names them);
      --read-only redacts every answer and refuses rewind. The token is the last word printed.
  hindsight token list [--json] [--db FILE] | hindsight token revoke ID [--db FILE]
      The store's tokens (ids, users, projects, flags, dates; never the tokens), or revoke one at once.
  hindsight sync push|pull [--remote URL] [--db FILE] [--json]
      Push this machine's sessions (with their evidence) to the shared PostgreSQL remote, or pull
      other machines' sessions into the local store. Idempotent and resumable (docs/sync.md).
  hindsight sync status [SESSION_ID] [--remote URL] [--db FILE] [--json]
      Per session: local and cloud sequence, synced | ahead | behind | conflict (sync_status).
      The remote: --remote, else HINDSIGHT_REMOTE, else "remote" in ~/.config/hindsight/config.json.
  hindsight tools [--json]
      List the tools (--json: names, descriptions and JSON schemas).
  hindsight parse-tools --parser ID [--tools FILE] [--deltas] [FILE|-]
      Run a model family's tool-call parser over raw model output (FILE or stdin) and print
      {"calls", "content", "reasoning", "parse_errors"}; --deltas reads a JSON array of streamed
      pieces; --tools takes [{name, parameters}] to type XML parameters (docs/parsers.md).
  hindsight tool NAME ['{"json": "args"}'] [--db FILE]
      Run one tool and print its JSON result (exit 0 ok, 1 tool error, 2 usage error).

Options:
  --db FILE|URL  the store: a SQLite file or a postgres:// URL (default $HINDSIGHT_DB, else
                 ~/.local/share/hindsight/hindsight.db)
  --format F     only sessions of this source format: ${FORMATS.join(' | ')}
                 (sessions, usage, search, grep, inspect); for ingest, read every PATH as this
                 format instead of detecting it from the layout
  --as A         export's output: replay (default) | markdown | jsonl
  --root PATH    a Control Plane root as ingested (grep, ledger), or the workspace of file tools (tool)
  --remote URL   the sync remote, a postgres:// URL (sync; default $HINDSIGHT_REMOTE, else the config file)
  --raw          do not redact secrets in the text shown
  --no-color     plain text even on a terminal (also NO_COLOR=1)
  --help, -h     this help
  --version      the version
`;

const EMPTY_TOKEN = '--token must not be empty: pass the secret clients will send, or leave --token out';

function out(text: string): void {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    tokens: true,
    options: {
      db: { type: 'string' },
      format: { type: 'string' },
      json: { type: 'boolean', default: false },
      wait: { type: 'boolean', default: false },
      limit: { type: 'string' },
      offset: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
      version: { type: 'boolean', default: false },
      root: { type: 'string' },
      'top-level': { type: 'boolean', default: false },
      ledger: { type: 'string' },
      type: { type: 'string' },
      session: { type: 'string' },
      full: { type: 'boolean', default: false },
      kind: { type: 'string' },
      raw: { type: 'boolean', default: false },
      'ignore-case': { type: 'boolean', short: 'i', default: false },
      'no-color': { type: 'boolean', default: false },
      out: { type: 'string' },
      since: { type: 'string' },
      until: { type: 'string' },
      breakdown: { type: 'boolean', default: false },
      mode: { type: 'string' },
      timezone: { type: 'string', short: 'z' },
      order: { type: 'string' },
      project: { type: 'string' },
      scope: { type: 'string' },
      'date-range': { type: 'string' },
      'to-turn': { type: 'string' },
      'to-message': { type: 'string' },
      before: { type: 'string' },
      apply: { type: 'boolean', default: false },
      force: { type: 'boolean', default: false },
      'no-subagents': { type: 'boolean', default: false },
      as: { type: 'string' },
      // usage blocks.
      active: { type: 'boolean', default: false },
      now: { type: 'string' },
      // Servers (mcp, serve).
      http: { type: 'boolean', default: false },
      tools: { type: 'string' },
      'output-schemas': { type: 'boolean', default: false },
      host: { type: 'string' },
      port: { type: 'string' },
      token: { type: 'string' },
      // sync.
      remote: { type: 'string' },
      // token create.
      user: { type: 'string' },
      projects: { type: 'string' },
      'read-only': { type: 'boolean', default: false },
      // inspect --metrics.
      metrics: { type: 'boolean', default: false },
      stats: { type: 'boolean', default: false },
      days: { type: 'string' },
      // parse-tools (--tools is shared with mcp).
      parser: { type: 'string' },
      deltas: { type: 'boolean', default: false },
    },
  });
}

function formatSummary(s: IngestSummary, db: string | undefined): string {
  const lines: string[] = [];
  if (s.defaults) {
    lines.push(s.roots.length ? 'No path given; ingested the default locations:' : 'No path given and no default location exists (set CLAUDE_CONFIG_DIR, HINDSIGHT_CP_ROOT, or pass a PATH).');
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

function intOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n)) throw new UsageError(`--${name} must be a whole number, got "${value}"`);
  return n;
}

/**
 * export's output format: --as, or --format as the old spelling (still read, with a one-line
 * notice on stderr, so scripts written before --as keep working). --format names the source
 * format on every other command, so a source format here is a usage error that says so.
 */
function exportAs(as: string | undefined, format: string | undefined, outputs: readonly ExportFormat[]): ExportFormat {
  const choices = outputs.join(', ');
  if (as !== undefined && format !== undefined) throw new UsageError('export takes its output format as --as; drop --format (its old spelling)');
  if (format !== undefined) {
    if (!(outputs as readonly string[]).includes(format)) {
      throw new UsageError(`export --format is the old spelling of --as (${choices}); got "${format}". --format means the source format on other commands.`);
    }
    process.stderr.write(`hindsight: export --format ${format} is deprecated; use --as ${format}\n`);
    return format as ExportFormat;
  }
  const chosen = as ?? 'replay';
  if (!(outputs as readonly string[]).includes(chosen)) throw new UsageError(`export --as must be one of ${choices}; got "${chosen}"`);
  return chosen as ExportFormat;
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
  const { values, positionals, tokens } = parse(argv);
  if (values.version) {
    out(packageVersion());
    return 0;
  }
  const [command, ...rest] = positionals;
  if (values.help || !command || command === 'help') {
    out(USAGE);
    return command || values.help ? 0 : 2;
  }
  checkFlags(command, tokens.flatMap((t) => (t.kind === 'option' ? [t.name] : [])));
  // --format is the source-format filter on every command; export reads an output format there
  // only as the old spelling of --as (exportAs).
  if (command !== 'export' && values.format !== undefined && !(FORMATS as readonly string[]).includes(values.format)) {
    throw new UsageError(`--format must be one of ${FORMATS.join(', ')}; got "${values.format}"`);
  }
  switch (command) {
    case 'ingest': {
      const [{ ingestPaths }, { progressBar }] = await Promise.all([import('../../ingest/ingest.js'), import('./progress.js')]);
      return withStore(values.db, async (store) => {
        const bar = process.stderr.isTTY && !values.json ? progressBar(process.stderr) : null;
        const summary = await ingestPaths(store, rest, {
          format: values.format as Format | undefined,
          wait: values.wait,
          onProgress: bar ? (p) => bar.update(p) : undefined,
        });
        bar?.done();
        if (values.json) out(JSON.stringify({ status: 'ok', db: store.location, ...summary }, null, 2));
        else out(`${formatSummary(summary, values.db)}\nStore: ${store.location}`);
        return summary.roots.some((r) => r.error) ? 1 : 0;
      }, true);
    }
    case 'mcp': {
      if (values.token === '') throw new UsageError(EMPTY_TOKEN);
      // Loaded here so other commands do not pay for the MCP SDK at start-up.
      const { runMcpCommand } = await import('../mcp/command.js');
      return runMcpCommand({
        db: values.db, root: values.root, http: values.http, host: values.host, port: values.port, token: values.token,
        tools: values.tools, outputSchemas: values['output-schemas'],
      });
    }
    case 'serve': {
      if (values.token === '') throw new UsageError(EMPTY_TOKEN);
      // Loaded here so other commands do not pay for hono at start-up.
      const { serveCommand } = await import('../http/serve-command.js');
      return serveCommand({ db: values.db, host: values.host, port: values.port, token: values.token, root: values.root });
    }
    case 'token': {
      // Loaded here so other commands do not pay for the token module at start-up.
      const { runTokenCommand } = await import('./token-command.js');
      const [sub, ...args] = rest;
      return runTokenCommand(sub, args, { db: values.db, user: values.user, projects: values.projects, readOnly: values['read-only'], json: values.json });
    }
    case 'sync': {
      // Loaded here so other commands do not pay for sync at start-up.
      const { syncCommand } = await import('./sync-command.js');
      return syncCommand({ sub: rest[0], sessionId: rest[1], db: values.db, remote: values.remote, json: values.json });
    }
    case 'parse-tools': {
      // Loaded here so other commands do not pay for the parsers at start-up.
      const { parseToolsCommand } = await import('./parse-tools-command.js');
      return parseToolsCommand({ parser: values.parser, tools: values.tools, deltas: values.deltas, input: rest[0] }, out);
    }
    case 'tools': {
      const { listTools, toolSummaries } = await import('./tool-lookup.js');
      if (values.json) out(JSON.stringify({ tools: await listTools() }, null, 2));
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
      return withStore(values.db, async (store) => {
        const result = await runTool(tool, args, { store, workspaceRoot: values.root ?? process.cwd() });
        out(JSON.stringify(result, null, 2));
        return result.status === 'ok' ? 0 : 1;
      });
    }
    case 'sessions': {
      const limit = intOption(values.limit, 'limit') ?? 50;
      const offset = intOption(values.offset, 'offset') ?? 0;
      if (limit < 1 || limit > 500) throw new UsageError(`--limit must be between 1 and 500, got ${limit}`);
      if (offset < 0) throw new UsageError(`--offset must be 0 or more, got ${offset}`);
      const query = { format: values.format as Format | undefined, project: values.project, limit, offset };
      if (values.json) {
        // The list_sessions envelope, as MCP and HTTP give it, with the same filters as the table.
        const [{ toolByName }, { runTool }] = await Promise.all([import('./tool-lookup.js'), import('../../tools/tool.js')]);
        const tool = (await toolByName('list_sessions'))!;
        return withStore(values.db, async (store) => {
          const result = await runTool(tool, { ...query, top_level_only: values['top-level'] }, { store });
          out(JSON.stringify(result, null, 2));
          return result.status === 'ok' ? 0 : 1;
        });
      }
      const { renderSessionTable } = await import('./render.js');
      return withStore(values.db, async (store) => {
        const { total, sessions } = await store.listSessions({ ...query, topLevelOnly: values['top-level'] });
        // Say what is counted: agents (list_sessions) see top-level sessions by default.
        const topLevel = values['top-level'] ? total : (await store.listSessions({ ...query, topLevelOnly: true, limit: 1, offset: 0 })).total;
        const { sessionCosts } = await import('../../analysis/session-cost.js');
        const costs = sessions.length ? (await sessionCosts(store)).byId : undefined;
        out(renderSessionTable(sessions, { total, topLevel }, painter(process.stdout, process.env, values['no-color']), costs));
        return 0;
      });
    }
    case 'session': {
      const [id] = rest;
      if (!id) throw new UsageError('session needs an ID (see hindsight sessions)');
      const { renderSessionDetail } = await import('./render.js');
      const { resolveSession } = await import('../../tools/session-ref.js');
      return withStore(values.db, async (store) => {
        // A full id or a unique prefix, as every other command takes.
        const session = await resolveSession(store, id);
        const ledgers = await store.sessionLedgers(session.id);
        const children = await store.listSessions({ parentId: session.id, limit: 50, offset: 0 });
        const { defects } = await store.listDefects({ sessionId: session.id, limit: 20, offset: 0 });
        out(renderSessionDetail(session, ledgers, children.sessions, defects));
        return 0;
      });
    }
    case 'export': {
      const [id] = rest;
      if (!id) throw new UsageError('export needs a session ID (see hindsight sessions)');
      const [{ EXPORT_FORMATS, exportSession }, { writeLines }] = await Promise.all([
        import('../../tools/export-session/index.js'),
        import('./write-lines.js'),
      ]);
      const as = exportAs(values.as, values.format, EXPORT_FORMATS);
      const { resolveSession } = await import('../../tools/session-ref.js');
      return withStore(values.db, async (store) => {
        const lines = exportSession(store, (await resolveSession(store, id)).id, {
          format: as,
          includeSubagents: !values['no-subagents'],
          redact: !values.raw,
        });
        const written = await writeLines(lines, values.out);
        // Written to a file: say where and how much, so the command is not silent.
        if (values.out) out(`Wrote ${resolvePath(values.out)} (${written.bytes.toLocaleString('en-US')} bytes, ${written.lines.toLocaleString('en-US')} lines, ${as})`);
        return 0;
      });
    }
    default: {
      const { FRIENDLY, runFriendly } = await import('./friendly.js');
      const friendly = FRIENDLY[command];
      if (!friendly) throw new UsageError(`unknown command "${command}"; run hindsight --help`);
      if (friendly.needs && !rest[0]) throw new UsageError(`${command} needs ${friendly.needs}`);
      if (command === 'inspect' && !values.metrics) {
        throw new UsageError('inspect shows metrics: hindsight inspect --metrics [--session ID | --stats [--days N] [--until YYYY-MM-DD]] [--json]');
      }
      const options = {
        json: values.json,
        limit: intOption(values.limit, 'limit'),
        offset: intOption(values.offset, 'offset'),
        ledger: values.ledger,
        type: values.type,
        session: values.session,
        root: values.root,
        full: values.full,
        kind: values.kind,
        ignoreCase: values['ignore-case'],
        raw: values.raw,
        since: values.since,
        until: values.until,
        breakdown: values.breakdown,
        active: values.active,
        now: values.now,
        timezone: values.timezone,
        order: values.order,
        mode: values.mode,
        project: values.project,
        format: values.format,
        scope: values.scope,
        dateRange: values['date-range'],
        toTurn: intOption(values['to-turn'], 'to-turn'),
        toMessage: intOption(values['to-message'], 'to-message'),
        before: values.before,
        apply: values.apply,
        force: values.force,
        metrics: values.metrics,
        stats: values.stats,
        days: intOption(values.days, 'days'),
      };
      return withStore(values.db, async (store) => {
        const res = await runFriendly(command, rest, { ...options, argv }, store, painter(process.stdout, process.env, values['no-color']));
        if (res.stdout) out(res.stdout);
        if (res.stderr) process.stderr.write(`${res.stderr}\n`);
        return res.code;
      });
    }
  }
}

/** Entry point used by bin/hindsight; returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  try {
    return await run(argv);
  } catch (err) {
    if (err instanceof UsageError || (err as NodeJS.ErrnoException).code?.startsWith?.('ERR_PARSE_ARGS')) {
      process.stderr.write(`hindsight: ${(err as Error).message}\n`);
      return 2;
    }
    if (err instanceof HindsightError) {
      const { inCliTerms } = await import('./cli-terms.js');
      process.stderr.write(`hindsight: ${inCliTerms(err.message)}\n`);
      return 1;
    }
    throw err;
  }
}
