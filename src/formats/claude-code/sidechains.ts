// Inline sidechains (Claude Code before sub-agent files): `isSidechain: true` lines without an
// agentId inside the session file. They are grouped by chain root into a child session
// `<sessionId>:sidechain-<rootUuid>` and linked to the Task call that spawned them.
//
// Linking: a Task call is pending from its tool_use until its tool_result. A new chain root is
// matched to a pending, not yet claimed Task call of the parent whose prompt equals the root's
// text (parallel Tasks start in any order, and a Task that failed validation never spawns one);
// a root without text, or Task calls that carry no prompt, fall back to the nearest pending
// Task call. Anything else stays an unlinked child with an info note, never dropped.
// A group closes when its Task's result arrives; its uuids are then forgotten so the state stays
// small. Unlinked groups close when more than MAX_OPEN_GROUPS are open.

import { createHash } from 'node:crypto';
import type { LineContext } from '../importer.js';
import { asArr, asId, asObj, asStr, type Json } from './json-access.js';
import type { ParserState, PendingCall, SidechainGroup } from './parser-state.js';

export const TASK_TOOLS = new Set(['Task', 'Agent']);
const MAX_OPEN_GROUPS = 64;

/** Short fingerprint of a prompt, so the state never holds prompt text. */
export function promptHash(text: string): string {
  return createHash('sha1').update(text.trim()).digest('hex').slice(0, 16);
}

/** The text a sidechain root line opens with (the Task prompt), if any. */
function rootText(obj: Json): string | undefined {
  const content = asObj(obj.message)?.content;
  const s = asStr(content);
  if (s !== undefined) return s;
  for (const block of asArr(content) ?? []) {
    const b = asObj(block);
    if (b?.type === 'text' && typeof b.text === 'string') return b.text;
  }
  return undefined;
}

function findTask(state: ParserState, parentId: string, text: string | undefined): [PendingCall, 'prompt' | 'order'] | undefined {
  const candidates = [...state.pending.values()].filter(
    (p) => p.sessionId === parentId && TASK_TOOLS.has(p.name) && !p.linked,
  );
  if (text !== undefined && text.trim() !== '') {
    const h = promptHash(text);
    const match = candidates.find((p) => p.promptHash === h);
    if (match) return [match, 'prompt'];
  }
  const withoutPrompt = candidates.filter((p) => p.promptHash === undefined || text === undefined || text.trim() === '');
  const nearest = withoutPrompt[withoutPrompt.length - 1];
  return nearest ? [nearest, 'order'] : undefined;
}

function closeGroup(state: ParserState, group: SidechainGroup): void {
  state.groups = state.groups.filter((g) => g !== group);
  for (const [uuid, root] of state.sidechainOf) if (root === group.root) state.sidechainOf.delete(uuid);
}

/**
 * The child session of an inline sidechain line, opening (and announcing) a group at a new root.
 * `parentId` is the session file's own id.
 */
export function sidechainSession(obj: Json, ctx: LineContext, state: ParserState, project: string, parentId: string): string {
  const uuid = asId(obj.uuid);
  const parentUuid = asId(obj.parentUuid);
  const knownRoot = parentUuid !== undefined ? state.sidechainOf.get(parentUuid) : undefined;
  const open = knownRoot !== undefined ? state.groups.find((g) => g.root === knownRoot) : undefined;
  if (open) {
    if (uuid !== undefined) state.sidechainOf.set(uuid, open.root);
    return open.sessionId;
  }

  const root = uuid ?? `line-${ctx.lineNumber}`;
  const sessionId = `${parentId}:sidechain-${root}`;
  const found = findTask(state, parentId, rootText(obj));
  if (found) found[0].linked = true;
  const group: SidechainGroup = { root, sessionId, toolUseId: found ? found[0].id : null };
  state.groups.push(group);
  state.sidechainOf.set(root, root);
  if (state.groups.length > MAX_OPEN_GROUPS) {
    const oldest = state.groups.find((g) => g.toolUseId === null) ?? state.groups[0];
    if (oldest) closeGroup(state, oldest);
  }

  const attrs: Record<string, unknown> = { rootUuid: root, linked: found !== undefined };
  if (found) {
    const [task, how] = found;
    Object.assign(attrs, { toolUseId: task.id, linkedBy: how });
    if (task.description !== undefined) attrs.description = task.description;
    if (task.subagentType !== undefined) attrs.subagentType = task.subagentType;
  }
  const cwd = asStr(obj.cwd);
  ctx.facts({
    id: sessionId,
    format: 'claude-code',
    kind: 'sidechain',
    parentId,
    project,
    mainLedger: ctx.file.ledger,
    ...(cwd !== undefined && { projectPath: cwd }),
    ...(found?.[0].description !== undefined && { title: found[0].description }),
    attrs,
  });
  if (!found) {
    ctx.defect({
      severity: 'info',
      kind: 'unlinked_sidechain',
      message: `inline sidechain starting at line ${ctx.lineNumber} matches no pending Task call of ${parentId}; kept as an unlinked child session ${sessionId}`,
      sessionId,
    });
  }
  return sessionId;
}

/** A Task result arrived: close the sidechain it spawned and return that child's session id. */
export function closeSidechainFor(state: ParserState, toolUseId: string): string | undefined {
  const group = state.groups.find((g) => g.toolUseId === toolUseId);
  if (!group) return undefined;
  closeGroup(state, group);
  return group.sessionId;
}
