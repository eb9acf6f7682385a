// The commands for people — show, timeline, grep, ledger — each one registry tool with its
// arguments taken from flags, printed as text (or its envelope with --json). A tool error is
// printed as its sentence on stderr with exit code 1, as `hindsight tool` would return it.

import { compileUserPattern } from '../../core/safe-regex.js';
import type { Store } from '../../store/store.js';
import { findTool } from '../../tools/registry.js';
import { runTool, type ToolResult } from '../../tools/tool.js';
import type { Paint } from './colour.js';
import { renderMetrics } from './render-metrics.js';
import { renderGrep, renderLedger, renderOverview, renderRewind, renderSearch, renderTimeline, renderUsage } from './render-tools.js';

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
}

interface FriendlyCommand {
  tool: string;
  /** What the positional arguments are, for the usage error. */
  needs?: string;
  args(positionals: string[], o: FriendlyOptions): Record<string, unknown>;
  render(result: Record<string, any>, paint: Paint, positionals: string[], o: FriendlyOptions): string;
}

/** A flag combination that makes no sense; main turns it into a usage error (exit 2). */
export class FriendlyUsageError extends Error {}

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
        verbosity: o.full ? 'full' : undefined,
        max_bytes: 10_000_000,
        redact: o.raw ? false : undefined,
      }),
    render: (r, paint, [id]) => renderTimeline(r, paint, id!),
  },
  grep: {
    tool: 'grep_jsonl',
    needs: 'a PATTERN (a regular expression)',
    args: ([pattern], o) =>
      defined({
        pattern,
        ledger: o.ledger,
        session_id: o.session,
        root: o.root,
        ignore_case: o.ignoreCase || undefined,
        limit: o.limit ?? 50,
        offset: o.offset,
        max_bytes: 10_000_000,
      }),
    render: (r, paint, [pattern], o) => renderGrep(r, paint, highlighter(pattern!, o.ignoreCase)),
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
    args: ([group], o) =>
      defined({
        group_by: group,
        since: o.since,
        until: o.until,
        breakdown: o.breakdown || undefined,
        mode: o.mode,
        project: o.project,
        format: o.format,
        limit: o.limit ?? 100,
        offset: o.offset,
        max_bytes: 10_000_000,
      }),
    render: (r, paint) => renderUsage(r, paint),
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
      if (o.session !== undefined && o.stats) throw new FriendlyUsageError('inspect --metrics takes --session ID or --stats, not both');
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

function highlighter(pattern: string, ignoreCase: boolean): RegExp | null {
  try {
    return compileUserPattern(pattern, { ignoreCase });
  } catch {
    return null;
  }
}

/** Run a friendly command; returns the text to print and the exit code. */
export async function runFriendly(
  name: string,
  positionals: string[],
  o: FriendlyOptions,
  store: Store,
  paint: Paint,
): Promise<{ stdout: string; stderr: string; code: number }> {
  const command = FRIENDLY[name]!;
  const tool = findTool(command.tool)!;
  const result: ToolResult = await runTool(tool, command.args(positionals, o), { store });
  if (o.json) return { stdout: JSON.stringify(result, null, 2), stderr: '', code: result.status === 'ok' ? 0 : 1 };
  if (result.status !== 'ok') return { stdout: '', stderr: `hindsight: ${String(result.error)}`, code: 1 };
  return { stdout: command.render(result, paint, positionals, o), stderr: '', code: 0 };
}
