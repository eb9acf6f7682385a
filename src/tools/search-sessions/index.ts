// search_sessions: full-text search over every ingested session — its metadata (title, first
// message, id, agent, project) and its message text — with bounded excerpts, ranked and paged.

import { z } from 'zod';
import { keptWhileUnchanged, VersionCache } from '../../analysis/version-cache.js';
import { parseDateRange } from '../../core/date-range.js';
import { FORMATS } from '../../formats/registry.js';
import { redactText } from '../../core/redact.js';
import type { MessageHit, MetadataHit, SearchFilters, SearchTerm, Store } from '../../store/store.js';
import { fitMaxBytes, limitArg, maxBytesArg, offsetArg, page, pageShape, redactArg } from '../envelope.js';
import { defineTool } from '../tool.js';
import { examples } from './examples.js';
import { cli } from './cli.js';
import { http } from './http.js';
import { cutExcerpt, messageText, termPattern } from './excerpt.js';
import { describeAlternatives, parseAlternatives } from './query.js';

const input = z
  .object({
    query: z
      .string({ required_error: 'query is required: the words to search for' })
      .max(1000, 'query must be at most 1000 characters')
      .refine((q) => q.trim() !== '', 'query must hold at least one word to search for (words, "a phrase", or a prefix*)')
      .describe('Words (all must match), "phrases", prefix*, OR.'),
    scope: z
      .enum(['metadata', 'transcript', 'all'])
      .default('all')
      .describe('metadata: session title, first user message, id, agent name, project and project path (substring, case-insensitive); transcript: user and assistant message text (whole words); all: both, metadata matches first.'),
    project: z.string().optional().describe('Only sessions whose project (slug folder name) or project path contains this text (case-sensitive).'),
    date_range: z
      .string()
      .optional()
      .describe('Only sessions started in this UTC window: today, yesterday, last_week, last_month, YYYY-MM-DD or YYYY-MM-DD:YYYY-MM-DD (inclusive).'),
    format: z.enum(FORMATS).optional().describe('Only sessions of this format.'),
    limit: limitArg(20, 500),
    offset: offsetArg,
    context_lines: z
      .number({ invalid_type_error: 'context_lines must be a whole number from 0 to 5' })
      .int('context_lines must be a whole number from 0 to 5')
      .min(0, 'context_lines must be from 0 to 5')
      .max(5, 'context_lines must be from 0 to 5')
      .default(2)
      .describe('Messages of the same session and file shown before and after each transcript match (0–5), each as its one-line summary.'),
    max_bytes: maxBytesArg(100_000),
    redact: redactArg,
  })
  .strict();

const neighbourShape = z.object({ line_number: z.number().int(), event_type: z.string(), text: z.string() });

const matchShape = z.object({
  session_id: z.string(),
  format: z.string(),
  project: z.string().nullable(),
  /** The seed's name for the session's start (= started_at). */
  created: z.string().nullable(),
  started_at: z.string().nullable(),
  match_type: z.enum(['metadata', 'transcript']),
  /** Which metadata field matched (title, first_user_message, id, agent_name, project, project_path); null for transcript matches. */
  match_field: z.string().nullable(),
  ledger: z.string().nullable(),
  line_number: z.number().int().nullable(),
  event_type: z.string().nullable(),
  excerpt: z.string(),
  score: z.number().nullable(),
  context: z.object({ before: z.array(neighbourShape), after: z.array(neighbourShape) }).nullable(),
});
type Match = z.infer<typeof matchShape>;

function metadataMatch(h: MetadataHit, pattern: RegExp | null, redact: boolean): Match {
  return {
    session_id: h.sessionId,
    format: h.format,
    project: h.project,
    created: h.startedAt,
    started_at: h.startedAt,
    match_type: 'metadata',
    match_field: h.field,
    ledger: null,
    line_number: null,
    event_type: null,
    excerpt: cutExcerpt(h.value, pattern, redact),
    score: null,
    context: null,
  };
}

async function transcriptMatches(store: Store, hits: MessageHit[], pattern: RegExp | null, redact: boolean): Promise<Match[]> {
  const lines = await store.evidenceLines(hits.map((h) => ({ fileId: h.fileId, lineNumber: h.lineNumber })));
  const raw = new Map(lines.map((l) => [`${l.fileId}:${l.lineNumber}`, l.raw]));
  const text = (t: string) => (redact ? redactText(t) : t);
  return hits.map((h) => ({
    session_id: h.sessionId,
    format: h.format,
    project: h.project,
    created: h.startedAt,
    started_at: h.startedAt,
    match_type: 'transcript' as const,
    match_field: null,
    ledger: h.ledger,
    line_number: h.lineNumber,
    event_type: h.eventType,
    excerpt: cutExcerpt(messageText(raw.get(`${h.fileId}:${h.lineNumber}`), h.summary, pattern), pattern, redact),
    score: h.score,
    context: {
      before: h.before.map((n) => ({ line_number: n.lineNumber, event_type: n.eventType, text: text(n.summary) })),
      after: h.after.map((n) => ({ line_number: n.lineNumber, event_type: n.eventType, text: text(n.summary) })),
    },
  }));
}

interface PageArgs {
  scope: 'metadata' | 'transcript' | 'all';
  limit: number;
  offset: number;
  context_lines: number;
  redact: boolean;
}

