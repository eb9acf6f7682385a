// The commands for people — show, timeline, grep, ledger — each one registry tool with its
// arguments taken from flags, printed as text (or its envelope with --json). A tool error is
// printed as its sentence on stderr with exit code 1, as `hindsight tool` would return it.
// Reports (usage, inspect --metrics) show every row, however many pages the tool serves them in.

import type { Store } from '../../store/store.js';
import { runTool, type ToolResult } from '../../tools/tool.js';
import { inCliTerms } from './cli-terms.js';
import type { Paint } from './colour.js';
import { withNextPageCommand } from './command-line.js';
import { pageThrough } from './page-through.js';
import { toolByName } from './tool-lookup.js';
import { UsageError } from './usage-error.js';
import { ORDERS } from '../../usage/aggregate.js';
import { timeZoneProblem } from '../../usage/time-zone.js';
import { nowProblem } from '../../usage/blocks.js';
import { renderBlocks } from './render-blocks.js';
import { renderMetrics } from './render-metrics.js';
import { renderGrep, renderLedger, renderOverview, renderRewind, renderSearch, renderUsage } from './render-tools.js';
import { renderConversation } from './render-timeline.js';
import { DEFAULT_VIEW_KINDS, VIEW_KINDS } from '../../tools/reconstruct-session/view-kind.js';

export interface FriendlyOptions {
  json: boolean;
  limit?: number;
  offset?: number;
  ledger?: string;
  type?: string;
  session?: string;
  root?: string;
  full: boolean;
  ignoreCase: boolean;
  raw: boolean;
  since?: string;
  until?: string;
  breakdown?: boolean;
  /** usage blocks: only the block open now; `now` sets the clock (ISO 8601). */
  active?: boolean;
  now?: string;
  timezone?: string;
  order?: string;
  mode?: string;
  project?: string;
  format?: string;
  dateRange?: string;
  scope?: string;
  toTurn?: number;
  toMessage?: number;
  before?: string;
  apply?: boolean;
  force?: boolean;
  metrics?: boolean;
  stats?: boolean;
  days?: number;
  /** timeline --kind: a comma-separated list of view kinds, or `all`. */
  kind?: string;
  /** The command line as typed (after `hindsight`), for next-page hints that keep every flag. */
  argv?: readonly string[];
}

interface FriendlyCommand {
  tool: string;
  /** What the positional arguments are, for the usage error. */
  needs?: string;
  args(positionals: string[], o: FriendlyOptions): Record<string, unknown>;
  /**
   * For a report: the list the CLI pages through to show every row (page-through.ts), and how
   * many rows to show when --limit is not given (default: all). Undefined for views that show
   * one bounded page and a next-page hint.
   */
  report?(o: FriendlyOptions): { rows: string; defaultLimit?: number } | undefined;
  render(result: Record<string, any>, paint: Paint, positionals: string[], o: FriendlyOptions): string;
}


/** `--kind a,b` → the view kinds asked for; `all` → no filter; none → every kind but hooks. */
function timelineKinds(flag: string | undefined): string[] | undefined {
  if (flag === undefined) return [...DEFAULT_VIEW_KINDS];
  const asked = flag.split(',').map((k) => k.trim().toLowerCase()).filter((k) => k !== '');
  if (asked.includes('all')) return undefined;
  const unknown = asked.filter((k) => !(VIEW_KINDS as readonly string[]).includes(k));
  if (unknown.length || !asked.length) {
    throw new UsageError(`--kind takes a comma-separated list of ${VIEW_KINDS.join(', ')} (or all); got "${flag}"`);
  }
  return asked;
}

const defined = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

