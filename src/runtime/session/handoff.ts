// Handoff (seed "Handoff Recovery", spec 014): when compaction cannot make the conversation fit,
// a child session takes over with a fresh context — the system prompt and a handoff manifest (the
// task and a deterministic summary of what the parent did) — and the parent's memory. The child is
// recorded as its own session naming the parent, so every tool shows it as a sub-agent.

import type { ChatMessage } from '../model/chat.js';
import { buildCompactionSummary } from '../context/index.js';
import type { RecorderPort } from './parts.js';
import type { Session } from './session.js';
import type { TurnResult } from './turn-result.js';
import type { HandoffPort } from './with-recovery.js';

/** The manifest's summary is held to this many tokens: the child must start with room to work. */
const MANIFEST_TOKENS = 4000;

export function handoffManifest(task: string, parentId: string, messages: readonly ChatMessage[]): string {
  const history = messages.filter((m) => m.role !== 'system');
  return [
    `# Handoff from session ${parentId}`,
    'The previous session ran out of context before finishing. You continue its work with a fresh context.',
    '',
    '## The task',
    task,
    '',
    buildCompactionSummary(history, { tokens: MANIFEST_TOKENS }),
    '',
    'Memories the previous session saved are available through search_memory. Continue the task; do not redo finished steps.',
  ].join('\n');
}

export interface ChildSession {
  session: Session;
  recorder: RecorderPort & { close(): Promise<void> };
}

export interface HandoffWiring {
  /** A new session recorded as a child of `parentId`, starting from the system prompt. */
  newChild(parentId: string): Promise<ChildSession>;
  /** The parent's record, for the handoff line and its final turn_end. */
  parentRecorder: RecorderPort | null;
}

export function buildHandoff(wiring: HandoffWiring): HandoffPort {
  return {
    async handOff(parent: Session, task: string, result: TurnResult): Promise<TurnResult> {
      const manifest = handoffManifest(task, parent.id, parent.messages);
      const child = await wiring.newChild(parent.id);
      wiring.parentRecorder?.record({
        type: 'handoff',
        turn: result.turn,
        child_session_id: child.session.id,
        reason: result.error?.message ?? 'the context was exhausted',
        manifest,
      });
      let childResult: TurnResult;
      try {
        childResult = await child.session.startTurn(manifest, 'handoff');
      } finally {
        await child.recorder.close();
      }
      const handedOff: TurnResult = {
        ...childResult,
        sessionId: parent.id,
        turn: result.turn,
        terminalState: childResult.terminalState === 'completed' ? 'handoff' : childResult.terminalState,
        steps: result.steps + childResult.steps,
        toolCalls: result.toolCalls + childResult.toolCalls,
        toolOutcomes: [...result.toolOutcomes, ...childResult.toolOutcomes],
        usage: {
          inputTokens: result.usage.inputTokens + childResult.usage.inputTokens,
          outputTokens: result.usage.outputTokens + childResult.usage.outputTokens,
          cacheReadTokens: result.usage.cacheReadTokens + childResult.usage.cacheReadTokens,
          cacheCreationTokens: result.usage.cacheCreationTokens + childResult.usage.cacheCreationTokens,
          reasoningTokens: result.usage.reasoningTokens + childResult.usage.reasoningTokens,
        },
        costUsd: result.costUsd === null || childResult.costUsd === null ? null : result.costUsd + childResult.costUsd,
        handoffSessionId: child.session.id,
      };
      parent.recordTurnEnd(handedOff);
      await wiring.parentRecorder?.sync();
      return handedOff;
    },
  };
}
