// What a Claude Code parser remembers between lines, and its small JSON snapshot for resuming
// on appended lines. Everything that changes the events of a later line must live here.

import { asArr, asObj, asStr, type Json } from './json-access.js';

/** A tool call still waiting for its result (what lets results name their tool and Tasks link). */
export interface PendingCall {
  id: string;
  name: string;
  sessionId: string;
  /** Task/Agent calls: fingerprint of the prompt, to match an inline sidechain's first line. */
  promptHash?: string;
  description?: string;
  subagentType?: string;
  /** An inline sidechain already claimed this Task call. */
  linked?: boolean;
}

/** An inline sidechain still running (its Task result has not arrived). */
export interface SidechainGroup {
  root: string;
  sessionId: string;
  toolUseId: string | null;
}

export interface ParserState {
  /** Turns started so far in the file's own session. */
  turn: number;
  /** Where the title fact came from: a `summary` line wins over the first prompt. */
  titleFrom: 'none' | 'prompt' | 'summary';
  /** projectPath / version facts already sent for the file's own session. */
  contextSent: boolean;
  /** The previous user line was a local-command caveat: the next command is local, not a turn. */
  afterCaveat: boolean;
  unknownTypes: string[];
  /** Sub-agent ids already announced by an agent_progress line (one subagent_start each). */
  agentsSeen: string[];
  /** Child sessions whose facts the parser already sent (old layout files, inline agent lines). */
  childrenSeen: string[];
  pending: Map<string, PendingCall>;
  /** uuid of an open inline sidechain line → its root uuid. */
  sidechainOf: Map<string, string>;
  groups: SidechainGroup[];
  /** Old-layout agent files: the parent session seen on the last line (for lines that omit it). */
  lastParentId: string | null;
}

/** Bounds that keep the snapshot small whatever the file holds. */
export const MAX_PENDING = 256;
export const MAX_LIST = 1000;

export function freshState(): ParserState {
  return {
    turn: 0,
    titleFrom: 'none',
    contextSent: false,
    afterCaveat: false,
    unknownTypes: [],
    agentsSeen: [],
    childrenSeen: [],
    pending: new Map(),
    sidechainOf: new Map(),
    groups: [],
    lastParentId: null,
  };
}

/** Remember a pending call, forgetting the oldest when over the bound (orphans never resolve). */
export function addPending(state: ParserState, call: PendingCall): void {
  state.pending.set(call.id, call);
  if (state.pending.size > MAX_PENDING) {
    const oldest = state.pending.keys().next().value;
    if (oldest !== undefined) state.pending.delete(oldest);
  }
}

/** Add to a bounded list; returns false when the value was already there. */
export function remember(list: string[], value: string): boolean {
  if (list.includes(value)) return false;
  list.push(value);
  if (list.length > MAX_LIST) list.shift();
  return true;
}

/** The JSON form saved with the file's checkpoint. */
export function snapshotState(state: ParserState): Json {
  return {
    v: 1,
    turn: state.turn,
    titleFrom: state.titleFrom,
    contextSent: state.contextSent,
    afterCaveat: state.afterCaveat,
    unknownTypes: [...state.unknownTypes],
    agentsSeen: [...state.agentsSeen],
    childrenSeen: [...state.childrenSeen],
    pending: [...state.pending.values()].map((p) => ({ ...p })),
    sidechainOf: Object.fromEntries(state.sidechainOf),
    groups: state.groups.map((g) => ({ ...g })),
    lastParentId: state.lastParentId,
  };
}

const strings = (v: unknown): string[] => (asArr(v) ?? []).filter((x): x is string => typeof x === 'string');

/** Rebuild state from a snapshot; anything unrecognisable starts fresh rather than failing. */
export function restoreState(snapshot: unknown): ParserState {
  const s = asObj(snapshot);
  const state = freshState();
  if (!s || s.v !== 1) return state;
  state.turn = typeof s.turn === 'number' ? s.turn : 0;
  state.titleFrom = s.titleFrom === 'prompt' || s.titleFrom === 'summary' ? s.titleFrom : 'none';
  state.contextSent = s.contextSent === true;
  state.afterCaveat = s.afterCaveat === true;
  state.unknownTypes = strings(s.unknownTypes);
  state.agentsSeen = strings(s.agentsSeen);
  state.childrenSeen = strings(s.childrenSeen);
  for (const p of asArr(s.pending) ?? []) {
    const o = asObj(p);
    const id = asStr(o?.id);
    if (!o || !id) continue;
    state.pending.set(id, {
      id,
      name: asStr(o.name) ?? '',
      sessionId: asStr(o.sessionId) ?? '',
      ...(asStr(o.promptHash) !== undefined && { promptHash: asStr(o.promptHash) }),
      ...(asStr(o.description) !== undefined && { description: asStr(o.description) }),
      ...(asStr(o.subagentType) !== undefined && { subagentType: asStr(o.subagentType) }),
      ...(o.linked === true && { linked: true }),
    });
  }
  for (const [uuid, root] of Object.entries(asObj(s.sidechainOf) ?? {})) {
    if (typeof root === 'string') state.sidechainOf.set(uuid, root);
  }
  for (const g of asArr(s.groups) ?? []) {
    const o = asObj(g);
    const root = asStr(o?.root);
    const sessionId = asStr(o?.sessionId);
    if (root && sessionId) state.groups.push({ root, sessionId, toolUseId: asStr(o?.toolUseId) ?? null });
  }
  state.lastParentId = asStr(s.lastParentId) ?? null;
  return state;
}
