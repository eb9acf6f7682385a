// grep_jsonl: regex search over a ledger's stored evidence (so it answers after the source is
// deleted or rewritten), across every rotated segment (the original searched only the active
// file), each match with its own file and line number and the exact line. No redaction: this is
// an exact-evidence tool (decisions.md). The matching runs on a worker thread under a deadline
// (search-pool.ts), on RE2 when the pattern allows (safe-regex.ts planUserSearch).
//
// Two scopes: one ledger (the seed's contract: a Control Plane ledger, or one ledger of a session),
// or every session of every format (scope "all", every-session.ts), where each hit also names its
// session and ledger. Every hit says where the match is in the line and carries a bounded excerpt
// around it (excerpt.ts): a JSONL line is often tens of KB, and its head rarely holds the match.
// Over every session a file that cannot be read (damaged evidence, a source that fails to read)
// is skipped and named in files_skipped (unreadable-files.ts); one ledger fails with the error.

import { isUtf8 } from 'node:buffer';
import { closeSync, readSync } from 'node:fs';
import { z } from 'zod';
import { FORMATS } from '../../formats/registry.js';
import { MAX_PATTERN_LENGTH, planUserSearch, type SearchPlan } from '../../core/safe-regex.js';
import type { EvidenceBlockView, Store } from '../../store/store.js';
import { fitMaxBytes, limitArg, maxBytesArg, offsetArg, page, pageShape } from '../envelope.js';
import { hasPlaneRoot, ledgerAddressArgs, resolveLedger, type LedgerAddressArgs, type LedgerFile, type LedgerSelection } from '../ledger-address.js';
import { resolveSession } from '../session-ref.js';
import { defineTool } from '../tool.js';
import { examples } from './examples.js';
import { cli } from './cli.js';
import { HindsightError, InvalidArguments, SessionNotFound, SourceUnreadable } from '../../core/errors.js';
import { everySessionFiles, type GrepFile } from './every-session.js';
import { matchFinder, placeMatch } from './excerpt.js';
import { SearchSession, type SearchEnd } from './search-pool.js';
import { scanLedgerFiles, type EvidenceBlock, type LiveRange, type ReadFrom } from './source.js';
import { recycleBlockBuffer } from './block-buffers.js';
import { requiredBytes } from './block-search.js';
import { enoughToFit } from './page-fit.js';
import type { RangeFound } from './file-range.js';
import { lineHash } from '../../core/line-hash.js';
import { skippedFileShape, UnreadableFiles, type SkippedFile } from './unreadable-files.js';

const SESSION_PAGE = 10_000;

const input = z
  .object({
    ledger: z
      .string()
      .min(1)
      .optional()
      .describe(
        "Control Plane: governance, ho2m or ho1m (default governance; with a session_id, ho2m). With a session_id of another format: one of its own ledgers (get_session lists them; default its main one).",
      ),
    pattern: z
      .string()
      .max(MAX_PATTERN_LENGTH, `pattern must be at most ${MAX_PATTERN_LENGTH} characters`)
      .describe('Regular expression (JavaScript syntax) tested against each raw line. Backreferences and lookaround are refused (they can take exponential time).'),
    ignore_case: z.boolean().default(false).describe('Match letters in either case.'),
    read_from: z
      .enum(['auto', 'evidence'])
      .default('auto')
      .describe('auto: a source file that looks unchanged since ingest (size and mtime) is read directly, faster; evidence: only the stored evidence, exactly what was ingested.'),
    timeout_ms: z
      .number({ invalid_type_error: 'timeout_ms must be a whole number of milliseconds' })
      .int('timeout_ms must be a whole number of milliseconds')
      .min(1, 'timeout_ms must be from 1 to 600000')
      .max(600_000, 'timeout_ms must be from 1 to 600000')
      .default(10_000)
      .describe('Deadline for the search in milliseconds (1–600000). When it passes, the result is what was found so far, with truncated: "deadline".'),
    scope: z
      .enum(['ledger', 'all'])
      .optional()
      .describe(
        'Default: all, unless ledger, root or session_id is given or a plane root is ingested.',
      ),
    format: z.enum(FORMATS).optional(),
    project: z.string().min(1).optional().describe('scope all: in project name/path, any case.'),
    // Checked in the handler, not as a schema pattern: the default MCP listing has a 20 KB budget.
    since: z
      .string()
      .optional()
      .describe('scope all: active on or after this UTC day.'),
    limit: limitArg(20, 500),
    offset: offsetArg,
    ...ledgerAddressArgs,
    max_bytes: maxBytesArg(50_000),
  })
  .strict();

