// What the tools need to know about Control Plane sessions (hooks of src/formats/profile.ts).
// A plane root's three ledgers hold every session, each entry naming its own; a turn is recorded
// after the fact (TURN_RECORDED carries the user's message and the response); the ledgers are
// hash-chained, so a session is never cut back.

import { asObj } from '../shared/tool-summary.js';
import type { StoredEvent } from '../../core/events.js';
import { defineProfile, type FormatEnding, type MessageRef } from '../profile.js';
import { LEDGERS, MAIN_LEDGER } from './layout.js';
import { planeContent, planeFailureText } from './payload.js';
import { planeMapper } from './replay.js';
import { planeIsText, planeTextFreeSummary } from './timeline-text.js';

const BUDGET_RE = /budget[\s_-]*exhaust/i;

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** The reason of a DEGRADATION that is the last main-ledger entry, and whether the last outcome was budget exhaustion. */
function planeEnding(events: readonly StoredEvent[]): FormatEnding {
  let lastMain: StoredEvent | undefined;
  let lastOutcome: StoredEvent | undefined;
  for (const e of events) {
    if (e.ledger === MAIN_LEDGER) lastMain = e;
    if (e.type === 'WO_FAILED' || e.type === 'WO_COMPLETED' || e.type === 'DEGRADATION' || e.type === 'TURN_RECORDED') lastOutcome = e;
  }
  let degradation: string | null = null;
  let budgetExhausted = false;
  if (lastMain?.type === 'DEGRADATION') degradation = str(lastMain.attrs.reason) ?? str(lastMain.attrs.error) ?? lastMain.summary;
  if (lastOutcome && lastOutcome.type !== 'WO_COMPLETED' && lastOutcome.type !== 'TURN_RECORDED') {
    const said = `${str(lastOutcome.attrs.error_code) ?? ''} ${str(lastOutcome.attrs.reason) ?? ''} ${str(lastOutcome.attrs.error) ?? ''}`;
    budgetExhausted = BUDGET_RE.test(said);
  }
  return { degradation, budgetExhausted };
}

/** The overview's type for an error or warning entry: the writer's own code says more than 'wo_failed'. */
function planeProblemType(e: StoredEvent): string {
  const code = str(e.attrs.error_code);
  if (e.type === 'WO_FAILED' && code) return code;
  if (e.type === 'EXCHANGE') return 'exchange_error';
  if (e.type === 'WO_QUALITY_GATE') return 'quality_gate_rejected';
  return e.type;
}

/** A TURN_RECORDED is two messages: the user's and the response. */
function planeMessages(events: readonly StoredEvent[]): MessageRef[] {
  const out: MessageRef[] = [];
  for (const e of events) {
    if ((e.kind !== 'user_message' && e.kind !== 'assistant_message') || e.type !== 'TURN_RECORDED') continue;
    out.push({ event: e, role: 'user' }, { event: e, role: 'assistant' });
  }
  return out;
}

function planeMessageText(m: MessageRef, line: Record<string, unknown>): string | null {
  const meta = asObj(line.metadata) ?? {};
  const v = m.role === 'user' ? meta.user_message : (meta.response ?? meta.response_preview);
  return typeof v === 'string' ? v : null;
}

const sv = (v: unknown): string | null => (typeof v === 'string' ? v : null);

export const planeProfile = defineProfile({
  label: 'Control Plane',
  // The OTLP export's gen_ai.agent.name and gen_ai.provider.name (docs/otel.md). A plane's exchanges name models of several providers: each call's provider comes from its model.
  agentIdentity: { agentName: 'Control Plane', providerName: null },
  userTurns: (events) => events.filter((e) => e.type === 'TURN_RECORDED'),
  turnMarker: 'closes',
  transcriptMessages: planeMessages,
  messageText: planeMessageText,
  eventContent: planeContent,
  failureText: planeFailureText,
  isTextEvent: planeIsText,
  textFreeSummary: planeTextFreeSummary,
  eventFacts: (e) => (e.ids.entry ? { entry_id: e.ids.entry } : {}),
  problemType: planeProblemType,
  ending: planeEnding,
  erroredEnding(ending, reason) {
    if (ending.budgetExhausted) return 'It ended when the budget was exhausted.';
    if (ending.degradation) return `It degraded: ${reason(ending.degradation)}.`;
    return 'It ended with an error.';
  },
  sharedLedgers: { names: LEDGERS.map((l) => l.name), defaultLedger: 'governance', mainLedger: MAIN_LEDGER },
  ledgerEntry: (value, type) => ({
    id: sv(value?.id),
    event_type: sv(value?.event_type) ?? type,
    submission_id: sv(value?.submission_id),
    decision: sv(value?.decision),
    reason: sv(value?.reason),
    timestamp: sv(value?.timestamp),
    metadata: asObj(value?.metadata) ?? (value ? {} : null),
  }),
  replay: planeMapper,
  rewind: null,
  rewindRefusal:
    'Its ledgers are append-only and hash-chained (each entry carries the hash of the one before): truncating them would break the chain that verify_ledger checks, for every session of the plane.',
});
