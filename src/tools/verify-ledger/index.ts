// verify_ledger: walk a Control Plane ledger's hash chain again, from the stored evidence (so it
// works after the plane root is gone), across rotated segments, and report every break.

import { z } from 'zod';
import { computeEntryHash, initialChainState, verifyLink } from '../../formats/control-plane/chain.js';
import { fitMaxBytes, limitArg, maxBytesArg, offsetArg, page, pageShape } from '../envelope.js';
import { resolvePlaneRoot } from '../ledger-address.js';
import { defineTool } from '../tool.js';
import { examples } from './examples.js';

/** The hash-chained ledgers of a plane root (the default first). */
const CHAINED_LEDGERS = ['governance', 'ho2m', 'ho1m'] as const;

const PAGE_LINES = 2000;

const input = z
  .object({
    ledger: z.enum(CHAINED_LEDGERS).default('governance').describe('Which ledger: governance, ho2m or ho1m.'),
    root: z.string().optional().describe('The plane root as it was ingested (needed when several are in the store).'),
    session_id: z.string().optional().describe("Verify the ledger of this session's plane root."),
    limit: limitArg(50, 500),
    offset: offsetArg,
    max_bytes: maxBytesArg(50_000),
  })
  .strict();

export const verifyLedger = defineTool({
  name: 'verify_ledger',
  mcpSets: ['ledger', 'admin'],
  examples,
  title: 'Verify a ledger hash chain',
  description:
    "Walk a Control Plane ledger's hash chain (entry_hash = SHA-256 of the entry as Python's json.dumps(sort_keys=True) wrote it; previous_hash = the prior entry's hash) across its rotated segments, from the stored evidence. Reports entries checked, every break with file and line, and whether the chain is intact.",
  input,
  output: z.object({
    status: z.literal('ok'),
    root: z.string(),
    ledger: z.string(),
    files: z.array(z.object({ file: z.string(), lines: z.number().int() })),
    entries_checked: z.number().int(),
    intact: z.boolean(),
    ...pageShape,
    breaks: z.array(z.object({ file: z.string(), line_number: z.number().int(), entry_id: z.string().nullable(), kind: z.string(), message: z.string() })),
  }),
  async handler(args, { store }) {
    const { root } = await resolvePlaneRoot(store, args);
    const info = (await store.rootLedgers(root)).find((l) => l.ledger === args.ledger);
    const files = (info?.files ?? []).filter((f) => !f.superseded);
    const state = initialChainState();
    const breaks: { file: string; line_number: number; entry_id: string | null; kind: string; message: string }[] = [];
    const ids = files.map((f) => f.fileId);
    for (let from = 1; ; from += PAGE_LINES) {
      const rows = await store.rawLines(ids, from, PAGE_LINES);
      for (const row of rows) {
        if (row.status !== 'ok') continue;
        const text = row.raw.toString('utf8');
        let entry: Record<string, unknown>;
        try {
          entry = JSON.parse(text) as Record<string, unknown>;
        } catch {
          continue; // oversized or unparsable lines were reported at ingest
        }
        if (!entry || typeof entry !== 'object' || typeof entry.event_type !== 'string') continue;
        const id = typeof entry.id === 'string' ? entry.id : null;
        for (const d of verifyLink(state, { id, previousHash: entry.previous_hash, entryHash: entry.entry_hash, computed: computeEntryHash(text) }, row.file, null)) {
          breaks.push({ file: row.file, line_number: row.lineNumber, entry_id: id, kind: d.kind, message: d.message });
        }
      }
      if (rows.length < PAGE_LINES) break;
    }
    const shown = breaks.slice(args.offset, args.offset + args.limit);
    return fitMaxBytes(
      {
        root,
        ledger: args.ledger,
        files: files.map((f) => ({ file: f.relPath, lines: f.lines })),
        entries_checked: state.entries,
        intact: breaks.length === 0,
        ...page(breaks.length, args.limit, args.offset, shown.length),
        breaks: shown,
      },
      'breaks',
      args.max_bytes,
    );
  },
});
