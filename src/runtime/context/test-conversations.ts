// Conversation builders for the context tests: short ways to write system, user, assistant (with
// tool calls) and tool messages, and random conversations for the property tests.

import fc from 'fast-check';
import type { ChatMessage, ToolCallRequest } from '../model/chat.js';
import { TokenLedger } from './budget.js';

export const sys = (content: string): ChatMessage => ({ role: 'system', content });
export const user = (content: string): ChatMessage => ({ role: 'user', content });
export const say = (content: string): ChatMessage => ({ role: 'assistant', content });
export const call = (id: string, name: string, args: Record<string, unknown> | string = {}): ToolCallRequest => ({ id, name, arguments: args });
export const ask = (calls: ToolCallRequest[], content: string | null = null): ChatMessage => ({ role: 'assistant', content, toolCalls: calls });
export const result = (id: string, name: string, content: string, isError = false): ChatMessage =>
  isError ? { role: 'tool', toolCallId: id, name, content, isError } : { role: 'tool', toolCallId: id, name, content };

/** A text of about `tokens` tokens under the chars/4 estimate (distinct lines, so stage 0 leaves it alone). */
export function textOf(tokens: number, tag = 'x'): string {
  const lines: string[] = [];
  let chars = 0;
  for (let i = 0; chars < tokens * 4; i++) {
    const line = `${tag} line ${i} of the output, with enough words to look like text`;
    lines.push(line);
    chars += line.length + 1;
  }
  return lines.join('\n').slice(0, tokens * 4).trimEnd();
}

/** Terminal noise of about `tokens` tokens: a coloured progress line over and over (stage 0 shrinks it to two lines). */
export function noiseOf(tokens: number): string {
  const line = '\u001b[32mfetching packages from the registry mirror\u001b[0m';
  return Array(Math.max(1, Math.round((tokens * 4) / (line.length + 1)))).fill(line).join('\n');
}

/** One model step with tool calls and their results: `[assistant, ...results]`. */
export function toolStep(prefix: string, specs: { name: string; args?: Record<string, unknown>; content: string; isError?: boolean }[]): ChatMessage[] {
  const calls = specs.map((s, i) => call(`${prefix}-${i}`, s.name, s.args ?? {}));
  return [ask(calls), ...specs.map((s, i) => result(`${prefix}-${i}`, s.name, s.content, s.isError ?? false))];
}

const TOOL_NAMES = ['read', 'bash', 'edit', 'write', 'search_memory'] as const;

/** Sizes in tokens: mostly small, sometimes large, rarely huge (past any single-result cap). */
const resultTokens = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 0, max: 200 }) },
  { weight: 2, arbitrary: fc.integer({ min: 200, max: 5_000 }) },
  { weight: 1, arbitrary: fc.integer({ min: 5_000, max: 40_000 }) },
);

type Step =
  | { kind: 'user'; tokens: number }
  | { kind: 'say'; tokens: number }
  | { kind: 'tools'; calls: { name: string; tokens: number; error: boolean; noisy: boolean }[]; text: number }
  | { kind: 'note'; tokens: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('user' as const), tokens: fc.integer({ min: 1, max: 3_000 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('say' as const), tokens: fc.integer({ min: 1, max: 2_000 }) }) },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('tools' as const),
      calls: fc.array(fc.record({ name: fc.constantFrom(...TOOL_NAMES), tokens: resultTokens, error: fc.boolean(), noisy: fc.boolean() }), { minLength: 0, maxLength: 3 }),
      text: fc.integer({ min: 0, max: 300 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('note' as const), tokens: fc.integer({ min: 1, max: 200 }) }) },
);

/**
 * Random conversations that keep the protocol: an optional system prompt, then users, plain
 * answers, assistant messages with 0–3 calls followed by their results in order, and the odd
 * mid-conversation system note. Results are sometimes huge; call ids are unique.
 */
export const conversationArb: fc.Arbitrary<ChatMessage[]> = fc
  .record({ system: fc.option(fc.integer({ min: 1, max: 1_000 }), { nil: null }), steps: fc.array(step, { minLength: 0, maxLength: 40 }) })
  .map(({ system, steps }) => {
    const out: ChatMessage[] = [];
    if (system !== null) out.push(sys(textOf(system, 'system')));
    let id = 0;
    steps.forEach((s, n) => {
      switch (s.kind) {
        case 'user':
          out.push(user(textOf(s.tokens, `task ${n}`)));
          break;
        case 'say':
          out.push(say(textOf(s.tokens, `answer ${n}`)));
          break;
        case 'note':
          out.push(sys(textOf(s.tokens, `note ${n}`)));
          break;
        case 'tools': {
          const calls = s.calls.map((c) => ({ ...c, id: `call_${id++}` }));
          out.push(ask(calls.map((c) => call(c.id, c.name, { path: `src/file-${c.id}.ts`, command: `run ${c.id}` })), s.text > 0 ? textOf(s.text, `plan ${n}`) : null));
          for (const c of calls) out.push(result(c.id, c.name, c.noisy ? noiseOf(c.tokens) : textOf(c.tokens, `${c.name} ${c.id}`), c.error));
          break;
        }
      }
    });
    return out;
  });

/** Budgets from tiny (where stage 4 is common) to the defaults. */
export const budgetArb = fc
  .record({
    contextWindowTokens: fc.integer({ min: 2_000, max: 140_000 }),
    reservedShare: fc.double({ min: 0, max: 0.5, noNaN: true }),
    keepRecentTokens: fc.integer({ min: 0, max: 30_000 }),
    maxSingleReadResultTokens: fc.integer({ min: 50, max: 16_000 }),
    maxTotalReadResultTokensPerTurn: fc.integer({ min: 100, max: 100_000 }),
    keepRecentToolTurns: fc.integer({ min: 0, max: 5 }),
    assemblyCompactionThreshold: fc.double({ min: 0, max: 1, noNaN: true }),
  })
  .map(({ reservedShare, ...b }) => ({ ...b, reservedOutputTokens: Math.floor(b.contextWindowTokens * reservedShare) }));

/**
 * A conversation with a budget: half the time an absolute random budget, half the time one sized
 * against the conversation (an input limit of 10–120% of its tokens, a tail of up to 150% of that limit),
 * so that every compaction stage is reached often.
 */
export const scenarioArb = fc
  .tuple(conversationArb, budgetArb, fc.double({ min: 0.1, max: 1.2, noNaN: true }), fc.double({ min: 0, max: 1.5, noNaN: true }), fc.boolean())
  .map(([messages, budget, windowShare, keepShare, relative]) => {
    if (!relative) return { messages, budget };
    const limit = Math.ceil(new TokenLedger().total(messages) * windowShare);
    return { messages, budget: { ...budget, contextWindowTokens: budget.reservedOutputTokens + limit, keepRecentTokens: Math.floor(limit * keepShare) } };
  });
