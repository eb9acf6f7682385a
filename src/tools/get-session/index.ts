// get_session: one session by id or unique prefix — its metadata and source files, optionally a
// bounded page of its conversation and (by default) a summary of its events.

import { z } from 'zod';
import { maxBytesArg, page, redactArg } from '../envelope.js';
import { eventsSummary } from '../../analysis/event-counts.js';
import { errorItem, problemEvents } from '../../analysis/problem-events.js';
import { ownEvents } from '../../analysis/session-events.js';
import { profileOf } from '../../formats/registry.js';
import { resolveSession } from '../session-ref.js';
import { sourceLens } from '../../sync/source.js';
import { defineTool } from '../tool.js';
import { examples } from './examples.js';
import { cli } from './cli.js';
import { sessionMetadata } from './metadata.js';
import { MESSAGE_CHARS, transcriptPage } from './transcript.js';

const RECENT_ERRORS = 5;

const input = z
  .object({
    session_id: z.string().min(1, 'session_id must not be empty').describe('Session id, or a unique prefix of one (at least 4 characters).'),
    include_transcript: z.boolean().default(false).describe(`Add a page of the conversation (user and assistant messages; each text cut at ${MESSAGE_CHARS} characters with a visible marker).`),
    transcript_offset: z
      .number({ invalid_type_error: 'transcript_offset must be a whole number of 0 or more' })
      .int('transcript_offset must be a whole number of 0 or more')
      .min(0, 'transcript_offset must be 0 or more')
      .default(0)
      .describe('Messages to skip (use transcript.next_offset).'),
    transcript_limit: z
      .number({ invalid_type_error: 'transcript_limit must be a whole number from 1 to 200' })
      .int('transcript_limit must be a whole number from 1 to 200')
      .min(1, 'transcript_limit must be from 1 to 200')
      .max(200, 'transcript_limit must be from 1 to 200')
      .default(50)
      .describe('Messages per page (1–200).'),
    include_events_summary: z.boolean().default(false).describe('Add event counts by type and kind, first/last timestamps, duration, and the first errors (default false, as the seed says).'),
    max_bytes: maxBytesArg(50_000),
    redact: redactArg,
  })
  .strict();

const size = (v: unknown) => Buffer.byteLength(JSON.stringify({ status: 'ok', ...(v as object) }));

/** Fit max_bytes by dropping transcript messages from the end (the page fields follow). */
function fitTranscript<B extends { transcript?: { count: number; limit: number; offset: number; messages: unknown[] } | null }>(body: B, maxBytes: number): B & { truncated?: true } {
  if (size(body) <= maxBytes) return body;
  const t = body.transcript;
  const shaped = (n: number) =>
    t ? { ...body, transcript: { ...t, ...page(t.count, t.limit, t.offset, n), messages: t.messages.slice(0, n) }, truncated: true as const } : { ...body, truncated: true as const };
  if (!t) return shaped(0);
  let lo = 0;
  let hi = t.messages.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (size(shaped(mid)) <= maxBytes) lo = mid;
    else hi = mid - 1;
  }
  return shaped(lo);
}

export const getSession = defineTool({
  name: 'get_session',
  mcpSets: ['analyst'],
  examples, cli,
  title: 'Get session details',
  description:
    "One session of any format by full id or unique prefix (an ambiguous prefix is an error listing the candidates): the list_sessions fields plus project_path, path (its own main source file) and ledgers (its own source files with path, line count and size; sub-agents and forks are listed in children_ids, never merged in), source (local, cloud — pulled from another machine by hindsight sync — or both), parent_id, models, tokens own and total, counts; metadata is the session's metadata document exactly as written (Amplifier metadata.json, a Claude Code sub-agent's meta.json; null for formats without one, metadata_note says why when it could not be read) and facts what Hindsight derived from it. include_events_summary (default false) adds event counts by type and kind, first/last event, duration_ms and the first errors; include_transcript adds a page of user and assistant messages (transcript_offset / transcript_limit), each text bounded; both are null when not asked for. For payloads use get_events with fields; for the full timeline reconstruct_session.",
  input,
  output: z.object({ status: z.literal('ok'), session_id: z.string() }).passthrough(),
  async handler(args, { store }) {
    const session = await resolveSession(store, args.session_id);
    const metadata = await sessionMetadata(store, session, args.redact);
    const needEvents = args.include_events_summary || args.include_transcript;
    const events = needEvents ? await ownEvents(store, session.id) : [];
    // Where the data lives when sync is in use (the seed's `source`): read from the local sync state, no network.
    const source = (await sourceLens(store)).sourceOf(session);
    // The seed's optional parts are always present: null unless asked for.
    const body: Record<string, unknown> & { transcript?: { count: number; limit: number; offset: number; messages: unknown[] } | null } = {
      ...metadata,
      source,
      events_summary: null,
      transcript: null,
    };
    if (args.include_events_summary) {
      const problems = problemEvents(events);
      body.events_summary = {
        ...eventsSummary(events),
        first_errors: problems.filter((p) => p.level === 'error').slice(0, RECENT_ERRORS).map((p) => errorItem(p, args.redact)),
      };
    }
    if (args.include_transcript) {
      const { total, messages } = await transcriptPage(store, await profileOf(session.format), events, args.transcript_offset, args.transcript_limit, args.redact);
      body.transcript = { ...page(total, args.transcript_limit, args.transcript_offset, messages.length), messages };
    }
    return fitTranscript(body, args.max_bytes) as typeof body & { session_id: string };
  },
});
