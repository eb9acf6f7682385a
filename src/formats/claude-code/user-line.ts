// A `user` line → one event per content block: prompts and Claude Code's own wrapper text
// (user_message, marked nonHuman with the wrapper kind), tool results, images.
//
// Turns: a human prompt starts a turn, and so does a slash command the model answers (`/init`,
// custom commands, which carry the human's request in their args). A local command (`/model`,
// `/mcp`) is written right after a `<local-command-caveat>` meta line and starts no turn.

import { asId, asNum, asObj, asStr, contentBlocks, oneLine, type Json } from './json-access.js';
import type { LineScope } from './line-scope.js';
import { closeSidechainFor } from './sidechains.js';
import { toolResultText } from './tool-preview.js';
import { classifyUserText, type UserWrapper } from './user-text.js';

const TITLE_CHARS = 200;
/** Wrapper text worth indexing for search (the rest is boilerplate Claude Code repeats). */
const SEARCHABLE = new Set<UserWrapper | undefined>([undefined, 'command', 'bash-input', 'task-notification', 'local-command-output']);

export function emitUser(scope: LineScope): void {
  const { obj } = scope;
  const message = asObj(obj.message) ?? {};
  const blocks = contentBlocks(message.content);
  const flags = { isMeta: obj.isMeta === true, isCompactSummary: obj.isCompactSummary === true };
  if (blocks.length === 0) {
    scope.emit({ kind: 'other', actor: 'user', summary: '[empty user message]' });
    return;
  }
  let firstResult = true;
  blocks.forEach((block, part) => {
    const type = asStr(block.type) ?? 'unknown';
    if (type === 'text') {
      emitUserText(scope, asStr(block.text) ?? '', flags, part);
    } else if (type === 'tool_result') {
      // `toolUseResult` describes the line's (single) tool result; never repeat it on later blocks.
      emitToolResult(scope, block, part, firstResult ? obj.toolUseResult : undefined);
      firstResult = false;
    } else {
      const mediaType = asStr(asObj(block.source)?.media_type);
      scope.emit({
        kind: 'other',
        part,
        actor: 'user',
        summary: `[${type}${mediaType ? ` ${mediaType}` : ''}]`,
        attrs: { block: type, ...(mediaType !== undefined && { mediaType }) },
      });
    }
  });
}

function emitUserText(scope: LineScope, raw: string, flags: { isMeta: boolean; isCompactSummary: boolean }, part: number): void {
  const { state, ctx } = scope;
  const c = classifyUserText(raw, flags);
  const turnStart = c.wrapper === undefined || (c.wrapper === 'command' && !(scope.own && state.afterCaveat));
  if (scope.own) {
    state.afterCaveat = c.wrapper === 'caveat';
    if (turnStart) state.turn++;
    if (turnStart && state.titleFrom === 'none' && c.text !== '' && scope.sessionId !== undefined) {
      state.titleFrom = 'prompt';
      ctx.facts({ id: scope.sessionId, format: 'claude-code', title: oneLine(c.text, TITLE_CHARS) });
    }
  }
  const attrs: Record<string, unknown> = {};
  if (c.wrapper !== undefined) {
    attrs.nonHuman = true;
    attrs.wrapper = c.wrapper;
  }
  if (turnStart) attrs.turnStart = true;
  scope.emit({
    kind: 'user_message',
    part,
    actor: 'user',
    summary: c.text,
    ...(SEARCHABLE.has(c.wrapper) && { text: c.text }),
    attrs,
  });
}

function emitToolResult(scope: LineScope, block: Json, part: number, toolUseResult: unknown): void {
  const { state } = scope;
  const id = asId(block.tool_use_id);
  const isError = block.is_error === true;
  const pending = id !== undefined ? state.pending.get(id) : undefined;
  if (id !== undefined) state.pending.delete(id);
  const attrs: Record<string, unknown> = { block: 'tool_result' };
  if (id !== undefined) {
    const sidechain = closeSidechainFor(state, id);
    if (sidechain !== undefined) attrs.childSessionId = sidechain;
  }
  // A Task/Agent result names the sub-agent it ran: the link from this call to the child session.
  const tur = asObj(toolUseResult);
  const agentId = asId(tur?.agentId);
  if (tur && agentId !== undefined && scope.sessionId !== undefined) {
    attrs.agentId = agentId;
    attrs.childSessionId = `${scope.sessionId}:${agentId}`;
    for (const key of ['totalTokens', 'totalDurationMs', 'totalToolUseCount'] as const) {
      const n = asNum(tur[key]);
      if (n !== undefined) attrs[key] = n;
    }
    const status = asStr(tur.status);
    if (status !== undefined) attrs.agentStatus = status;
  }
  if (tur?.interrupted === true) attrs.interrupted = true;
  const preview = toolResultText(block.content);
  scope.emit({
    kind: 'tool_result',
    part,
    actor: 'tool',
    toolStatus: isError ? 'error' : 'ok',
    summary: isError ? `error: ${preview}` : preview,
    attrs,
    ...(pending !== undefined && { toolName: pending.name }),
    ...(id !== undefined && { ids: { toolCall: id } }),
  });
}
