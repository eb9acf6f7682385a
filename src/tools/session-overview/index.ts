// session_overview: what a session was about, in one plain paragraph, then the diagnostics
// (tokens counted once per call, tools, work orders, quality gates, events per ledger,
// sub-agents) — for every format, from the store alone.

import { z } from 'zod';
import { redactText } from '../../core/redact.js';
import { keyToMillis, toTimeKey } from '../../core/time.js';
import type { StoredEvent } from '../../core/events.js';
import type { FormatProfile } from '../../formats/profile.js';
import { profileOf } from '../../formats/registry.js';
import { sessionStats } from '../../analysis/session-stats.js';
import type { LedgerInfo, SessionRow, Store } from '../../store/store.js';
import { VersionCache } from '../../analysis/version-cache.js';
import { maxBytesArg, redactArg } from '../envelope.js';
import { defineTool } from '../tool.js';
import { examples } from './examples.js';
import { cli } from './cli.js';
import { http } from './http.js';
import { about } from './about.js';
import { agentNameOf, allModels, childLinks, childTokens, spawnerAgentType, subAgentItem, tokenTotals } from './children.js';
import { failureTexts } from './failure-text.js';
import { fitLists } from './fit.js';
import { collectProblems, type Problem } from './problems.js';
import { overviewShape } from './shape.js';
import { clipWords, humanDuration } from '../../analysis/words.js';
import { resolveSession } from '../session-ref.js';
import { sessionCosts } from '../../analysis/session-cost.js';
import { sessionVersion, versionInputs } from './version.js';

const MESSAGE_CHARS = 300;
/** Defects per session read for the errors and warnings (counts beyond it would be a broken log, reported as such). */
const MAX_DEFECTS = 100_000;

const boundedInt = (name: string, min: number, max: number, fallback: number, what: string) =>
  z
    .number({ invalid_type_error: `${name} must be a whole number from ${min} to ${max}` })
    .int(`${name} must be a whole number from ${min} to ${max}`)
    .min(min, `${name} must be from ${min} to ${max}`)
    .max(max, `${name} must be from ${min} to ${max}`)
    .default(fallback)
    .describe(what);

const input = z
  .object({
    session_id: z.string().min(1, 'session_id must not be empty').describe('Session id, or a unique prefix of it (from list_sessions).'),
    redact: redactArg,
    max_bytes: maxBytesArg(50_000),
    top_user_messages: boundedInt('top_user_messages', 1, 50, 5, 'How many of the first user messages to list (1–50).'),
    errors_limit: boundedInt('errors_limit', 1, 500, 20, 'How many errors and how many warnings to list (1–500); error_count and warning_count give the totals.'),
  })
  .strict();

function durationSeconds(start: string | null, end: string | null): number | null {
  const a = toTimeKey(start);
  const b = toTimeKey(end);
  if (!a || !b) return null;
  return Math.round((keyToMillis(b) - keyToMillis(a)) / 1000);
}

function ledgerMap(ledgers: readonly LedgerInfo[]): (file: string) => string | null {
  const byFile = new Map<string, string>();
  for (const l of ledgers) for (const f of l.files) byFile.set(f.relPath, l.ledger);
  return (file) => byFile.get(file) ?? null;
}

/** The listed problems; a tool's failure says what the tool sent back (start and end) instead of the summary's head. */
async function problemItems(store: Store, profile: FormatProfile, list: readonly Problem[], limit: number, redact: boolean) {
  const shown = list.slice(0, limit);
  const toolEvents = shown.filter((p) => p.tool && p.event !== null).map((p) => p.event!);
  const texts = await failureTexts(store, profile, toolEvents, redact);
  return shown.map((p) => {
    const text = p.event ? texts.get(p.event) : undefined;
    return { ...p.item, message: text ?? (redact ? redactText(p.item.message) : p.item.message) };
  });
}

