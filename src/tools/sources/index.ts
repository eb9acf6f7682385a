// sources: what was ingested — roots, files, formats, bytes, lines — and every finding about
// the input: bad lines with file:line and reason, rewrites, hash-chain breaks, gaps.

import { z } from 'zod';
import { DEFECT_SEVERITIES } from '../../core/model.js';
import { fitMaxBytes, limitArg, maxBytesArg, offsetArg, page, pageShape } from '../envelope.js';
import { defineTool } from '../tool.js';
import { examples } from './examples.js';
import { http } from './http.js';

const input = z
  .object({
    section: z.enum(['files', 'defects']).default('defects').describe('List the ingested files, or the findings (default).'),
    severity: z.enum(DEFECT_SEVERITIES).optional().describe('defects: only this severity (error = bad lines).'),
    kind: z.string().optional().describe('defects: only this kind (malformed_json, hash_mismatch, rewritten_source, …).'),
    session_id: z.string().optional().describe('defects: only findings about this session.'),
    limit: limitArg(50, 500),
    offset: offsetArg,
    max_bytes: maxBytesArg(100_000),
  })
  .strict();

const totalsShape = z.object({
  roots: z.number().int(),
  files: z.number().int(),
  sessions: z.number().int(),
  events: z.number().int(),
  lines: z.number().int(),
  bad_lines: z.number().int(),
  bytes: z.number().int(),
  stored_evidence_bytes: z.number().int(),
  rewrites: z.number().int(),
  chain_breaks: z.number().int(),
  by_format: z.record(z.object({ files: z.number(), sessions: z.number(), bytes: z.number(), lines: z.number() })),
});

export const sources = defineTool({
  name: 'sources',
  mcpSets: ['ledger', 'admin'],
  examples, http,
  title: 'Ingested sources and findings',
  description:
    'What was ingested (roots, files, formats, bytes, lines) and every finding about the input: bad lines with file, line and reason, incomplete last lines, rewritten sources, hash-chain breaks, rotated segments, missing metadata, orphan tool calls. Errors are bad lines; warnings and info are gaps worth knowing.',
  input,
  output: z.object({
    status: z.literal('ok'),
    section: z.enum(['files', 'defects']),
    totals: totalsShape,
    ...pageShape,
    files: z.array(z.record(z.unknown())).optional(),
    defects: z.array(z.record(z.unknown())).optional(),
  }),
  async handler(args, { store }) {
    const t = await store.totals();
    const totals = {
      roots: t.roots,
      files: t.files,
      sessions: t.sessions,
      events: t.events,
      lines: t.lines,
      bad_lines: t.badLines,
      bytes: t.bytes,
      stored_evidence_bytes: t.storedEvidenceBytes,
      rewrites: t.rewrites,
      chain_breaks: t.chainBreaks,
      by_format: t.byFormat,
    };
    if (args.section === 'files') {
      const { total, files } = await store.listFiles({ limit: args.limit, offset: args.offset });
      const items = files.map((f) => ({
        root: f.root,
        file: f.file,
        format: f.format,
        ledger: f.ledger,
        session_id: f.sessionId,
        generation: f.generation,
        superseded: f.superseded,
        superseded_reason: f.supersededReason,
        bytes: f.size,
        lines: f.lines,
        bad_lines: f.badLines,
        events: f.events,
      }));
      return fitMaxBytes({ section: 'files' as const, totals, ...page(total, args.limit, args.offset, items.length), files: items }, 'files', args.max_bytes);
    }
    const { total, defects } = await store.listDefects({
      severity: args.severity,
      kind: args.kind,
      sessionId: args.session_id,
      limit: args.limit,
      offset: args.offset,
    });
    const items = defects.map((d) => ({
      root: d.root,
      file: d.file,
      line: d.line,
      severity: d.severity,
      kind: d.kind,
      message: d.message,
      session_id: d.sessionId ?? null,
    }));
    return fitMaxBytes({ section: 'defects' as const, totals, ...page(total, args.limit, args.offset, items.length), defects: items }, 'defects', args.max_bytes);
  },
});
