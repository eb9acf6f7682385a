// The tool commands whose text does not come from one call of their tool: the sessions table
// (each row with its cost, and the count of top-level sessions), a session's stored details, and
// the export streamed whole to stdout or a file. Their arguments still come from the tools' cli.ts;
// each module is loaded when its command runs.

import { resolve as resolvePath } from 'node:path';
import type { Store } from '../../store/store.js';
import type { ExportFormat } from '../../tools/export-session/index.js';
import { runTool } from '../../tools/tool.js';
import type { Paint } from './colour.js';
import type { CommandOutput, PreparedCommand } from './tool-views.js';
import { UsageError } from './usage-error.js';

interface StoreView {
  /** Checks that need no store, run before it is opened. */
  prepare?(command: PreparedCommand): Promise<void>;
  run(command: PreparedCommand, store: Store, paint: Paint): Promise<CommandOutput>;
}

const printed = (stdout: string): CommandOutput => ({ stdout, stderr: '', code: 0 });

/**
 * export's output format: --as, or --format as the old spelling (still read, with a one-line
 * notice on stderr, so scripts written before --as keep working). --format names the source
 * format on every other command, so a source format here is a usage error that says so.
 */
function exportAs(as: unknown, format: unknown, outputs: readonly string[], formatOutputs: readonly string[]): string {
  const choices = outputs.join(', ');
  if (as !== undefined && format !== undefined) throw new UsageError('export takes its output format as --as; drop --format (its old spelling)');
  if (typeof format === 'string') {
    if (!outputs.includes(format)) {
      throw new UsageError(`export --format is the old spelling of --as (${choices}); got "${format}". --format means the source format on other commands.`);
    }
    if (!formatOutputs.includes(format)) process.stderr.write(`hindsight: export --format ${format} is deprecated; use --as ${format}\n`);
    return format;
  }
  const chosen = typeof as === 'string' ? as : 'replay';
  if (!outputs.includes(chosen)) throw new UsageError(`export --as must be one of ${choices}; got "${chosen}"`);
  return chosen;
}

export const STORE_VIEWS: Readonly<Record<string, StoreView>> = {
  sessions: {
    async run({ tool, args, given }, store, paint) {
      if (given.json) {
        // The list_sessions envelope, as MCP and HTTP give it, with the same filters as the table.
        const result = await runTool(tool, args, { store });
        return { stdout: JSON.stringify(result, null, 2), stderr: '', code: result.status === 'ok' ? 0 : 1 };
      }
      const [{ renderSessionTable }, { sessionCosts }] = await Promise.all([import('./render.js'), import('../../analysis/session-cost.js')]);
      const query = { format: args.format as string | undefined, project: args.project as string | undefined, limit: args.limit as number, offset: args.offset as number };
      const topLevelOnly = args.top_level_only === true;
      const { total, sessions } = await store.listSessions({ ...query, topLevelOnly });
      // Say what is counted: agents (list_sessions) see top-level sessions by default.
      const topLevel = topLevelOnly ? total : (await store.listSessions({ ...query, topLevelOnly: true, limit: 1, offset: 0 })).total;
      const costs = sessions.length ? (await sessionCosts(store)).byId : undefined;
      return printed(renderSessionTable(sessions, { total, topLevel }, paint, costs));
    },
  },
  session: {
    async run({ args }, store) {
      const [{ renderSessionDetail }, { resolveSession }] = await Promise.all([import('./render.js'), import('../../tools/session-ref.js')]);
      // A full id or a unique prefix, as every other command takes.
      const session = await resolveSession(store, args.session_id as string);
      const ledgers = await store.sessionLedgers(session.id);
      const children = await store.listSessions({ parentId: session.id, limit: 50, offset: 0 });
      const { defects } = await store.listDefects({ sessionId: session.id, limit: 20, offset: 0 });
      return printed(renderSessionDetail(session, ledgers, children.sessions, defects));
    },
  },
  export: {
    async prepare(command) {
      // Loaded already: it is the command's tool.
      const { EXPORT_FORMATS, FORMAT_FLAG_OUTPUTS } = await import('../../tools/export-session/index.js');
      command.args.format = exportAs(command.given.as, command.given.format, EXPORT_FORMATS, FORMAT_FLAG_OUTPUTS);
    },
    async run({ args, given }, store) {
      const [{ exportSession }, { writeLines }, { resolveSession }] = await Promise.all([
        import('../../tools/export-session/index.js'),
        import('./write-lines.js'),
        import('../../tools/session-ref.js'),
      ]);
      const as = args.format as ExportFormat;
      const lines = exportSession(store, (await resolveSession(store, args.session_id as string)).id, {
        format: as,
        includeSubagents: args.include_subagents !== false,
        redact: args.redact !== false,
        includeContent: args.include_content === true,
      });
      const out = typeof given.out === 'string' ? given.out : undefined;
      const written = await writeLines(lines, out);
      // Written to a file: say where and how much, so the command is not silent.
      return printed(out ? `Wrote ${resolvePath(out)} (${written.bytes.toLocaleString('en-US')} bytes, ${written.lines.toLocaleString('en-US')} lines, ${as})` : '');
    },
  },
};