/** The session's cost as usage_report computes it (analysis/session-cost.ts); no calls → null, not $0. */
async function overviewCost(store: Store, id: string) {
  const costs = await sessionCosts(store);
  const cost = costs.byId.get(id) ?? { cost_usd: null, partial: false, unpriced_models: [], calls: 0 };
  return { ...cost, prices_as_of: costs.prices_as_of };
}

type Args = z.infer<typeof input>;

/** The overview's body: everything the arguments ask for but max_bytes (applied per call, after the cache). */
async function overview(store: Store, session: SessionRow, args: Args, read: { descendants: SessionRow[]; ledgers: LedgerInfo[] }) {
  const r = (s: string) => (args.redact ? redactText(s) : s);
  const rn = (s: string | null) => (s === null ? null : r(s));
  const id = session.id;
  const { descendants } = read;
  const ledgerOf = ledgerMap(read.ledgers);
  const [timeline, defects] = await Promise.all([
    store.sessionTimeline(id, { offset: 0, limit: Number.MAX_SAFE_INTEGER, descendants: false }),
    store.listDefects({ sessionId: id, limit: MAX_DEFECTS, offset: 0 }),
  ]);
  const events: StoredEvent[] = timeline.events;
  const profile = await profileOf(session.format);
  const stats = sessionStats(session, profile, events);
  const problems = collectProblems(profile, id, events, defects.defects, ledgerOf, stats.tools.failures);

  const links = childLinks(session);
  const nameOf = (row: SessionRow) => agentNameOf(row, row.parentId === id ? stats.taskAgents : undefined, links);
  const children = descendants.filter((d) => d.parentId === id);
  const agentName = agentNameOf(session) ?? (await spawnerAgentType(store, session));
  const firstMessage = stats.userMessages[0] ?? null;
  const seconds = durationSeconds(session.startedAt, session.endedAt);

  const text = about({
    erroredEnding: profile.erroredEnding,
    toolAliases: profile.toolAliases,
    kind: session.kind,
    agentName,
    parentId: session.parentId,
    status: session.status,
    turnCount: session.turnCount,
    firstUserMessage: rn(firstMessage),
    workOrdersByType: stats.workOrders.byType,
    toolCalls: Object.fromEntries(Object.entries(stats.tools.byTool).map(([name, t]) => [name, t.called])),
    failedTools: stats.tools.failedNames,
    errors: problems.errors,
    warnings: problems.warnings,
    ending: { ...stats.ending, degradation: rn(stats.ending.degradation), lastError: rn(stats.ending.lastError) },
    compactions: stats.compactions,
  });

  const summary = {
    session_id: id,
    format: session.format,
    kind: session.kind,
    parent_id: session.parentId,
    agent_name: agentName,
    project: rn(session.project),
    title: rn(session.title),
    started_at: session.startedAt,
    ended_at: session.endedAt,
    duration: humanDuration(seconds),
    duration_seconds: seconds,
    turn_count: session.turnCount,
    status: session.status,
    about: text,
    top_user_messages: stats.userMessages.slice(0, args.top_user_messages).map((m) => clipWords(r(m), MESSAGE_CHARS)),
    errors: await problemItems(store, profile, problems.errors, args.errors_limit, args.redact),
    error_count: problems.errors.length,
    warnings: await problemItems(store, profile, problems.warnings, args.errors_limit, args.redact),
    warning_count: problems.warnings.length,
  };

  const diagnostics = {
    tokens: { ...tokenTotals(session.tokensTotal), own: tokenTotals(session.tokensOwn), by_child: children.map((c) => childTokens(c, nameOf(c))) },
    llm_calls: descendants.reduce((sum, d) => sum + d.llmCalls, session.llmCalls),
    llm_calls_own: session.llmCalls,
    models: allModels(session, descendants),
    cost: await overviewCost(store, id),
    work_orders: { total: stats.workOrders.total, by_type: stats.workOrders.byType, by_state: stats.workOrders.byState },
    tools: {
      total_calls: stats.tools.total,
      succeeded: stats.tools.succeeded,
      failed: stats.tools.failed,
      by_tool: stats.tools.byTool,
      counted_from: stats.tools.countedFrom,
    },
    quality_gates: stats.qualityGates,
    ledger_events: stats.ledgerEvents,
    compactions: stats.compactions,
    sub_agent_count: descendants.length,
    sub_agents: descendants.map((d) => subAgentItem(d, nameOf(d), r)),
    ingest: { bad_lines: session.badLines, rewrites: session.rewrites },
  };
  return { summary, diagnostics };
}

