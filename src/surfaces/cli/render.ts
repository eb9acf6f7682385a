// Plain-text views for people: the session table and one session's details.

import { redactText } from '../../core/redact.js';
import type { DefectRow, LedgerInfo, SessionRow } from '../../store/store.js';
import { statusStyle, type Paint } from './colour.js';
import { cut, table, type Column } from './table.js';
import { costLabel, type SessionCost } from '../../analysis/session-cost.js';

/** "1 turn", "2 turns". */
export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function tokens(s: SessionRow): string {
  const t = s.tokensTotal;
  const sum = t.input + t.output + t.cacheWrite + t.cacheRead;
  return sum >= 1e6 ? `${(sum / 1e6).toFixed(1)}M` : sum >= 1e3 ? `${(sum / 1e3).toFixed(1)}k` : String(sum);
}

/**
 * What the footer counts: `total` rows match the filters; `topLevel` of them are top-level
 * sessions (what list_sessions counts by default), so the table and MCP tell the same story.
 */
export interface SessionCounts {
  total: number;
  topLevel: number;
}

function countLine(shown: number, c: SessionCounts): string {
  const what = c.topLevel === c.total ? count(c.total, 'session') : `${count(c.topLevel, 'session')} (${c.total} with sub-agents, forks and sidechains)`;
  return shown === c.total ? what : `${shown} rows of ${what}`;
}

/**
 * The session table. `costs` (analysis/session-cost.ts) fills the COST column: a top-level
 * session with its sub-agents folded in, "—" without LLM calls, never $0 for an unpriced model.
 */
export function renderSessionTable(sessions: SessionRow[], counts: SessionCounts, paint: Paint, costs?: ReadonlyMap<string, SessionCost>): string {
  if (sessions.length === 0) {
    return counts.total === 0 ? 'No sessions. Ingest some logs first: hindsight ingest PATH' : `No sessions on this page: ${countLine(0, counts)}.`;
  }
  const rows = sessions.map((s) => [
    // Whole: a child's id differs from its siblings only at the end.
    s.id,
    s.format,
    s.kind,
    s.status,
    (s.startedAt ?? '').slice(0, 16).replace('T', ' '),
    String(s.turnCount),
    tokens(s),
    costLabel(costs?.get(s.id)),
    cut(redactText(s.firstUserMessage ?? s.title ?? ''), 200),
  ]);
  const columns: Column[] = [
    { head: 'SESSION' },
    { head: 'FORMAT' },
    { head: 'KIND', style: (v) => (v === 'root' ? undefined : 'dim') },
    { head: 'STATUS', style: statusStyle },
    { head: 'STARTED (UTC)', style: () => 'dim' },
    { head: 'TURNS' },
    { head: 'TOKENS' },
    { head: 'COST', style: (v) => (v === '—' || v.includes('partial') || v === 'unpriced' ? 'dim' : undefined) },
    { head: 'FIRST MESSAGE' },
  ];
  return [table(columns, rows, paint), countLine(sessions.length, counts)].join('\n');
}

export function renderSessionDetail(s: SessionRow, ledgers: LedgerInfo[], children: SessionRow[], defects: DefectRow[]): string {
  const t = s.tokensTotal;
  const o = s.tokensOwn;
  const lines = [
    `Session ${s.id}`,
    `  format ${s.format}, kind ${s.kind}${s.parentId ? `, parent ${s.parentId}` : ''}`,
    `  project ${s.project ?? '-'}${s.projectPath && s.projectPath !== s.project ? ` (${s.projectPath})` : ''}`,
    `  status ${s.status}; ${s.startedAt ?? '?'} → ${s.endedAt ?? '…'}`,
    `  ${count(s.turnCount, 'turn')}, ${count(s.eventCount, 'event')}, ${count(s.toolCalls, 'tool call')} (${s.toolErrors} failed), ${count(s.errors, 'error')}, ${count(s.warnings, 'warning')}, ${count(s.compactions, 'compaction')}`,
    `  models ${s.models.join(', ') || '-'}`,
    `  tokens (with children) input ${t.input}, output ${t.output}, cache write ${t.cacheWrite}, cache read ${t.cacheRead}`,
    `  tokens (own)           input ${o.input}, output ${o.output}, cache write ${o.cacheWrite}, cache read ${o.cacheRead}`,
    `  first message: ${cut(redactText(s.firstUserMessage ?? ''), 200) || '-'}`,
    `  last response: ${cut(redactText(s.lastResponsePreview ?? ''), 200) || '-'}`,
    `  ledgers: ${ledgers.map((l) => `${l.ledger} (${l.files.filter((f) => !f.superseded).reduce((n, f) => n + f.lines, 0)} lines)`).join(', ') || '-'}`,
  ];
  if (children.length) {
    lines.push(`  children (${children.length}):`);
    for (const c of children) lines.push(`    ${c.id}  ${c.kind}  ${c.status}  ${cut(c.agentName ?? c.title ?? c.firstUserMessage, 60)}`);
  }
  if (defects.length) {
    lines.push(`  findings (${defects.length} shown):`);
    for (const d of defects) lines.push(`    ${d.severity.padEnd(7)} ${d.kind} at ${d.file}${d.line ? `:${d.line}` : ''} — ${d.message}`);
  }
  return lines.join('\n');
}