const hitShape = z.object({
  line_number: z.number().int(),
  file: z.string(),
  session_id: z.string().nullable().optional().describe('scope all: the session the line belongs to (null: a Control Plane entry of no session).'),
  ledger: z.string().optional().describe('scope all: the ledger of the file.'),
  match_offset: z.number().int().optional().describe('Byte offset of the first match from the start of the line.'),
  match_length: z.number().int().optional().describe('Length of the first match in bytes.'),
  excerpt: z.string().optional().describe('The line around the first match (120 characters each side at most; … marks a cut).'),
  excerpt_match: z.tuple([z.number().int(), z.number().int()]).optional().describe('Start and end (exclusive) of the match inside excerpt.'),
  raw: z.string(),
  raw_base64: z.string().optional(),
  incomplete: z.boolean().optional(),
  read_from: z.enum(['evidence', 'live']),
});
type Hit = z.infer<typeof hitShape>;
/** A hit with what the live check needs (dropped from the result). */
type FoundHit = Hit & { fileId: number; bytes: Buffer };

/** The lines a Control Plane session owns, per file, sorted: its entries in the shared ledger. */
async function sessionLines(store: Store, sel: LedgerSelection, sessionId: string): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>(sel.fileIds.map((id) => [id, []])); // a file without its entries is skipped
  for (let offset = 0; ; offset += SESSION_PAGE) {
    const { total, entries } = await store.ledgerEntries({ fileIds: sel.fileIds, sessionId, offset, limit: SESSION_PAGE });
    for (const e of entries) {
      const list = out.get(e.fileId) ?? [];
      list.push(e.lineNumber);
      out.set(e.fileId, list);
    }
    if (offset + SESSION_PAGE >= total || entries.length === 0) return out;
  }
}

/** Indexes (into the block's lines) of the wanted line numbers that fall in the block. */
function* wantedIn(block: Pick<EvidenceBlockView, 'lines'>, wanted: number[]): Generator<number> {
  const first = block.lines[0]!.lineNumber;
  const last = block.lines[block.lines.length - 1]!.lineNumber;
  for (let i = lowerBound(wanted, first); i < wanted.length && wanted[i]! <= last; i++) {
    const k = wanted[i]! - first; // a block holds consecutive lines
    if (block.lines[k]?.lineNumber === wanted[i]) yield k;
  }
}

interface Found {
  count: number;
  hits: FoundHit[];
  end: SearchEnd;
  /** How each file reached was read. */
  readFrom: Map<string, ReadFrom>;
  /** Files left out because they could not be read (scope all), in reading order. */
  skipped: SkippedFile[];
}

