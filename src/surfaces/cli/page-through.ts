// Reports are reports: the tools hand agents bounded pages (at most 500 rows, a byte cap), but a
// person running `hindsight usage session` expects every row, as ccusage prints them. The CLI asks
// the tool page after page and joins the rows into one envelope of the tool's own shape, so the
// table and --json show the whole report. --limit and --offset still pick a window, of any size.

import { MAX_BYTES_LIMIT } from '../../tools/envelope.js';
import { runTool, type AnyTool, type ToolContext, type ToolResult } from '../../tools/tool.js';
import { UsageError } from './usage-error.js';

/** The largest page a list tool serves (decisions.md: lists take `limit` up to 500). */
export const TOOL_PAGE_LIMIT = 500;

export interface Window {
  /** Rows to skip (default 0). */
  offset?: number;
  /** Rows to show (default: every row from offset on). */
  limit?: number;
}

type Envelope = Record<string, unknown> & { status: string };

/**
 * Run `tool` with `args` page by page and return one envelope holding the window's rows under
 * `rowsKey`, with count, limit, offset, returned, has_more and next_offset describing the window.
 * A tool error on any page is returned as it is. Other fields (totals, group_by…) come from the
 * first page: the tools compute them over every row, not just the page.
 *
 * @example await pageThrough(usageTool, { group_by: 'session' }, 'rows', {}, { store })
 */
export async function pageThrough(
  tool: AnyTool,
  args: Record<string, unknown>,
  rowsKey: string,
  window: Window,
  ctx: ToolContext,
): Promise<ToolResult> {
  const offset = window.offset ?? 0;
  if (!Number.isInteger(offset) || offset < 0) throw new UsageError(`--offset must be 0 or more, got ${offset}`);
  if (window.limit !== undefined && (!Number.isInteger(window.limit) || window.limit < 1)) {
    throw new UsageError(`--limit must be 1 or more, got ${window.limit}`);
  }
  // The byte cap is for agents' context; a person's report is printed whole, so the pages take the
  // largest cap unless one was asked for. (At the tools' default, a 555 KB session report took
  // three pages, each cut to size by serialising it again and again: ~5 ms of a warm report.)
  const pageArgs = args.max_bytes === undefined ? { ...args, max_bytes: MAX_BYTES_LIMIT } : args;
  const rows: unknown[] = [];
  let first: Envelope | undefined;
  let last: Envelope | undefined;
  let next = offset;
  for (;;) {
    const want = window.limit === undefined ? TOOL_PAGE_LIMIT : Math.min(TOOL_PAGE_LIMIT, window.limit - rows.length);
    const page = (await runTool(tool, { ...pageArgs, offset: next, limit: want }, ctx)) as Envelope;
    if (page.status !== 'ok') return page as ToolResult;
    first ??= page;
    last = page;
    const got = (page[rowsKey] as unknown[] | undefined) ?? [];
    rows.push(...got);
    const done = window.limit !== undefined && rows.length >= window.limit;
    // A page cut to nothing (one row larger than max_bytes) cannot advance: stop and say so.
    if (done || !page.has_more || got.length === 0 || typeof page.next_offset !== 'number') break;
    next = page.next_offset;
  }
  const count = last!.count as number;
  const end = offset + rows.length;
  const joined: Envelope = {
    ...first!,
    count,
    limit: window.limit ?? rows.length,
    offset,
    returned: rows.length,
    has_more: end < count,
    next_offset: end < count ? end : null,
    [rowsKey]: rows,
  };
  if (last!.truncated) joined.truncated = true;
  else delete joined.truncated;
  return joined as ToolResult;
}
