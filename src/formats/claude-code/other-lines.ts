// The line types that are not conversation: system notices, progress (hooks, sub-agent mirrors),
// summary, queue operations, file-history snapshots, attachments, and unknown types (kept as
// generic events, never dropped).

import { asArr, asId, asNum, asObj, asStr, clip, oneLine } from './json-access.js';
import type { LineScope } from './line-scope.js';
import { remember } from './parser-state.js';
import { readMirrorUsage, type LineUsage } from './usage.js';
import { renderCommand, stripTags } from './user-text.js';

export function emitSystem(scope: LineScope): void {
  const { obj } = scope;
  const subtype = asStr(obj.subtype) ?? '';
  const level = asStr(obj.level);
  const content = asStr(obj.content) ?? '';
  const attrs: Record<string, unknown> = { subtype };
  if (level !== undefined) attrs.level = level;
  let summary = renderCommand(content) ?? stripTags(content);
  // api_error lines are retries of a failed request (the final failure is an assistant line).
  let kind: 'system' | 'compaction' | 'error' | 'warning' =
    subtype === 'api_error' || level === 'warning' ? 'warning' : level === 'error' ? 'error' : 'system';
  if (subtype === 'compact_boundary') {
    kind = 'compaction';
    const meta = asObj(obj.compactMetadata);
    const trigger = asStr(meta?.trigger);
    const preTokens = asNum(meta?.preTokens);
    if (trigger !== undefined) attrs.trigger = trigger;
    if (preTokens !== undefined) attrs.preTokens = preTokens;
    const logicalParent = asId(obj.logicalParentUuid);
    if (logicalParent !== undefined) attrs.logicalParentUuid = logicalParent;
    summary = `conversation compacted${trigger ? ` (${trigger}` : ''}${preTokens !== undefined ? `, ${preTokens} tokens before` : ''}${trigger ? ')' : ''}`;
  } else if (subtype === 'turn_duration') {
    const ms = asNum(obj.durationMs);
    if (ms !== undefined) attrs.durationMs = ms;
    summary = ms !== undefined ? `turn took ${(ms / 1000).toFixed(1)} s` : 'turn duration';
  } else if (subtype === 'stop_hook_summary') {
    const count = asNum(obj.hookCount);
    const errors = asArr(obj.hookErrors)?.length ?? 0;
    if (count !== undefined) attrs.hookCount = count;
    if (errors > 0) attrs.hookErrors = errors;
    if (obj.preventedContinuation === true) attrs.preventedContinuation = true;
    summary = `stop hooks ran (${count ?? '?'}${errors > 0 ? `, ${errors} failed` : ''})`;
  }
  scope.emit({ kind, actor: 'system', summary: summary || subtype || 'system', attrs });
}

export function emitProgress(scope: LineScope): void {
  const { obj, state } = scope;
  const data = asObj(obj.data);
  const progress = asStr(data?.type) ?? '';
  const toolCall = asId(obj.parentToolUseID) ?? asId(obj.toolUseID);
  const attrs: Record<string, unknown> = { progress };
  let kind: 'system' | 'subagent_start' = 'system';
  let summary = progress || 'progress';
  let agent: string | undefined;
  let mirror: LineUsage | undefined;
  if (progress === 'agent_progress') {
    // Mirrors of a sub-agent's messages, usage included (see readMirrorUsage below).
    agent = asId(data?.agentId);
    // Progress lines are most of a transcript: keep their stored attrs small (the agent id is
    // in ids.agent; the child link only on the first line that announces the sub-agent).
    if (agent !== undefined && remember(state.agentsSeen, agent)) {
      kind = 'subagent_start';
      attrs.agentId = agent;
      if (scope.sessionId !== undefined) attrs.childSessionId = `${scope.sessionId}:${agent}`;
    }
    const inner = asStr(asObj(data?.message)?.type);
    summary = `sub-agent ${agent ?? '?'}${inner ? ` ${inner}` : ''}`;
    // The mirrored call's usage, under its own key (never the parent's ids): counted until a
    // child session records the same call (usage.ts, readMirrorUsage).
    mirror = readMirrorUsage(data, `${scope.ctx.file.relPath}#${scope.ctx.lineNumber}`);
    if (mirror?.cacheWrite5m !== undefined) attrs.cacheWrite5m = mirror.cacheWrite5m;
    if (mirror?.cacheWrite1h !== undefined) attrs.cacheWrite1h = mirror.cacheWrite1h;
  } else if (progress === 'hook_progress') {
    const hookName = asStr(data?.hookName);
    const hookEvent = asStr(data?.hookEvent);
    if (hookEvent !== undefined) attrs.hookEvent = hookEvent; // the hook's name is in the summary
    summary = `hook ${hookName ?? hookEvent ?? ''}`.trim();
  }
  scope.emit({
    kind,
    actor: 'system',
    summary,
    attrs,
    ids: { ...(toolCall !== undefined && { toolCall }), ...(agent !== undefined && { agent }) },
    ...(mirror !== undefined && { usage: mirror.usage }),
  });
}

/** `summary` lines carry no timestamp; they title the session. */
export function emitSummaryLine(scope: LineScope): void {
  const { obj, state, ctx } = scope;
  const text = asStr(obj.summary) ?? '';
  const leafUuid = asId(obj.leafUuid);
  if (scope.own && text !== '' && scope.sessionId !== undefined) {
    state.titleFrom = 'summary';
    ctx.facts({ id: scope.sessionId, format: 'claude-code', title: oneLine(text, 200) });
  }
  scope.emit({ kind: 'system', actor: 'system', summary: text || 'summary', attrs: leafUuid !== undefined ? { leafUuid } : {} });
}

export function emitQueueOperation(scope: LineScope): void {
  const operation = asStr(scope.obj.operation) ?? '';
  const content = asStr(scope.obj.content);
  scope.emit({
    kind: 'system',
    actor: 'user',
    summary: `queue ${operation}${content ? `: ${content}` : ''}`,
    attrs: { operation },
  });
}

/** File-history snapshots have no timestamp of their own at the top level (decisions.md). */
export function emitFileSnapshot(scope: LineScope): void {
  const snapshot = asObj(scope.obj.snapshot);
  const messageId = asId(scope.obj.messageId);
  const tracked = Object.keys(asObj(snapshot?.trackedFileBackups) ?? {}).length;
  const attrs: Record<string, unknown> = { trackedFiles: tracked };
  const at = asStr(snapshot?.timestamp);
  if (at !== undefined) attrs.snapshotTimestamp = at;
  if (scope.obj.isSnapshotUpdate === true) attrs.snapshotUpdate = true;
  scope.emit({
    kind: 'system',
    actor: 'system',
    timestamp: null,
    summary: `file-history snapshot (${tracked} files)`,
    attrs,
    ...(messageId !== undefined && { ids: { message: messageId } }),
  });
}

export function emitAttachment(scope: LineScope): void {
  const attachmentType = asStr(asObj(scope.obj.attachment)?.type) ?? '';
  scope.emit({ kind: 'system', actor: 'system', summary: `attachment ${attachmentType}`.trim(), attrs: { attachmentType } });
}

/** A type this importer does not know: a generic event, and one info note per type per file. */
export function emitUnknown(scope: LineScope): void {
  const { state, ctx, type } = scope;
  const shown = type || '(no type)';
  if (remember(state.unknownTypes, shown)) {
    ctx.defect({
      severity: 'info',
      kind: 'unknown_line_type',
      message: `line type "${clip(shown, 60)}" is not one Hindsight knows; kept as a generic event (first seen here)`,
      ...(scope.sessionId !== undefined && { sessionId: scope.sessionId }),
    });
  }
  scope.emit({ kind: 'other', summary: `${clip(shown, 60)} line`, attrs: { unknownType: true } });
}
