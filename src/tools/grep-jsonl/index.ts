// grep_jsonl: regex search over a ledger's stored evidence (so it answers after the source is
// deleted or rewritten), across every rotated segment (the original searched only the active
// file), each match with its own file and line number and the exact line. No redaction: this is
// an exact-evidence tool (decisions.md).

import { isUtf8 } from 'node:buffer';
import { z } from 'zod';
import { compileUserPattern, lineRegExp, MAX_PATTERN_LENGTH } from '../../core/safe-regex.js';
import type { EvidenceBlockView, Store } from '../../store/store.js';
import { fitMaxBytes, limitArg, maxBytesArg, offsetArg, page, pageShape } from '../envelope.js';
import { ledgerAddressArgs, resolveLedger, type LedgerSelection } from '../ledger-address.js';
import { defineTool } from '../tool.js';
import { scanLedgerFiles } from './source.js';
import { requiredLiteral } from './pattern-facts.js';
import { blockMatcher, matchBlock, matchLines, type BlockMatcher } from './scan.js';

const SESSION_PAGE = 10_000;

const input = z
  .object({
    ledger: z
      .string()
      .min(1)
      .optional()
      .describe(
        "Control Plane: governance, ho2m or ho1m (default governance; with a session_id, ho2m). With a Claude Code or Amplifier session_id: transcript (default), agent-<id>, events or metadata.",
      ),
    pattern: z
      .string()
      .max(MAX_PATTERN_LENGTH, `pattern must be at most ${MAX_PATTERN_LENGTH} characters`)
      .describe('Regular expression (JavaScript syntax) tested against each raw line. Backreferences and lookaround are refused (they can take exponential time).'),
    ignore_case: z.boolean().default(false).describe('Match letters in either case.'),
    limit: limitArg(20, 500),
    offset: offsetArg,
    ...ledgerAddressArgs,
    max_bytes: maxBytesArg(50_000),
  })
  .strict();

const hitShape = z.object({
  line_number: z.number().int(),
  file: z.string(),
  raw: z.string(),
  raw_base64: z.string().optional(),
  incomplete: z.boolean().optional(),
});
type Hit = z.infer<typeof hitShape>;

/** The lines a Control Plane session owns, per file, sorted: its entries in the shared ledger. */
async function sessionLines(store: Store, sel: LedgerSelection, sessionId: string): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>();
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
function* wantedIn(block: EvidenceBlockView, wanted: number[]): Generator<number> {
  const first = block.lines[0]!.lineNumber;
  const last = block.lines[block.lines.length - 1]!.lineNumber;
  let lo = 0;
  let hi = wanted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (wanted[mid]! < first) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < wanted.length && wanted[i]! <= last; i++) {
    const k = wanted[i]! - first; // a block holds consecutive lines
    if (block.lines[k]?.lineNumber === wanted[i]) yield k;
  }
}

async function grep(store: Store, sel: LedgerSelection, m: BlockMatcher, offset: number, limit: number) {
  const only = sel.entrySessionId !== null ? await sessionLines(store, sel, sel.entrySessionId) : null;
  let count = 0;
  const hits: Hit[] = [];
  await scanLedgerFiles(store, sel.files, (block) => {
    const hit = (k: number) => {
      if (count++ < offset || hits.length >= limit) return;
      const l = block.lines[k]!;
      const bytes = block.data.subarray(l.start, l.start + l.length);
      const row: Hit = { line_number: l.lineNumber, file: block.file, raw: bytes.toString('utf8') };
      if (!isUtf8(bytes)) row.raw_base64 = bytes.toString('base64');
      if (l.status === 'incomplete') row.incomplete = true;
      hits.push(row);
    };
    if (block.lines.length === 0) return;
    if (only === null) matchBlock(block, m, hit);
    else {
      const wanted = only.get(block.fileId);
      if (wanted) matchLines(block, m, wantedIn(block, wanted), hit);
    }
  });
  return { count, hits };
}

export const grepJsonl = defineTool({
  name: 'grep_jsonl',
  title: 'Grep a ledger',
  description:
    "Server-side regex search over one ledger's raw JSONL lines across its rotated segments, from the stored evidence (works after the source files are deleted or rewritten; a source file still unchanged since ingest is read directly, which is faster and gives the same bytes). Returns each matching line exactly as written (raw; raw_base64 too when not valid UTF-8) with its file and line_number in that file; count is every match, next_offset the next page. Ledger: governance (default), ho2m or ho1m of the Control Plane root; with session_id, that session's ledgers (a Control Plane session: only its own entries; default ho2m; Claude Code / Amplifier: transcript by default). Not redacted: exact evidence.",
  input,
  output: z.object({
    status: z.literal('ok'),
    source: z.string(),
    root: z.string().nullable(),
    session_id: z.string().nullable(),
    pattern: z.string(),
    ignore_case: z.boolean(),
    ...pageShape,
    files_searched: z.array(z.string()),
    entries: z.array(hitShape),
  }),
  async handler(args, { store }) {
    const scanner = compileUserPattern(args.pattern, { ignoreCase: args.ignore_case });
    const sel = await resolveLedger(store, args, { defaultLedger: 'main' });
    const matcher = blockMatcher(scanner, lineRegExp(scanner), requiredLiteral(args.pattern), args.ignore_case);
    const { count, hits } = await grep(store, sel, matcher, args.offset, args.limit);
    return fitMaxBytes(
      {
        source: sel.ledger,
        root: sel.root,
        session_id: sel.session?.id ?? null,
        pattern: args.pattern,
        ignore_case: args.ignore_case,
        ...page(count, args.limit, args.offset, hits.length),
        files_searched: sel.files.map((f) => f.file),
        entries: hits,
      },
      'entries',
      args.max_bytes,
    );
  },
});
