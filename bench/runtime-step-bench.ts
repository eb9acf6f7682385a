// Runtime overhead per model step (issue 16): everything the agent runtime does around one model
// call, the provider excluded — message assembly against the budget, token and cost accounting,
// the executor rules, one tool call through the executor (a `read` of a small file in the
// workspace), the permission hook, spans, and the record lines appended to the session file — on a
// conversation of 200 messages. The store sync after each step runs in the background and is
// measured apart (runtime-recording-bench.ts). Target: < 5 ms per step.
// Baseline in the same run: JSON.stringify of the 200 messages, which any provider client does
// on every call anyway. Run alone with `node dist/bench/runtime-step-bench.js`.

import { writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ChatMessage, ChatRequest, ChatResponse, ModelClient } from '../src/runtime/model/chat.js';
import { buildRuntime } from '../src/runtime/session/build-runtime.js';
import type { Figure } from './figure.js';
import { percentile } from './measure.js';
import { agentConversation } from './runtime-context-bench.js';

const MESSAGES = 200;
const TURNS = 40;
const STEPS_PER_TURN = 5;

/** The first `n` messages or a few more, ending where a user message would start (so every call has its result). */
function conversationOf(n: number): ChatMessage[] {
  const all = agentConversation(60_000);
  let end = Math.min(n, all.length);
  while (end < all.length && all[end]!.role !== 'user') end++;
  return all.slice(0, end);
}

/** A model that answers at once: a read for every step but the last, then a short answer. */
function instantModel(): ModelClient {
  let step = 0;
  return {
    async chat(request: ChatRequest): Promise<ChatResponse> {
      step++;
      const last = step % STEPS_PER_TURN === 0;
      void request;
      return {
        content: last ? 'Done: the file says hello.' : null,
        reasoning: null,
        toolCalls: last ? [] : [{ id: `call_${step}`, name: 'read', arguments: { path: 'notes.txt' } }],
        usage: { inputTokens: 50_000, outputTokens: 40, cacheReadTokens: 0, cacheCreationTokens: 0, reasoningTokens: 0 },
        finishReason: last ? 'stop' : 'tool_calls',
        responseId: `resp_${step}`,
        model: 'gpt-4o-mini',
      };
    },
  };
}

export async function measureRuntimeStep(): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'hs-step-bench-'));
  const workspace = join(dir, 'ws');
  const { mkdirSync } = await import('node:fs');
  mkdirSync(workspace);
  writeFileSync(join(workspace, 'notes.txt'), 'hello\n'.repeat(40));
  const env: NodeJS.ProcessEnv = { HOME: dir, XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'data'), PATH: process.env.PATH };
  const runtime = await buildRuntime({
    mode: 'run',
    flags: { provider: 'custom', 'base-url': 'http://127.0.0.1:9/v1', model: 'gpt-4o-mini', workspace },
    env,
    cwd: workspace,
    warn: () => {},
    store: null,
    client: instantModel(),
  });
  const base = conversationOf(MESSAGES);
  const perStep: number[] = [];
  const stringify: number[] = [];
  for (let t = 0; t < TURNS; t++) {
    // Every turn starts from the same 200 messages, so each step sees a conversation of that size.
    runtime.session.messages.splice(0, runtime.session.messages.length, ...base);
    const started = performance.now();
    const result = await runtime.turn('read notes.txt and tell me what it says');
    perStep.push((performance.now() - started) / result.steps);
    const s0 = performance.now();
    JSON.stringify(runtime.session.messages);
    stringify.push(performance.now() - s0);
  }
  await runtime.close();
  // The first turns warm the JIT and the token ledger; the figure is the steady state.
  const steady = perStep.slice(5).sort((a, b) => a - b);
  const baseline = stringify.slice(5).sort((a, b) => a - b);
  const p50 = percentile(steady, 50);
  const b50 = percentile(baseline, 50);
  return [
    {
      figure: `runtime overhead per model step, ${base.length} messages (provider excluded)`,
      value: round(p50),
      p95: round(percentile(steady, 95)),
      unit: 'ms',
      baseline: round(b50),
      baseline_unit: 'ms (JSON.stringify of the conversation)',
      ratio: round(p50 / b50),
      target: '< 5 ms',
    },
  ];
}

const round = (n: number) => Math.round(n * 100) / 100;

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await measureRuntimeStep(), null, 2));
}
