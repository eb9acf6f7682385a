// The Claude Code line parser: routes each line to its session (own, sub-agent, inline sidechain)
// and hands it to the handler of its type. State lives in parser-state.ts and resumes from a
// snapshot when lines are appended.

import { basename, dirname } from 'node:path';
import type { LineContext, LineParser, ParserOptions, SourceFile } from '../importer.js';
import { emitAssistant } from './assistant-line.js';
import { projectHead } from './huge-line.js';
import { asStr, type Json } from './json-access.js';
import { makeScope, type Layout, type LineScope } from './line-scope.js';
import { readMetaDocument } from './meta-document.js';
import {
  emitAttachment,
  emitFileSnapshot,
  emitProgress,
  emitQueueOperation,
  emitSummaryLine,
  emitSystem,
  emitUnknown,
} from './other-lines.js';
import { restoreState, snapshotState, type ParserState } from './parser-state.js';
import { routeLine } from './session-routing.js';
import { sidechainSession } from './sidechains.js';
import { emitUser } from './user-line.js';

export const HANDLERS: Record<string, (scope: LineScope) => void> = {
  assistant: emitAssistant,
  user: emitUser,
  system: emitSystem,
  progress: emitProgress,
  summary: emitSummaryLine,
  'queue-operation': emitQueueOperation,
  'file-history-snapshot': emitFileSnapshot,
  attachment: emitAttachment,
};

/** Types Claude Code always stamps; `summary` and `file-history-snapshot` never carry a time. */
const TIMESTAMPED = new Set(['user', 'assistant', 'system', 'progress', 'queue-operation', 'attachment']);

/** Ledger `agent-<id>` (not its `.meta` document) names a sub-agent file. */
export function agentIdOfLedger(ledger: string): string | undefined {
  return ledger.startsWith('agent-') && !ledger.endsWith('.meta') ? ledger.slice('agent-'.length) : undefined;
}

export function layoutOf(file: SourceFile): Layout {
  const agentId = agentIdOfLedger(file.ledger);
  // New-layout sub-agents sit two folders below the slug, so the layout facts are the reliable source.
  const project = file.facts?.find((f) => f.project !== undefined)?.project ?? basename(dirname(file.path));
  return agentId !== undefined ? { project, agentId } : { project };
}

/** First line with a cwd: the session's real project path (the slug is lossy) and version. */
function sendContext(scope: LineScope): void {
  const cwd = asStr(scope.obj.cwd);
  if (cwd === undefined || scope.sessionId === undefined) return;
  scope.state.contextSent = true;
  const attrs: Record<string, unknown> = {};
  const version = asStr(scope.obj.version);
  const gitBranch = asStr(scope.obj.gitBranch);
  if (version !== undefined) attrs.version = version;
  if (gitBranch !== undefined && gitBranch !== '') attrs.gitBranch = gitBranch;
  scope.ctx.facts({ id: scope.sessionId, format: 'claude-code', projectPath: cwd, attrs });
}

function checkTimestamp(scope: LineScope): void {
  const stamp = scope.obj.timestamp;
  if (!TIMESTAMPED.has(scope.type) || (typeof stamp === 'string' && stamp !== '')) return;
  // Damage, not a format habit: the event keeps its place after the line before (pipeline rule).
  scope.ctx.defect({
    severity: 'warning',
    kind: 'missing_timestamp',
    message: `${scope.type} line has no timestamp (Claude Code always writes one); it is placed after the line before it`,
    ...(scope.sessionId !== undefined && { sessionId: scope.sessionId }),
  });
}

export function handle(obj: Json, ctx: LineContext, state: ParserState, layout: Layout, file: SourceFile): LineScope {
  const route = routeLine(obj, ctx, state, layout, file);
  const sessionId =
    route.sidechain && file.sessionId !== undefined
      ? sidechainSession(obj, ctx, state, layout.project, file.sessionId)
      : route.sessionId;
  const scope = makeScope(obj, ctx, state, layout, sessionId, route.own);
  if (route.own && !state.contextSent) sendContext(scope);
  return scope;
}

export function createClaudeCodeParser(file: SourceFile, options: ParserOptions): LineParser {
  const state = restoreState(options.resumeState);
  const layout = layoutOf(file);
  return {
    line(obj, ctx) {
      const scope = handle(obj, ctx, state, layout, file);
      checkTimestamp(scope);
      (HANDLERS[scope.type] ?? emitUnknown)(scope);
    },
    hugeLine(head, ctx) {
      const { obj, type, messageId } = projectHead(head);
      const scope = handle(obj, ctx, state, layout, file);
      scope.emit({
        kind: 'other',
        timestamp: null,
        summary: `${type} line of ${ctx.byteLength} bytes; too large to parse, only its head was read`,
        attrs: { huge: true, bytes: ctx.byteLength },
        ...(messageId !== undefined && { ids: { message: messageId } }),
      });
    },
    document(doc, ctx) {
      readMetaDocument(doc, ctx);
    },
    snapshot() {
      return snapshotState(state);
    },
  };
}
