// search_sessions: full-text search over every ingested session — its metadata (title, first
// message, id, agent, project) and its message text — with bounded excerpts, ranked and paged.

import { z } from 'zod';
import { parseDateRange } from '../../core/date-range.js';
import { FORMATS } from '../../core/model.js';
import { redactText } from '../../core/redact.js';
import type { MessageHit, MetadataHit, SearchFilters, Store } from '../../store/store.js';
import { fitMaxBytes, limitArg, maxBytesArg, offsetArg, page, pageShape, redactArg } from '../envelope.js';
import { defineTool } from '../tool.js';
import { cutExcerpt, messageText, termPattern } from './excerpt.js';
import { parseQuery } from './query.js';

const input = z
  .object({
    query: z
      .string({ required_error: 'query is required: the words to search for' })
      .max(1000, 'query must be at most 1000 characters')
      .refine((q) => q.trim() !== '', 'query must hold at least one word to search for (words, "a phrase", or a prefix*)')
      .describe('Words (all must match), "quoted phrases" and prefix* terms. Other punctuation and operators are taken as text.'),
    scope: z
      .enum(['metadata', 'transcript', 'all'])
      .default('all')
      .describe('metadata: session title, first user message, id, agent name, project and project path (substring, case-insensitive); transcript: user and assistant message text (whole words); all: both, metadata matches first.'),
    project: z.string().optional().describe('Only sessions of this project (slug folder name, path, or plane root).'),
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

export const searchSessions = defineTool({
  name: 'search_sessions',
  title: 'Search sessions',
  description:
    'Full-text search over every ingested session (all formats): session metadata (title, first user message, id, agent name, project, project path; case-insensitive substring) and user/assistant message text (whole words via the index, case and accents ignored). Query: words (all must match), "quoted phrases", prefix*; operators and punctuation are plain text, never syntax. Each match gives session_id, format, project, created (= started_at), match_type (metadata or transcript), match_field (the metadata field that matched; null for transcript), ledger, line_number and event_type of the message line (null for metadata), an excerpt of at most 300 characters around the first term, score (relevance, higher is better; null for metadata) and, for transcript matches, context: neighbouring messages of the same file (context_lines, default 2). Order: metadata matches first (by field, then newest), then transcript matches by relevance, then newest session, then id and line. count is the total number of matches; page with limit/offset. Read a matched line in full with raw_lines or get_events.',
  input,
  output: z.object({ status: z.literal('ok'), ...pageShape, matches: z.array(matchShape) }),
  async handler(args, { store }) {
    const range = args.date_range === undefined ? undefined : parseDateRange(args.date_range);
    const terms = parseQuery(args.query);
    const pattern = termPattern(terms);
    const filters: Omit<SearchFilters, 'limit' | 'offset'> = {
      terms,
      project: args.project,
      format: args.format,
      startedFrom: range?.from,
      startedBefore: range?.before,
    };
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
    return fitMaxBytes({ ...page(count, args.limit, args.offset, matches.length), matches }, 'matches', args.max_bytes);
  },
});
