// Which session a line belongs to: the file's own session, a sub-agent child named by the line's
// agentId, an inline sidechain group, or (older layout agent files) `<line sessionId>:<agentId>`.

import type { LineContext, SourceFile } from '../importer.js';
import { asId, type Json } from './json-access.js';
import type { Layout } from './line-scope.js';
import { remember, type ParserState } from './parser-state.js';

export interface Route {
  sessionId: string | undefined;
  own: boolean;
  /** An inline sidechain line: the caller groups it by chain root (sidechains.ts). */
  sidechain: boolean;
}

export function isCompactionAgent(agentId: string): boolean {
  return agentId.startsWith('acompact');
}

/** Announce a child session the layout could not (its parent is only known from the lines). */
function announceChild(
  ctx: LineContext,
  state: ParserState,
  layout: Layout,
  parentId: string,
  agentId: string,
): string {
  const id = `${parentId}:${agentId}`;
  if (remember(state.childrenSeen, id)) {
    ctx.facts({
      id,
      format: 'claude-code',
      parentId,
      kind: isCompactionAgent(agentId) ? 'compaction' : 'subagent',
      project: layout.project,
      mainLedger: ctx.file.ledger,
      attrs: { agentId },
    });
  }
  return id;
}

export function routeLine(obj: Json, ctx: LineContext, state: ParserState, layout: Layout, file: SourceFile): Route {
  if (layout.agentId !== undefined) {
    if (file.sessionId !== undefined) return { sessionId: file.sessionId, own: true, sidechain: false };
    // Older layout: agent-<id>.jsonl beside the session files names its parent only in its lines.
    const parent = asId(obj.sessionId) ?? state.lastParentId ?? undefined;
    if (parent === undefined) return { sessionId: undefined, own: true, sidechain: false };
    state.lastParentId = parent;
    return { sessionId: announceChild(ctx, state, layout, parent, layout.agentId), own: true, sidechain: false };
  }
  const own = file.sessionId;
  if (own !== undefined && obj.isSidechain === true) {
    const agentId = asId(obj.agentId);
    if (agentId !== undefined) return { sessionId: announceChild(ctx, state, layout, own, agentId), own: false, sidechain: false };
    return { sessionId: undefined, own: false, sidechain: true };
  }
  return { sessionId: own, own: true, sidechain: false };
}