/** Lists the max_bytes cut may shorten (never the about paragraph or the counts). */
const CUTTABLE = [
  ['summary', 'errors'],
  ['summary', 'warnings'],
  ['summary', 'top_user_messages'],
  ['diagnostics', 'sub_agents'],
  ['diagnostics', 'tokens', 'by_child'],
] as const;

/**
 * Overviews per session version (version.ts), shared by concurrent identical calls. Keyed by the
 * store object (a team token's scoped or redacted view is its own object) and by every argument
 * but max_bytes, which is applied to the cached body on each call.
 */
const overviews = new VersionCache<Awaited<ReturnType<typeof overview>>>();

/**
 * Each cached body's cuts by max_bytes: the cut serialises the body, which under load costs more
 * than the cached lookup itself. Keyed by the body object, so a new version starts empty.
 */
const fits = new WeakMap<object, Map<number, ReturnType<typeof fitLists<Awaited<ReturnType<typeof overview>>>>>>();

function fitted(body: Awaited<ReturnType<typeof overview>>, maxBytes: number) {
  let byCap = fits.get(body);
  if (!byCap) fits.set(body, (byCap = new Map()));
  let cut = byCap.get(maxBytes);
  if (!cut) byCap.set(maxBytes, (cut = fitLists(body, CUTTABLE, maxBytes)));
  return cut;
}

/** The cache's key: the session and every argument that changes the body. */
const cacheKey = (id: string, args: Args) => JSON.stringify([id, args.redact, args.top_user_messages, args.errors_limit]);

export const sessionOverview = defineTool({
  name: 'session_overview',
  storeDetermined: true,
  mcpSets: ['core', 'analyst'],
  examples, cli, http,
  title: 'Session overview',
  description:
    'Summarise one session of any format. summary.about is a plain paragraph saying what the user started with, what mostly happened (work orders, tools in words), what went wrong and how it ended; summary also has times, duration, status, the first user messages, errors (error events and every failed tool call, with what it returned) and warnings, each with file and line. diagnostics has token totals (each LLM call once; children included, with own and by_child), tool calls by tool (called/succeeded/failed), work orders by type and state, quality gates, events per ledger, compactions and sub-agents. Use it first to understand a session, then reconstruct_session for the timeline.',
  input,
  output: overviewShape,
  async handler(args, { store }) {
    // A store that hashes a session's inputs itself (on a server: one statement) gives the version
    // of an exact id before anything else is read; the session and what the client-side version
    // reads are then read only when the kept overview is not of that version.
    const stored = store.sessionDataVersion ? await store.sessionDataVersion(args.session_id) : null;
    if (stored !== null) {
      const body = await overviews.get(store, cacheKey(args.session_id, args), stored, async () => {
        const [session, read] = await Promise.all([resolveSession(store, args.session_id), versionInputs(store, args.session_id)]);
        return overview(store, session, args, read);
      });
      return fitted(body, args.max_bytes);
    }
    // A full id or a unique prefix (session-ref.ts), as every session tool takes. What the version
    // reads by id is read at the same time under the id as given (a prefix reads it again).
    const [session, early] = await Promise.all([resolveSession(store, args.session_id), versionInputs(store, args.session_id)]);
    const read = await sessionVersion(store, session, early);
    const body = await overviews.get(store, cacheKey(session.id, args), read.version, () => overview(store, session, args, read));
    return fitted(body, args.max_bytes);
  },
});