/** One pass over the ledger: blocks and live ranges go to the search workers, answers come back in order. */
async function grep(
  store: Store,
  files: LedgerFile[],
  plan: SearchPlan,
  window: { offset: number; limit: number; deadlineAt: number },
  only: Map<number, number[]> | null,
  evidenceOnly: ReadonlySet<number>,
  skipUnreadable: boolean,
): Promise<Found> {
  const session = await SearchSession.open(plan, window.deadlineAt);
  const unreadable = new UnreadableFiles(skipUnreadable);
  /** The search goes on without the file, or ends with `err`. */
  const failed = (file: Pick<LedgerFile, 'fileId' | 'file'>) => (err: Error) => {
    if (!unreadable.skip(file, err)) session.abort(err);
  };
  let count = 0;
  const hits: FoundHit[] = [];
  const readFrom = new Map<string, ReadFrom>();
  /** Live files' descriptors not yet closed (a file's last range answered closes it; the rest close at the end). */
  const open = new Set<number>();
  const keep = (row: FoundHit, status?: string) => {
    const bytes = row.bytes;
    if (!isUtf8(bytes)) row.raw_base64 = bytes.toString('base64');
    if (status === 'incomplete') row.incomplete = true;
    hits.push(row);
  };
  // `data`: the block's bytes as the worker handed them back.
  const collect = (block: EvidenceBlock) => (matched: number[], data: Uint8Array) => {
    // A block of a file skipped since it was handed over (an earlier block failed): left out, as the rest of the file.
    if (unreadable.has(block.fileId)) matched = [];
    for (const k of matched) {
      if (count++ < window.offset || hits.length >= window.limit) continue;
      if (hits.length + 1 >= window.limit) session.pageFull(); // later blocks cannot add a line to the page
      const l = block.lines[k]!;
      const bytes = Buffer.from(data.subarray(l.start, l.start + l.length)); // a copy: the block is released
      keep({ line_number: l.lineNumber, file: block.file, raw: bytes.toString('utf8'), read_from: 'evidence', fileId: block.fileId, bytes }, l.status);
    }
    // The hits hold copies. Buffers that come back from a worker are not counted by V8 as this
    // thread's memory, so dropping them let a big search grow to gigabytes before a collection.
    recycleBlockBuffer(data);
  };
  /** Per live file being answered: the number its next range's first line has. */
  const nextLine = new Map<LedgerFile, number>();
  /** Done with a live file's range: its last one closes the file (every earlier range has been answered: answers come in order). */
  const rangeDone = (range: LiveRange) => {
    if (!range.last) return;
    nextLine.delete(range.file);
    open.delete(range.fd);
    closeSync(range.fd);
  };
  const collectRange = (range: LiveRange, wanted: number[] | undefined) => (found: RangeFound) => {
    const { file: f, fd } = range;
    const first = nextLine.get(f) ?? 1;
    nextLine.set(f, first + found.lineCount);
    for (let j = 0; j < found.matched.length && !unreadable.has(f.fileId); j++) {
      const lineNumber = first + found.matched[j]!;
      if (wanted !== undefined && !sortedHas(wanted, lineNumber)) continue;
      if (count++ < window.offset || hits.length >= window.limit) continue;
      if (hits.length + 1 >= window.limit) session.pageFull();
      // Only the page's lines are read again, here: the worker answered where they are.
      const bytes = Buffer.allocUnsafe(found.lengths[j]!);
      try {
        readSync(fd, bytes, 0, bytes.length, found.starts[j]!);
      } catch (err) {
        count--; // the line is not in the answer
        failed(f)(SourceUnreadable(f.file, (err as Error).message));
        break;
      }
      keep({ line_number: lineNumber, file: f.file, raw: bytes.toString('utf8'), read_from: 'live', fileId: f.fileId, bytes });
    }
    rangeDone(range);
  };
  try {
    await scanLedgerFiles(
      store,
      files,
      {
        evidence(block) {
          if (session.stopped) return false;
          const n = block.lines.length;
          if (n === 0 || unreadable.has(block.fileId)) return;
          readFrom.set(block.file, 'evidence');
          let indexes: Int32Array | null = null;
          // A file in `only` is limited to its lines (none: skipped); any other file is read whole.
          const wanted = only?.get(block.fileId);
          if (wanted !== undefined) {
            indexes = Int32Array.from(wantedIn(block, wanted));
            if (indexes.length === 0) return;
          }
          const starts = new Int32Array(n);
          const lengths = new Int32Array(n);
          for (let k = 0; k < n; k++) {
            starts[k] = block.lines[k]!.start;
            lengths[k] = block.lines[k]!.length;
          }
          const lastIncomplete = block.lines[n - 1]!.status === 'incomplete';
          if ('packed' in block) session.submitPacked({ packed: block.packed, where: { file: block.file, firstLine: block.lines[0]!.lineNumber }, starts, lengths, lastIncomplete, only: indexes }, collect(block), failed(block));
          else session.submit({ data: block.data, starts, lengths, lastIncomplete, only: indexes }, collect(block));
        },
        skipped(file) {
          if (!session.stopped) readFrom.set(file.file, 'evidence'); // as its first block would have
        },
        unreadable(file, err) {
          return unreadable.skip(file, err);
        },
        live(range) {
          open.add(range.fd); // the descriptor is ours from here on
          if (session.stopped) return false;
          readFrom.set(range.file.file, 'live');
          // A file in `only` is searched whole, its answers limited to its lines (none: skipped, its
          // descriptor closed with its last range: the scan hands over every range of the file).
          const wanted = only?.get(range.file.fileId);
          if (wanted !== undefined && wanted.length === 0) {
            if (range.last) {
              open.delete(range.fd);
              closeSync(range.fd);
            }
            return;
          }
          // A range of a file skipped since is still handed over (its answer is left out): ranges
          // before it may still be reading through the descriptor, which its file's last range closes.
          session.submitRange(
            { fd: range.fd, from: range.from, to: range.to, size: range.file.size, file: range.file.file },
            collectRange(range, wanted),
            (err) => {
              failed(range.file)(err);
              rangeDone(range);
            },
          );
        },
      },
      { backlog: () => session.backlog(), evidenceOnly, holding: requiredBytes(plan) },
    );
    const end = await session.finish(); // before reading count: answers arrive until then
    return { count, hits, end, readFrom, skipped: unreadable.list(files) };
  } finally {
    for (const fd of open) closeSync(fd);
  }
}

