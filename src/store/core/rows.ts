// Mapping store rows to the Store's shapes (one place, so columns are named once), for both engines.

import type { Format, SessionFacts, SessionKind, SessionStatus, TokenCounts } from '../../core/model.js';
import { keyToIso } from '../../core/time.js';
import type { FileRecord, SessionRow } from '../store.js';

export interface FileRowDb {
  id: number;
  root_id: number;
  root_path: string;
  path: string;
  rel_path: string;
  format: string;
  ledger: string;
  ledger_rank: number;
  session_id: string | null;
  kind: string;
  evidence_only: number;
  chain_group: string | null;
  generation: number;
  superseded: number;
  superseded_reason: string | null;
  size: number;
  mtime_ms: number;
  offset: number;
  next_line: number;
  last_ts_key: string | null;
  parser_state: string | null;
  lines: number;
  bad_lines: number;
  events: number;
  content_hash: string | null;
}

export function fileFromRow(r: FileRowDb): FileRecord {
  return {
    id: r.id,
    rootId: r.root_id,
    root: r.root_path,
    path: r.path,
    relPath: r.rel_path,
    format: r.format as Format,
    ledger: r.ledger,
    ledgerRank: r.ledger_rank,
    sessionId: r.session_id,
    kind: r.kind as FileRecord['kind'],
    evidenceOnly: r.evidence_only === 1,
    chainGroup: r.chain_group,
    generation: r.generation,
    superseded: r.superseded === 1,
    supersededReason: r.superseded_reason,
    size: r.size,
    mtimeMs: r.mtime_ms,
    offset: r.offset,
    nextLine: r.next_line,
    lastTsKey: r.last_ts_key,
    parserState: r.parser_state == null ? undefined : (JSON.parse(r.parser_state) as unknown),
    lines: r.lines,
    badLines: r.bad_lines,
    events: r.events,
    contentHash: r.content_hash,
  };
}

export interface SessionRowDb {
  id: string;
  format: string;
  root_path: string | null;
  project: string | null;
  project_path: string | null;
  parent_id: string | null;
  kind: string;
  title: string | null;
  agent_name: string | null;
  main_ledger: string | null;
  facts: string;
  status: string;
  started_at: string | null;
  ended_at: string | null;
  turn_count: number;
  first_user_message: string | null;
  last_response_preview: string | null;
  models: string;
  own_input: number;
  own_output: number;
  own_cache_write: number;
  own_cache_read: number;
  own_reasoning: number;
  total_input: number;
  total_output: number;
  total_cache_write: number;
  total_cache_read: number;
  total_reasoning: number;
  llm_calls: number;
  event_count: number;
  tool_calls: number;
  tool_errors: number;
  errors: number;
  warnings: number;
  compactions: number;
  attrs: string;
  child_count: number;
  bad_lines: number;
  rewrites: number;
}

/** A session's token columns as TokenCounts; reasoning only when there is some (absent means 0). */
function tokenCounts(input: number, output: number, cacheWrite: number, cacheRead: number, reasoning: number): TokenCounts {
  return reasoning ? { input, output, cacheWrite, cacheRead, reasoning } : { input, output, cacheWrite, cacheRead };
}

export function sessionFromRow(r: SessionRowDb): SessionRow {
  return {
    id: r.id,
    format: r.format as Format,
    project: r.project,
    projectPath: r.project_path,
    root: r.root_path,
    parentId: r.parent_id,
    kind: r.kind as SessionKind,
    title: r.title,
    agentName: r.agent_name,
    mainLedger: r.main_ledger,
    status: r.status as SessionStatus,
    startedAt: keyToIso(r.started_at),
    endedAt: keyToIso(r.ended_at),
    turnCount: r.turn_count,
    firstUserMessage: r.first_user_message,
    lastResponsePreview: r.last_response_preview,
    models: JSON.parse(r.models) as string[],
    tokensOwn: tokenCounts(r.own_input, r.own_output, r.own_cache_write, r.own_cache_read, r.own_reasoning),
    tokensTotal: tokenCounts(r.total_input, r.total_output, r.total_cache_write, r.total_cache_read, r.total_reasoning),
    llmCalls: r.llm_calls,
    eventCount: r.event_count,
    toolCalls: r.tool_calls,
    toolErrors: r.tool_errors,
    errors: r.errors,
    warnings: r.warnings,
    compactions: r.compactions,
    childCount: r.child_count,
    badLines: r.bad_lines,
    rewrites: r.rewrites,
    attrs: JSON.parse(r.attrs) as Record<string, unknown>,
    facts: JSON.parse(r.facts) as SessionFacts,
  };
}
