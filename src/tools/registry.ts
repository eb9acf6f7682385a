// Every tool, defined once. Surfaces (CLI, MCP, HTTP, agent runtime) and docs loop over this.

import { zodToJsonSchema } from 'zod-to-json-schema';
import { analyzeEvents } from './analyze-events/index.js';
import { exportSessionTool } from './export-session/index.js';
import { getEvents } from './get-events/index.js';
import { getSession } from './get-session/index.js';
import { grepJsonl } from './grep-jsonl/index.js';
import { inspectMetrics } from './inspect-metrics/index.js';
import { listFiles } from './list-files/index.js';
import { listSessions } from './list-sessions/index.js';
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
];

export function findTool(name: string): AnyTool | undefined {
  return TOOLS.find((t) => t.name === name);
}

/** The `hindsight tools --json` shape (decisions.md): tool_id, description, parameters, output. */
export function describeTools() {
  return {
    tools: TOOLS.map((t) => ({
      tool_id: t.name,
      title: t.title,
      description: t.description,
      parameters: zodToJsonSchema(t.input, { target: 'jsonSchema7', $refStrategy: 'none' }),
      output: zodToJsonSchema(t.output, { target: 'jsonSchema7', $refStrategy: 'none' }),
    })),
  };
}
