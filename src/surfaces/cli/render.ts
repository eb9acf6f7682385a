// Plain-text views for people: the session table and one session's details.

import { redactText } from '../../core/redact.js';
import type { DefectRow, LedgerInfo, SessionRow } from '../../store/store.js';
import { statusStyle, type Paint } from './colour.js';
import { cut, table, type Column } from './table.js';

function tokens(s: SessionRow): string {
  const t = s.tokensTotal;
  const sum = t.input + t.output + t.cacheWrite + t.cacheRead;
  return sum >= 1e6 ? `${(sum / 1e6).toFixed(1)}M` : sum >= 1e3 ? `${(sum / 1e3).toFixed(1)}k` : String(sum);
}

export function renderSessionTable(sessions: SessionRow[], total: number, paint: Paint): string {
  if (sessions.length === 0) return 'No sessions. Ingest some logs first: hindsight ingest PATH';
  const rows = sessions.map((s) => [
    s.id.length > 38 ? `${s.id.slice(0, 37)}…` : s.id,
    s.format,
    s.kind,
    s.status,
    (s.startedAt ?? '').slice(0, 16).replace('T', ' '),
    String(s.turnCount),
    tokens(s),
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
    { head: 'FIRST MESSAGE' },
  ];
  return [table(columns, rows, paint), `${sessions.length} of ${total} sessions`].join('\n');
}

export function renderSessionDetail(s: SessionRow, ledgers: LedgerInfo[], children: SessionRow[], defects: DefectRow[]): string {
  const t = s.tokensTotal;
  const o = s.tokensOwn;
  const lines = [
    `Session ${s.id}`,
    `  format ${s.format}, kind ${s.kind}${s.parentId ? `, parent ${s.parentId}` : ''}`,
    `  project ${s.project ?? '-'}${s.projectPath && s.projectPath !== s.project ? ` (${s.projectPath})` : ''}`,
    `  status ${s.status}; ${s.startedAt ?? '?'} → ${s.endedAt ?? '…'}`,
    `  ${s.turnCount} turns, ${s.eventCount} events, ${s.toolCalls} tool calls (${s.toolErrors} failed), ${s.errors} errors, ${s.warnings} warnings, ${s.compactions} compactions`,
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