/** The first index of the ascending list whose value is at least `n` (its length when none is). */
function lowerBound(sorted: readonly number[], n: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < n) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Whether the ascending list holds `n`. */
function sortedHas(sorted: readonly number[], n: number): boolean {
  return sorted[lowerBound(sorted, n)] === n;
}

/**
 * Hits read live whose bytes are not the stored evidence of the same line (the source changed
 * behind a same size and mtime). Where the store offers them, the lines' stored lengths and hashes
 * (SHA-256, 128 bits: what ingest already trusts to tell a resumed file's lines from changed ones)
 * are compared with the live bytes' instead of inflating every block that holds a page line: a
 * change that keeps a line's length and SHA-256/128 would go unnoticed, which takes a second
 * preimage of SHA-256 (decisions: docs/architecture.md, "grep's live check").
 */
async function liveDifferences(store: Store, hits: FoundHit[]): Promise<FoundHit[]> {
  const live = hits.filter((h) => h.read_from === 'live');
  if (live.length === 0) return [];
  const refs = live.map((h) => ({ fileId: h.fileId, lineNumber: h.line_number }));
  const key = (fileId: number, lineNumber: number) => `${fileId}:${lineNumber}`;
  if (store.evidenceLineHashes) {
    const stored = new Map((await store.evidenceLineHashes(refs)).map((r) => [key(r.fileId, r.lineNumber), r]));
    return live.filter((h) => {
      const s = stored.get(key(h.fileId, h.line_number));
      return !s || s.length !== h.bytes.length || !lineHash(h.bytes).equals(s.hash);
    });
  }
  const stored = new Map((await store.evidenceLines(refs)).map((r) => [key(r.fileId, r.lineNumber), r.raw]));
  return live.filter((h) => !stored.get(key(h.fileId, h.line_number))?.equals(h.bytes));
}

function overall(readFrom: Map<string, ReadFrom>): ReadFrom | 'mixed' {
  const kinds = new Set(readFrom.values());
  return kinds.size > 1 ? 'mixed' : kinds.has('live') ? 'live' : 'evidence';
}

