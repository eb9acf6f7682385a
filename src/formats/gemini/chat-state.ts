// What a Gemini chat parser carries from one record to the next, small and serialisable (it is
// the JSONL parser's snapshot, saved with each checkpoint).
//
// The CLI rewrites a message by appending it again under the same id as it grows (the reply,
// then the reply with its tool calls, then with their results, then with its tokens): last write
// wins. `recent` remembers, for the last messages, which of their parts were already emitted, so
// each text, thought, tool call and result becomes one event however often it is written. Only
// the latest message is ever rewritten in practice; a window of RECENT_LIMIT ids is kept anyway.

export interface Emitted {
  /** The message's text was emitted. */
  text: boolean;
  /** Thoughts emitted (they only ever grow at the end). */
  thoughts: number;
  /** Tool call ids emitted, and those whose result was emitted. */
  calls: string[];
  results: string[];
  /** The usage emitted last (input/output/cacheRead/model), to emit again only when it changes. */
  usage: string | null;
}

export interface ChatState {
  /** Human prompts so far (the turn number of the events that follow). */
  turn: number;
  /** The model last named by any record: ccusage's hint for a reply that names none (JSONL only). */
  lastModel: string | null;
  /** The header's projectHash, and the project path proven against it (path-proof.ts). */
  projectHash: string | null;
  projectPath: string | null;
  /** Recent message ids with what of them was emitted, oldest first. */
  recent: [string, Emitted][];
  /** Unknown record shapes and message types already reported (one finding per kind per file). */
  reported: string[];
}

export const RECENT_LIMIT = 64;

export function emptyState(): ChatState {
  return { turn: 0, lastModel: null, projectHash: null, projectPath: null, recent: [], reported: [] };
}

/** A state handed back on resume, checked field by field (a snapshot from another version starts fresh). */
export function resumeState(saved: unknown): ChatState {
  const s = saved as Partial<ChatState> | null | undefined;
  if (!s || typeof s !== 'object' || typeof s.turn !== 'number' || !Array.isArray(s.recent) || !Array.isArray(s.reported)) return emptyState();
  return {
    turn: s.turn,
    lastModel: typeof s.lastModel === 'string' ? s.lastModel : null,
    projectHash: typeof s.projectHash === 'string' ? s.projectHash : null,
    projectPath: typeof s.projectPath === 'string' ? s.projectPath : null,
    recent: s.recent.filter((r): r is [string, Emitted] => Array.isArray(r) && typeof r[0] === 'string' && typeof r[1] === 'object' && r[1] !== null),
    reported: s.reported.filter((r): r is string => typeof r === 'string'),
  };
}

/** What was emitted of message `id` (a fresh record when none), moved to the newest place. */
export function emittedOf(state: ChatState, id: string): Emitted {
  const at = state.recent.findIndex(([k]) => k === id);
  let entry: Emitted;
  if (at === -1) {
    entry = { text: false, thoughts: 0, calls: [], results: [], usage: null };
    if (state.recent.length >= RECENT_LIMIT) state.recent.shift();
  } else {
    entry = state.recent[at]![1];
    state.recent.splice(at, 1);
  }
  state.recent.push([id, entry]);
  return entry;
}

/** True the first time `kind` is reported in this file. */
export function firstReport(state: ChatState, kind: string): boolean {
  if (state.reported.includes(kind)) return false;
  if (state.reported.length < 100) state.reported.push(kind);
  return true;
}
