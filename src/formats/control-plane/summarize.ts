// Summarises one Control Plane session from its events in timeline order: status by the rule
// every tool shares (decisions.md), tokens counted once per call, work orders and quality gates.

import type { Defect, SessionStatus, TokenCounts } from '../../core/model.js';
import { llmCalls } from '../../core/llm-calls.js';
import { keyToIso } from '../../core/time.js';
import type { StoredEvent, SummaryInput, SummaryOutput } from '../importer.js';
import { LEDGERS, MAIN_LEDGER } from './layout.js';

interface WorkOrder {
  type: string | null;
  state: 'completed' | 'failed' | 'open';
}

const WO_TYPES = new Set(['WO_PLANNED', 'WO_DISPATCHED', 'WO_COMPLETED', 'WO_FAILED']);

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** SESSION_END → completed; else the last ho2m entry is DEGRADATION → errored; else active. */
export function planeStatus(events: readonly StoredEvent[]): SessionStatus {
  if (events.some((e) => e.type === 'SESSION_END')) return 'completed';
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.ledger === MAIN_LEDGER) return e.type === 'DEGRADATION' ? 'errored' : 'active';
  }
  return 'active';
}

/** Tokens of distinct usage keys (the largest record of a key wins), and the call count. */
function tokensOnce(events: readonly StoredEvent[]): { tokens: TokenCounts; calls: number } {
  const byKey = new Map<string, TokenCounts>();
  for (const e of events) {
    if (!e.usage) continue;
    const prev = byKey.get(e.usage.key);
    const size = (t: TokenCounts) => t.input + t.output + t.cacheWrite + t.cacheRead;
    if (!prev || size(e.usage) > size(prev)) byKey.set(e.usage.key, e.usage);
  }
  const tokens: TokenCounts = { input: 0, output: 0, cacheWrite: 0, cacheRead: 0 };
  for (const t of byKey.values()) {
    tokens.input += t.input;
    tokens.output += t.output;
    tokens.cacheWrite += t.cacheWrite;
    tokens.cacheRead += t.cacheRead;
  }
  return { tokens, calls: byKey.size };
}

function workOrders(events: readonly StoredEvent[]): Map<string, WorkOrder> {
  const wos = new Map<string, WorkOrder>();
  for (const e of events) {
    const id = e.ids.workOrder;
    if (!id || !WO_TYPES.has(e.type)) continue;
    const wo: WorkOrder = wos.get(id) ?? { type: null, state: 'open' };
    if (e.type === 'WO_COMPLETED') wo.state = 'completed';
    else if (e.type === 'WO_FAILED') wo.state = 'failed';
    else wo.type = str(e.attrs.wo_type) ?? wo.type;
    wos.set(id, wo);
  }
  return wos;
}

function count<T>(items: Iterable<T>, keyOf: (t: T) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const t of items) {
    const k = keyOf(t);
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}

/**
 * A turn the process never finished: work planned after the last TURN_RECORDED (consolidation
 * work orders excepted — they run after a turn is recorded). Normal for a killed process, so
 * info; it points at the turn's first work order and names the ones left open.
 */
function cutTurnDefects(sessionId: string, events: readonly StoredEvent[], wos: Map<string, WorkOrder>): Defect[] {
  let lastTurn = -1;
  events.forEach((e, i) => {
    if (e.type === 'TURN_RECORDED') lastTurn = i;
  });
  const start = events.findIndex((e, i) => i > lastTurn && e.type === 'WO_PLANNED' && e.attrs.wo_type !== 'consolidate');
  if (start === -1) return [];
  const at = events[start]!;
  const open = [...wos].filter(([, w]) => w.state === 'open').map(([id]) => id);
  return [
    {
      severity: 'info',
      kind: 'turn_not_recorded',
      file: at.file,
      line: at.lineNumber,
      message: `turn ${lastTurn === -1 ? 1 : 'after the last recorded one'} started with ${at.ids.workOrder ?? 'a work order'} but no TURN_RECORDED followed${open.length ? `; unfinished work orders: ${open.join(', ')}` : ''}`,
      sessionId,
    },
  ];
}

export function summarizePlaneSession({ facts, events }: SummaryInput): SummaryOutput {
  const starts = events.filter((e) => e.type === 'SESSION_START');
  const ends = events.filter((e) => e.type === 'SESSION_END');
  const turns = events.filter((e) => e.type === 'TURN_RECORDED');
  const firstTimed = events.find((e) => e.tsKey !== null);
  const { tokens, calls } = tokensOnce(events);

  const models: string[] = [];
  for (const e of events) {
    const m = e.usage?.model ?? str(e.attrs.model);
    if (m && !models.includes(m)) models.push(m);
  }

  const wos = workOrders(events);
  const gates = events.filter((e) => e.type === 'WO_QUALITY_GATE');
  const ledgerEvents: Record<string, number> = Object.fromEntries(LEDGERS.map((l) => [l.name, 0]));
  for (const e of events) ledgerEvents[e.ledger] = (ledgerEvents[e.ledger] ?? 0) + 1;
  const lastEnd = ends[ends.length - 1];
  const lastTurn = turns[turns.length - 1];

  const defects = cutTurnDefects(facts.id, events, wos);

  return {
    summary: {
      status: planeStatus(events),
      startedAt: keyToIso((starts[0] ?? firstTimed)?.tsKey),
      endedAt: keyToIso(lastEnd?.tsKey),
      turnCount: turns.length,
      firstUserMessage: turns.length ? (str(turns[0]!.attrs.user_message) ?? '') : null,
      lastResponsePreview: lastTurn ? str(lastTurn.attrs.response_preview) : null,
      models,
      tokens,
      llmCalls: calls,
      eventCount: events.length,
      toolCalls: events.filter((e) => e.type === 'TOOL_CALL').length,
      toolErrors: events.filter((e) => e.type === 'TOOL_CALL' && e.toolStatus === 'error').length,
      errors: events.filter((e) => e.kind === 'error').length,
      warnings: events.filter((e) => e.kind === 'warning').length,
      compactions: 0,
      attrs: {
        work_orders: {
          total: wos.size,
          by_type: count(wos.values(), (w) => w.type ?? 'unknown'),
          by_state: { completed: 0, failed: 0, open: 0, ...count(wos.values(), (w) => w.state) },
        },
        quality_gates: {
          passed: gates.filter((g) => g.attrs.gate === 'accept').length,
          rejected: gates.filter((g) => g.attrs.gate === 'reject').length,
        },
        escalations: events.filter((e) => e.type === 'ESCALATION').length,
        degradations: events.filter((e) => e.type === 'DEGRADATION').length,
        ledger_events: ledgerEvents,
        ...(lastEnd?.attrs.total_cost ? { recorded_total_cost: lastEnd.attrs.total_cost } : {}),
      },
    },
    defects,
    calls: llmCalls(events),
  };
}