export const grepJsonl = defineTool({
  name: 'grep_jsonl',
  mcpSets: ['core', 'analyst', 'ledger'],
  examples, cli,
  title: 'Grep a ledger',
  description:
    "Server-side regex search over one ledger's raw JSONL lines across its rotated segments, from the stored evidence (works after the sources are deleted or rewritten; a source unchanged since ingest is read directly — read_from says which; live_differs_from_evidence lists live lines that differ from the evidence, whose files are then read from the evidence). Returns each matching line exactly as written (raw; raw_base64 too when not valid UTF-8) with its file and line_number in that file; count is every match, next_offset the next page. Runs off the event loop under timeout_ms (default 10000): past it, what was found so far with truncated \"deadline\". Ledger: governance (default), ho2m, ho1m; with session_id, that session's (Control Plane: its own entries, default ho2m; else transcript by default). scope \"all\": every session of every format (filters: session_id or prefix, format, project, since); entries name session_id, ledger; a file that cannot be read (damaged evidence, a source read error) is skipped and named in files_skipped. Entries give match_offset, match_length (bytes), an excerpt (±120 chars) and excerpt_match. Not redacted.",
  input,
  output: z.object({
    status: z.literal('ok'),
    source: z.string().describe('The ledger searched, or "all" (scope all).'),
    scope: z.enum(['ledger', 'all']),
    root: z.string().nullable(),
    session_id: z.string().nullable(),
    pattern: z.string(),
    ignore_case: z.boolean(),
    engine: z.enum(['re2', 'js']).describe('re2: linear-time RE2 (re2js); js: V8, for patterns RE2 cannot run.'),
    ...pageShape,
    truncated: z.union([z.literal(true), z.literal('deadline')]).optional(),
    read_from: z.enum(['evidence', 'live', 'mixed']),
    live_differs_from_evidence: z.array(z.object({ file: z.string(), line_number: z.number().int() })),
    files_searched: z.array(z.string()).describe('The files read (the first 100; files_searched_count counts them all).'),
    files_searched_count: z.number().int(),
    files_skipped: z
      .array(skippedFileShape)
      .describe('scope all: files left out because their stored evidence is damaged or their source failed to read, each with its error; the rest was searched (the first 100; files_skipped_count counts them all).'),
    files_skipped_count: z.number().int(),
    sessions_searched: z.number().int().optional().describe('scope all: how many sessions the filters left.'),
    entries: z.array(hitShape),
  }),
  async handler(args, { store }) {
    const deadlineAt = Date.now() + args.timeout_ms;
    const plan = await planUserSearch(args.pattern, { ignoreCase: args.ignore_case });
    if (args.since !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(args.since)) throw InvalidArguments(`since must be a UTC day, YYYY-MM-DD; got "${args.since}".`);
    const scope = args.scope ?? (await defaultScope(store, args));
    const filtering = args.format !== undefined || args.project !== undefined || args.since !== undefined;
    if (scope === 'ledger' && filtering) throw InvalidArguments('format, project and since narrow scope "all"; pass scope: "all" (or leave ledger and root out).');
    if (scope === 'all' && (args.ledger !== undefined || args.root !== undefined)) {
      throw InvalidArguments('ledger and root name one ledger: pass scope: "ledger" with them, or leave them out to search every session.');
    }
    // A session may be named by a unique prefix of its id (AMBIGUOUS_SESSION lists the candidates).
    // One ledger: resolved in searchTarget, with the session's row and ledgers read together.
    const session = args.session_id !== undefined && scope === 'all' ? await resolveSession(store, args.session_id) : null;
    const target = await searchTarget(store, scope, scope === 'all' ? { ...args, session_id: session?.id } : args);
    const window = { offset: args.offset, limit: args.limit, deadlineAt };
    const everyFile = new Set(target.files.map((f) => f.fileId));
    const skipUnreadable = scope === 'all'; // one ledger is asked for by name: its error is the answer
    let found = await grep(store, target.files, plan, window, target.only, args.read_from === 'evidence' ? everyFile : new Set(), skipUnreadable);
    const differing = await liveDifferences(store, found.hits);
    if (differing.length > 0 && found.end === 'done') {
      // Never mix: the files whose live lines are not the evidence are searched again from the evidence.
      found = await grep(store, target.files, plan, window, target.only, new Set(differing.map((h) => h.fileId)), skipUnreadable);
    }
    const find = await matchFinder(plan);
    const entries = enoughToFit(found.hits, args.max_bytes).map(({ fileId, bytes, ...hit }) => {
      const where = target.place(fileId, hit.line_number);
      return { ...hit, ...where, ...(placeMatch(find, bytes, hit.raw) ?? {}) };
    });
    const filesSearched = target.files.map((f) => f.file);
    const body = fitMaxBytes(
      {
        source: target.source,
        scope,
        root: target.root,
        session_id: target.sessionId,
        pattern: args.pattern,
        ignore_case: args.ignore_case,
        engine: plan.engine,
        ...page(found.count, args.limit, args.offset, found.hits.length),
        read_from: overall(found.readFrom),
        live_differs_from_evidence: differing.map((h) => ({ file: h.file, line_number: h.line_number })),
        files_searched: filesSearched.slice(0, MAX_FILES_LISTED),
        files_searched_count: filesSearched.length,
        files_skipped: found.skipped.slice(0, MAX_FILES_LISTED),
        files_skipped_count: found.skipped.length,
        ...(target.sessions !== null && { sessions_searched: target.sessions }),
        entries,
      },
      'entries',
      args.max_bytes,
    );
    return found.end === 'deadline' ? { ...body, truncated: 'deadline' as const } : body;
  },
});