export const FRIENDLY: Record<string, FriendlyCommand> = {
  show: {
    tool: 'session_overview',
    needs: 'a session ID (see hindsight sessions)',
    args: ([id], o) => defined({ session_id: id, redact: o.raw ? false : undefined }),
    render: (r, paint) => renderOverview(r, paint),
  },
  timeline: {
    tool: 'reconstruct_session',
    needs: 'a session ID (see hindsight sessions)',
    args: ([id], o) =>
      defined({
        session_id: id,
        limit: o.limit ?? 50,
        offset: o.offset,
        // The conversation view shows the words, so it needs each row's content.
        verbosity: 'full',
        kinds: timelineKinds(o.kind),
        max_bytes: 10_000_000,
        redact: o.raw ? false : undefined,
      }),
    render: (r, paint, [id], o) => renderConversation(r, paint, { full: o.full, command: `hindsight timeline ${id}` }),
  },
  grep: {
    tool: 'grep_jsonl',
    needs: 'a PATTERN (a regular expression)',
    args: ([pattern], o) =>
      defined({
        pattern,
        // Every session of every format, unless --ledger or --root names one ledger.
        scope: o.ledger !== undefined || o.root !== undefined ? 'ledger' : 'all',
        ledger: o.ledger,
        session_id: o.session,
        root: o.root,
        format: o.format,
        project: o.project,
        since: o.since,
        ignore_case: o.ignoreCase || undefined,
        limit: o.limit ?? 50,
        offset: o.offset,
        max_bytes: 10_000_000,
      }),
    render: (r, paint) => renderGrep(r, paint),
  },
  search: {
    tool: 'search_sessions',
    needs: 'a QUERY (words, "a phrase", prefix*)',
    args: (words, o) =>
      defined({
        query: words.join(' '),
        scope: o.scope,
        project: o.project,
        date_range: o.dateRange,
        format: o.format,
        limit: o.limit ?? 20,
        offset: o.offset,
        max_bytes: 10_000_000,
        redact: o.raw ? false : undefined,
      }),
    render: (r, paint) => renderSearch(r, paint),
  },
  usage: {
    tool: 'usage_report',
    args: ([group], o) => {
      // Checked here so a mistyped zone or order is a usage error (exit 2), like any bad flag.
      const zoneProblem = o.timezone === undefined ? null : timeZoneProblem(o.timezone);
      if (zoneProblem) throw new UsageError(`--timezone: ${zoneProblem}`);
      if (o.order !== undefined && !(ORDERS as readonly string[]).includes(o.order)) {
        throw new UsageError(`--order takes ${ORDERS.join(' or ')}; got "${o.order}"`);
      }
      if ((o.active || o.now !== undefined) && group !== 'blocks') {
        throw new UsageError(`${o.active ? '--active' : '--now'} applies to hindsight usage blocks only`);
      }
      const nowIssue = o.now === undefined ? null : nowProblem(o.now);
      if (nowIssue) throw new UsageError(`--now ${nowIssue}`);
      return defined({
        group_by: group,
        since: o.since,
        until: o.until,
        timezone: o.timezone,
        order: o.order,
        breakdown: o.breakdown || undefined,
        active: o.active || undefined,
        now: o.now,
        mode: o.mode,
        project: o.project,
        format: o.format,
        max_bytes: 10_000_000,
      });
    },
    report: () => ({ rows: 'rows' }),
    render: (r, paint, _p, o) => (r.group_by === 'blocks' ? renderBlocks(r, paint, { active: o.active }) : renderUsage(r, paint)),
  },
  rewind: {
    tool: 'rewind_session',
    needs: 'a session ID and one of --to-turn N, --to-message N, --before TIMESTAMP',
    args: ([id], o) =>
      defined({ session_id: id, to_turn: o.toTurn, to_message: o.toMessage, before: o.before, apply: o.apply || undefined, force: o.force || undefined }),
    render: (r, paint) => renderRewind(r, paint),
  },
  inspect: {
    tool: 'inspect_metrics',
    args: (_p, o) => {
      if (o.session !== undefined && o.stats) throw new UsageError('inspect --metrics takes --session ID or --stats, not both');
      return defined({
        view: o.session !== undefined ? 'session' : o.stats ? 'stats' : 'recent',
        session_id: o.session,
        days: o.days,
        until: o.until,
        format: o.format,
        project: o.project,
        cost_mode: o.mode,
        limit: o.limit,
        offset: o.offset,
        max_bytes: 10_000_000,
        redact: o.raw ? false : undefined,
      });
    },
    // Every turn of a session; the recent view keeps its 20 newest unless --limit says otherwise.
    report: (o) => (o.stats ? undefined : o.session !== undefined ? { rows: 'turns' } : { rows: 'sessions', defaultLimit: 20 }),
    render: (r, paint) => renderMetrics(r, paint),
  },
  ledger: {
    tool: 'query_ledger_full',
    args: (_p, o) =>
      defined({
        ledger: o.ledger,
        event_type: o.type,
        session_id: o.session,
        root: o.root,
        max_entries: o.limit ?? 20,
        offset: o.offset,
        max_bytes: 10_000_000,
        redact: o.raw ? false : undefined,
      }),
    render: (r, paint) => renderLedger(r, paint),
  },
};

/** Run a friendly command; returns the text to print and the exit code. */
export async function runFriendly(
  name: string,
  positionals: string[],
  o: FriendlyOptions,
  store: Store,
  paint: Paint,
): Promise<{ stdout: string; stderr: string; code: number }> {
  const command = FRIENDLY[name]!;
  const tool = (await toolByName(command.tool))!;
  const args = command.args(positionals, o);
  const report = command.report?.(o);
  const result: ToolResult = report
    ? await pageThrough(tool, args, report.rows, { offset: o.offset, limit: o.limit ?? report.defaultLimit }, { store })
    : await runTool(tool, args, { store });
  if (o.json) return { stdout: JSON.stringify(result, null, 2), stderr: '', code: result.status === 'ok' ? 0 : 1 };
  if (result.status !== 'ok') return { stdout: '', stderr: `hindsight: ${inCliTerms(String(result.error))}`, code: 1 };
  const text = command.render(result, paint, positionals, o);
  return { stdout: o.argv ? withNextPageCommand(text, o.argv) : text, stderr: '', code: 0 };
}