/** One group of terms (all must match): metadata matches first, then transcript matches. */
async function searchTerms(
  store: Store,
  filters: Omit<SearchFilters, 'limit' | 'offset'>,
  args: PageArgs,
  pattern: RegExp | null,
): Promise<{ count: number; matches: Match[] }> {
  let count = 0;
  const matches: Match[] = [];
  let offset = args.offset;
  if (args.scope !== 'transcript') {
    const meta = await store.searchSessionMetadata({ ...filters, limit: args.limit, offset });
    count += meta.total;
    matches.push(...meta.hits.map((h) => metadataMatch(h, pattern, args.redact)));
    offset = Math.max(0, offset - meta.total);
  }
  if (args.scope !== 'metadata') {
    const found = await store.searchMessages({ ...filters, limit: args.limit - matches.length, offset, context: args.context_lines });
    count += found.total;
    matches.push(...(await transcriptMatches(store, found.hits, pattern, args.redact)));
  }
  return { count, matches };
}

const matchKey = (m: Match) => (m.match_type === 'metadata' ? `m:${m.session_id}` : `t:${m.session_id}:${m.ledger}:${m.line_number}`);

/** The result order: metadata first, then by relevance, newest session, id and line. */
function compareMatches(a: Match, b: Match): number {
  if (a.match_type !== b.match_type) return a.match_type === 'metadata' ? -1 : 1;
  if ((a.score ?? 0) !== (b.score ?? 0)) return (b.score ?? 0) - (a.score ?? 0);
  if ((a.started_at ?? '') !== (b.started_at ?? '')) return (b.started_at ?? '') < (a.started_at ?? '') ? -1 : 1;
  if (a.session_id !== b.session_id) return a.session_id < b.session_id ? -1 : 1;
  return (a.line_number ?? 0) - (b.line_number ?? 0);
}

/**
 * `a OR b`: each alternative searched on its own (the first offset + limit of each), merged in the
 * result order, a match found by several alternatives kept once. count is exact when every
 * alternative's matches were all read, else the sum of their totals less the repeats seen.
 */
async function searchAlternatives(
  store: Store,
  groups: SearchTerm[][],
  base: Omit<SearchFilters, 'limit' | 'offset' | 'terms'>,
  args: PageArgs,
  pattern: RegExp | null,
): Promise<{ count: number; matches: Match[] }> {
  const window = { ...args, offset: 0, limit: args.offset + args.limit };
  const seen = new Map<string, Match>();
  let sum = 0;
  let read = 0;
  for (const terms of groups) {
    const found = await searchTerms(store, { ...base, terms }, window, pattern);
    sum += found.count;
    read += found.matches.length;
    for (const m of found.matches) {
      const key = matchKey(m);
      const known = seen.get(key);
      if (!known || (m.score ?? 0) > (known.score ?? 0)) seen.set(key, m);
    }
  }
  const merged = [...seen.values()].sort(compareMatches);
  return { count: sum - (read - merged.length), matches: merged.slice(args.offset, args.offset + args.limit) };
}

/**
 * Result pages per store version, shared by concurrent identical calls; keyed by every argument but
 * max_bytes (cut from the kept page on each call), with a relative date range resolved to its days.
 */
const pages = new VersionCache<{ count: number; matches: Match[] }>();

export const searchSessions = defineTool({
  name: 'search_sessions',
  mcpSets: ['core', 'analyst'],
  examples, cli, http,
  title: 'Search sessions',
  description:
    'Full-text search over every ingested session (all formats): session metadata (title, first user message, id, agent name, project, project path; case-insensitive substring) and user/assistant message text (whole words via the index, case and accents ignored). Query: words (all must match), "quoted phrases", prefix*, OR between alternatives; other operators and punctuation are plain text. understood echoes the query as read. Each match gives session_id, format, project, created (= started_at), match_type (metadata or transcript), match_field (the metadata field that matched; null for transcript), ledger, line_number and event_type of the message line (null for metadata), an excerpt of at most 300 characters around the first term, score (relevance, higher is better; null for metadata) and, for transcript matches, context: neighbouring messages of the same file (context_lines, default 2). Order: metadata matches first (by field, then newest), then transcript matches by relevance, then newest session, then id and line. count is the total number of matches; page with limit/offset. Read a matched line in full with raw_lines or get_events.',
  input,
  output: z.object({
    status: z.literal('ok'),
    /** The query as given, and as understood (terms joined by AND, alternatives by OR). */
    query: z.string(),
    understood: z.string(),
    ...pageShape,
    matches: z.array(matchShape),
  }),
  async handler(args, { store }) {
    const range = args.date_range === undefined ? undefined : parseDateRange(args.date_range);
    const groups = parseAlternatives(args.query);
    const understood = describeAlternatives(groups);
    const pattern = termPattern(groups.flat());
    const base = { project: args.project, format: args.format, startedFrom: range?.from, startedBefore: range?.before };
    const key = JSON.stringify([args.query, args.scope, base, args.limit, args.offset, args.context_lines, args.redact]);
    const { count, matches } = await keptWhileUnchanged(pages, store, key, () =>
      groups.length > 1 ? searchAlternatives(store, groups, base, args, pattern) : searchTerms(store, { ...base, terms: groups[0] ?? [] }, args, pattern),
    );
    const body = { query: args.query, understood, ...page(count, args.limit, args.offset, matches.length), matches };
    return fitMaxBytes(body, 'matches', args.max_bytes);
  },
});
