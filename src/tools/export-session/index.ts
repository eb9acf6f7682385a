// export_session: a session as one text document — the compact replay (seed format), a readable
// markdown transcript, or its raw JSONL lines — paged by line with a byte cap. exportSession()
// streams the same lines without a cap, for the CLI to write to a file.

import { z } from 'zod';
import { SessionNotFound } from '../../core/errors.js';
import { redactText, redactValue } from '../../core/redact.js';
import type { Store } from '../../store/store.js';
import { maxBytesArg, offsetArg, redactArg } from '../envelope.js';
import { defineTool } from '../tool.js';
import { examples } from './examples.js';
import { cli } from './cli.js';
import { jsonlLines } from './jsonl.js';
import { markdownLines } from './markdown.js';
import { replayEntries, USER_TEXT_LIMIT } from './replay.js';
import { resolveSession } from '../session-ref.js';
import { otlpDocument } from './otlp.js';

export const EXPORT_FORMATS = ['replay', 'markdown', 'jsonl', 'otlp'] as const;
/** Outputs `export --format` names as the issue spells them (no notice): --format otlp. The others are --as's old spelling. */
export const FORMAT_FLAG_OUTPUTS: readonly ExportFormat[] = ['otlp'];
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ExportOptions {
  format?: ExportFormat;
  includeSubagents?: boolean;
  redact?: boolean;
  /** otlp: prompts, replies and tool arguments on the spans (redacted unless `redact` is false). */
  includeContent?: boolean;
}

/**
 * The export's lines (no trailing newlines), streamed; throws SESSION_NOT_FOUND on the first read
 * when the session is unknown. Write each line followed by '\n' to get the document.
 *
 * @example for await (const line of exportSession(store, id, { format: 'replay' })) out.write(`${line}\n`);
 */
export async function* exportSession(store: Store, sessionId: string, options: ExportOptions = {}): AsyncGenerator<string> {
  const session = await store.getSession(sessionId);
  if (!session) throw SessionNotFound(sessionId);
  const format = options.format ?? 'replay';
  const includeSubagents = options.includeSubagents ?? true;
  const redact = options.redact ?? true;
  if (format === 'otlp') {
    yield await otlpDocument(store, session, { includeSubagents, redact, includeContent: options.includeContent ?? false });
    return;
  }
  if (format === 'jsonl') {
    yield* jsonlLines(store, session, { includeSubagents, redact });
    return;
  }
  if (format === 'markdown') {
    const detailed = replayEntries(store, session, { includeSubagents, userTextLimit: Number.POSITIVE_INFINITY, detail: true });
    for await (const line of markdownLines(detailed)) yield redact ? redactText(line) : line;
    return;
  }
  const entries = replayEntries(store, session, { includeSubagents, userTextLimit: USER_TEXT_LIMIT });
  // Redact values, not the serialised line: a pattern must never cut through a JSON escape.
  for await (const entry of entries) yield JSON.stringify(redact ? redactValue(entry) : entry);
}

const input = z
  .object({
    session_id: z.string().min(1).describe('The session (see list_sessions).'),
    format: z
      .enum(EXPORT_FORMATS)
      .default('replay')
      .describe('replay: compact JSONL (header line, then one abbreviated entry per message, tool call or result; tool payloads summarised as paths, sizes and counts). markdown: a readable transcript. jsonl: the raw source lines. otlp: the session as one OpenTelemetry trace (GenAI semantic conventions), an OTLP/JSON ExportTraceServiceRequest on one line.'),
    include_subagents: z.boolean().default(true).describe("Merge the session's sub-agents and forks in (replay and markdown: in time order with ctx agent lines; jsonl: their files after the session's)."),
    include_content: z.boolean().default(false).describe('otlp: put prompts, replies and tool arguments on the spans (redacted unless redact is false).'),
    redact: redactArg,
    offset: offsetArg.describe('Line of the export to start at (use next_offset from the previous page).'),
    max_bytes: maxBytesArg(200_000),
  })
  .strict();

const output = z.object({
  status: z.literal('ok'),
  session_id: z.string(),
  format: z.enum(EXPORT_FORMATS),
  content: z.string(),
  bytes_total: z.number().int(),
  lines_total: z.number().int(),
  offset: z.number().int(),
  returned_lines: z.number().int(),
  has_more: z.boolean(),
  next_offset: z.number().int().nullable(),
  truncated: z.boolean(),
});

/** Bytes a line adds to `content` in the serialised result: its JSON-escaped text and the escaped newline. */
const escapedBytes = (line: string): number => Buffer.byteLength(JSON.stringify(line)) - 2 + 2;

export const exportSessionTool = defineTool({
  name: 'export_session',
  storeDetermined: true,
  mcpSets: ['analyst'],
  examples, cli,
  title: 'Export a session (replay, markdown, raw JSONL)',
  description:
    "Export a session as one text document in `content`: format replay (default) is the compact replay JSONL — a header line {v, session, format, cwd, branch, started, version, title} (every field present, null when the source does not say), then one short entry per event with t (time), r (role: user, assistant, system, agent, agent_result), m (message; user text over 1 KB is cut and `cut` says how many bytes), thinking: true, tool + args (path, pattern, query, URL or command, never contents), tool_result + status + size/count/exit, agent/task for sub-agent launches, and ctx lines for agent, model, cwd and branch changes; usually 95%+ smaller than the source. markdown is a readable transcript; jsonl the session's raw lines; otlp the session as an OpenTelemetry GenAI trace (OTLP/JSON, one line; message content only with include_content). Sub-agents are merged in unless include_subagents is false. The document is paged by line: bytes_total and lines_total describe the whole export; pass next_offset as offset while has_more. A page stops before max_bytes (truncated: true); a single line larger than max_bytes returns no lines, so raise max_bytes.",
  input,
  output,
  async handler(args, { store }) {
    // A full id or a unique prefix (session-ref.ts), as every session tool takes.
    const session = await resolveSession(store, args.session_id);
    const envelope = {
      session_id: session.id,
      format: args.format,
      content: '',
      bytes_total: 0,
      lines_total: 0,
      offset: args.offset,
      returned_lines: 0,
      has_more: false,
      next_offset: null as number | null,
      truncated: false,
    };
    // Worst case for the numbers not yet known (15 digits each) and `true` for the flags.
    const reserve =
      Buffer.byteLength(JSON.stringify({ status: 'ok', ...envelope, has_more: true, truncated: true })) + 4 * 15;
    let budget = args.max_bytes - reserve;
    let full = false;
    const page: string[] = [];
    let lines = 0;
    let bytes = 0;
    const lineStream = exportSession(store, session.id, { format: args.format, includeSubagents: args.include_subagents, redact: args.redact, includeContent: args.include_content });
    for await (const line of lineStream) {
      if (lines >= args.offset && !full) {
        const cost = escapedBytes(line);
        if (cost <= budget) {
          page.push(line);
          budget -= cost;
        } else full = true;
      }
      lines++;
      bytes += Buffer.byteLength(line) + 1;
    }
    const end = Math.min(args.offset, lines) + page.length;
    const hasMore = end < lines;
    return {
      ...envelope,
      content: page.length > 0 ? `${page.join('\n')}\n` : '',
      bytes_total: bytes,
      lines_total: lines,
      returned_lines: page.length,
      has_more: hasMore,
      next_offset: hasMore ? end : null,
      truncated: full,
    };
  },
});