/** Paths listed in files_searched (files_searched_count counts them all). */
const MAX_FILES_LISTED = 100;

/** Without scope: one ledger when the call names one or the store has a Control Plane root (the seed's default), else every session. */
async function defaultScope(
  store: Store,
  args: { ledger?: string | undefined; root?: string | undefined; session_id?: string | undefined; format?: unknown; project?: unknown; since?: unknown },
): Promise<'ledger' | 'all'> {
  if (args.ledger !== undefined || args.root !== undefined) return 'ledger';
  if (args.format !== undefined || args.project !== undefined || args.since !== undefined) return 'all';
  if (args.session_id !== undefined) return 'ledger';
  return (await hasPlaneRoot(store)) ? 'ledger' : 'all';
}

interface SearchTarget {
  source: string;
  root: string | null;
  sessionId: string | null;
  files: LedgerFile[];
  only: Map<number, number[]> | null;
  /** Sessions searched (scope all), else null. */
  sessions: number | null;
  /** What a hit adds about where it is (scope all: its session and ledger). */
  place(fileId: number, lineNumber: number): { session_id?: string | null; ledger?: string };
}

async function searchTarget(
  store: Store,
  scope: 'ledger' | 'all',
  args: { ledger?: string | undefined; root?: string | undefined; session_id?: string | undefined; format?: (typeof FORMATS)[number] | undefined; project?: string | undefined; since?: string | undefined },
): Promise<SearchTarget> {
  if (scope === 'ledger') {
    const sel = await ledgerOfSessionRef(store, args);
    const only = sel.entrySessionId !== null ? await sessionLines(store, sel, sel.entrySessionId) : null;
    return { source: sel.ledger, root: sel.root, sessionId: sel.session?.id ?? null, files: sel.files, only, sessions: null, place: () => ({}) };
  }
  const every = await everySessionFiles(store, args);
  const byId = new Map<number, GrepFile>(every.files.map((f) => [f.fileId, f]));
  return {
    source: 'all',
    root: null,
    sessionId: args.session_id ?? null,
    files: every.files,
    only: every.only,
    sessions: every.sessions,
    place(fileId, lineNumber) {
      const f = byId.get(fileId)!;
      const sessionId = f.sessionId ?? every.lineSessions.get(fileId)?.get(lineNumber) ?? null;
      return { session_id: sessionId, ledger: f.ledger };
    },
  };
}

/**
 * resolveLedger, with session_id an exact id or a unique prefix. An exact id (the usual call) costs
 * resolveLedger's one read of the row and its ledgers together; only when no session has that id
 * is it resolved as a prefix (resolveSession: its errors, as before) and the ledger read for it.
 */
async function ledgerOfSessionRef(store: Store, args: LedgerAddressArgs): Promise<LedgerSelection> {
  try {
    return await resolveLedger(store, args, { defaultLedger: 'main' });
  } catch (err) {
    if (args.session_id === undefined || !(err instanceof HindsightError && err.code === SessionNotFound.code)) throw err;
    const session = await resolveSession(store, args.session_id);
    return resolveLedger(store, { ...args, session_id: session.id }, { defaultLedger: 'main' });
  }
}
