// Every tool, defined once. Surfaces (CLI, MCP, HTTP, agent runtime) and docs loop over this.
// Their JSON Schemas are in describe-tools.ts, so listing or running a tool does not load the
// schema converter.

import { analyzeEvents } from './analyze-events/index.js';
import { exportSessionTool } from './export-session/index.js';
import { getEvents } from './get-events/index.js';
import { getSession } from './get-session/index.js';
import { grepJsonl } from './grep-jsonl/index.js';
import { inspectMetrics } from './inspect-metrics/index.js';
import { listFiles } from './list-files/index.js';
import { listSessions } from './list-sessions/index.js';
import { parseToolCallsTool } from './parse-tool-calls/index.js';
import { queryLedger } from './query-ledger/index.js';
import { queryLedgerFull } from './query-ledger-full/index.js';
import { readFile } from './read-file/index.js';
import { reconstructSession } from './reconstruct-session/index.js';
import { sessionOverview } from './session-overview/index.js';
import { rawLines } from './raw-lines/index.js';
import { rewindSession } from './rewind-session/index.js';
import { searchSessions } from './search-sessions/index.js';
import { sources } from './sources/index.js';
import { syncStatusTool } from './sync-status/index.js';
import { usageReport } from './usage-report/index.js';
import { verifyLedger } from './verify-ledger/index.js';
import type { AnyTool } from './tool.js';

export const TOOLS: readonly AnyTool[] = [
  listSessions,
  sessionOverview,
  reconstructSession,
  queryLedger,
  queryLedgerFull,
  grepJsonl,
  searchSessions,
  getSession,
  getEvents,
  analyzeEvents,
  exportSessionTool,
  usageReport,
  inspectMetrics,
  rewindSession,
  rawLines,
  sources,
  verifyLedger,
  syncStatusTool,
  listFiles,
  readFile,
  parseToolCallsTool,
];

export function findTool(name: string): AnyTool | undefined {
  return TOOLS.find((t) => t.name === name);
}
