// Mapping SQLite rows to the Store's shapes (one place, so columns are named once).

import type { EventKind, Format, SessionFacts, SessionKind, SessionStatus } from '../../core/model.js';
import { keyToIso, partsToKey } from '../../core/time.js';
import type { StoredEvent } from '../../importers/importer.js';
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

export interface EventRowDb {
  seq: number;
  session_id: string;
  ledger: string;
  rel_path: string;
  line_number: number;
  part: number;
  ts_ms: number | null;
  ts_ns: number | null;
  type: string;
  kind: string;
  actor: string | null;
  turn: number | null;
  wo_id: string | null;
  tool_call_id: string | null;
  message_id: string | null;
  request_id: string | null;
  agent_id: string | null;
  entry_id: string | null;
  tiebreak: string | null;
  ledger_rank: number;
  usage_key: string | null;
  model: string | null;
  tok_in: number | null;
  tok_out: number | null;
  tok_cw: number | null;
  tok_cr: number | null;
  tool_name: string | null;
  tool_status: string | null;
  summary: string;
  attrs: string | null;
}

export function storedEventFromRow(r: EventRowDb): StoredEvent {
  const ids: StoredEvent['ids'] = {};
  if (r.wo_id) ids.workOrder = r.wo_id;
  if (r.tool_call_id) ids.toolCall = r.tool_call_id;
  if (r.message_id) ids.message = r.message_id;
  if (r.request_id) ids.request = r.request_id;
  if (r.agent_id) ids.agent = r.agent_id;
  if (r.entry_id) ids.entry = r.entry_id;
  return {
    seq: r.seq,
    sessionId: r.session_id,
    ledger: r.ledger,
    file: r.rel_path,
    lineNumber: r.line_number,
    part: r.part,
    tsKey: r.ts_ms === null ? null : partsToKey(r.ts_ms, r.ts_ns ?? 0),
    type: r.type,
    kind: r.kind as EventKind,
    actor: r.actor,
    turn: r.turn,
    ids,
    tiebreak: r.tiebreak ?? r.entry_id ?? '',
    ledgerRank: r.ledger_rank,
    usage:
      r.tok_in === null
        ? null
        : {
            key: r.usage_key ?? `${r.message_id}:${r.request_id}`,
            model: r.model,
            input: r.tok_in ?? 0,
            output: r.tok_out ?? 0,
            cacheWrite: r.tok_cw ?? 0,
            cacheRead: r.tok_cr ?? 0,
          },
    toolName: r.tool_name,
    toolStatus: r.tool_status as StoredEvent['toolStatus'],
    summary: r.summary,
    attrs: r.attrs ? (JSON.parse(r.attrs) as Record<string, unknown>) : {},
  };
}

/**
 * The summariser's hot path: an event from a raw row (column order of the writer's
 * sessionEvents statement), without building an intermediate object per row.
 */
export function eventFromRaw(r: unknown[], sessionId: string, files: Map<number, { ledger: string; rel_path: string }>): StoredEvent {
  const file = files.get(r[1] as number);
  const ids: StoredEvent['ids'] = {};
  if (r[10] !== null) ids.workOrder = r[10] as string;
  if (r[11] !== null) ids.toolCall = r[11] as string;
  if (r[12] !== null) ids.message = r[12] as string;
  if (r[13] !== null) ids.request = r[13] as string;
  if (r[14] !== null) ids.agent = r[14] as string;
  if (r[15] !== null) ids.entry = r[15] as string;
  return {
    seq: r[0] as number,
    sessionId,
    ledger: file?.ledger ?? '',
    file: file?.rel_path ?? '',
    lineNumber: r[2] as number,
    part: r[3] as number,
    tsKey: r[4] === null ? null : partsToKey(r[4] as number, (r[5] as number | null) ?? 0),
    type: r[6] as string,
    kind: r[7] as EventKind,
    actor: r[8] as string | null,
    turn: r[9] as number | null,
    ids,
    tiebreak: (r[16] as string | null) ?? ids.entry ?? '',
    ledgerRank: r[17] as number,
    usage:
      r[20] === null
        ? null
        : {
            key: (r[18] as string | null) ?? `${ids.message}:${ids.request}`,
            model: r[19] as string | null,
            input: (r[20] as number | null) ?? 0,
            output: (r[21] as number | null) ?? 0,
            cacheWrite: (r[22] as number | null) ?? 0,
            cacheRead: (r[23] as number | null) ?? 0,
          },
    toolName: r[24] as string | null,
    toolStatus: r[25] as StoredEvent['toolStatus'],
    summary: r[26] as string,
    attrs: r[27] ? (JSON.parse(r[27] as string) as Record<string, unknown>) : {},
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
  total_input: number;
  total_output: number;
  total_cache_write: number;
  total_cache_read: number;
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
    tokensOwn: { input: r.own_input, output: r.own_output, cacheWrite: r.own_cache_write, cacheRead: r.own_cache_read },
    tokensTotal: {
      input: r.total_input,
      output: r.total_output,
      cacheWrite: r.total_cache_write,
      cacheRead: r.total_cache_read,
    },
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
