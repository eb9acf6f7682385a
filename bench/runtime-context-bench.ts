// Context figures (issue 16, src/runtime/context/): message assembly and multi-stage compaction of a
// ~200k-token agent conversation (~1,000 messages: reads, test runs with coloured and repeated
// output, edits, answers), against the default budget (input limit 122,880 tokens, so compaction
// has real work). Target: < 50 ms each. Baseline in the same run: JSON.stringify of the same
// messages, the serialisation every provider client performs on every call anyway.
// Run alone with `node dist/bench/runtime-context-bench.js`.

import { pathToFileURL } from 'node:url';
import type { ChatMessage } from '../src/runtime/model/chat.js';
import { assembleModelMessages } from '../src/runtime/context/assembly.js';
import { TokenLedger, DEFAULT_CONTEXT_BUDGET } from '../src/runtime/context/budget.js';
import { compactMessagesMultiStage } from '../src/runtime/context/compaction.js';
import { prepareModelMessages } from '../src/runtime/context/request.js';
import { estimateMessageTokens } from '../src/runtime/metrics/estimate.js';
import { Rng } from './generators/prng.js';
import { TextGen } from './generators/text.js';
import type { Figure } from './figure.js';
import { percentile } from './measure.js';

/** A seeded agent conversation of about `targetTokens` tokens. */
export function agentConversation(targetTokens = 200_000, seed = 16): ChatMessage[] {
  const rng = new Rng(seed);
  const text = new TextGen(rng);
  const ledger = new TokenLedger();
  const messages: ChatMessage[] = [{ role: 'system', content: text.prose(8_000) }];
  let tokens = ledger.tokensOf(messages[0]!);
  let id = 0;
  const push = (m: ChatMessage) => {
    messages.push(m);
    tokens += ledger.tokensOf(m);
  };
  while (tokens < targetTokens) {
    push({ role: 'user', content: text.prose(rng.size(300, 0.8, 40, 4_000)) });
    const steps = rng.int(3, 12);
    for (let s = 0; s < steps && tokens < targetTokens; s++) {
      const n = rng.weighted([[1, 6], [2, 3], [3, 1]] as const);
      const calls = Array.from({ length: n }, () => {
        const kind = rng.weighted([['read', 5], ['bash', 3], ['edit', 2], ['write', 1]] as const);
        const path = `src/${text.ident()}/${text.ident()}.ts`;
        const args: Record<string, unknown> = kind === 'bash' ? { command: rng.pick(['npm test', 'npx tsc --noEmit', 'npm run lint', 'git status']) } : { path };
        if (kind === 'edit') Object.assign(args, { old_string: text.code(200), new_string: text.code(220) });
        if (kind === 'write') args.content = text.code(rng.size(1_500, 0.7, 100, 12_000));
        return { id: `call_${id++}`, name: kind, arguments: args };
      });
      push({ role: 'assistant', content: rng.chance(0.6) ? text.prose(rng.size(200, 0.8, 20, 3_000)) : null, toolCalls: calls });
      for (const call of calls) push({ role: 'tool', toolCallId: call.id, name: call.name, content: resultText(rng, text, call.name), isError: call.name === 'bash' && rng.chance(0.3) });
    }
    push({ role: 'assistant', content: text.prose(rng.size(400, 0.7, 40, 3_000)) });
  }
  return messages;
}

function resultText(rng: Rng, text: TextGen, tool: string): string {
  switch (tool) {
    case 'read':
      return text.numbered(text.code(rng.size(600, 0.9, 80, 40_000)), 1);
    case 'bash': {
      const out: string[] = [];
      const lines = rng.size(12, 1, 1, 600);
      for (let i = 0; i < lines; i++) {
        const r = rng.next();
        if (r < 0.2) out.push(`\u001b[32m✓\u001b[0m ${text.words(6)} \u001b[2m(${rng.int(1, 90)} ms)\u001b[0m`);
        else if (r < 0.3) out.push(`src/${text.ident()}.ts(${rng.int(1, 300)},${rng.int(1, 40)}): error TS2304: Cannot find name '${text.ident()}'.`);
        else if (r < 0.4) out.push(`    at ${text.ident()} (/work/app/node_modules/${text.ident()}/dist/index.js:${rng.int(1, 900)}:${rng.int(1, 80)})`);
        else if (r < 0.5) out.push('npm warn deprecated glob@7.2.3: Glob versions prior to v9 are no longer supported');
        else out.push(text.sentence());
      }
      return out.join('\n');
    }
    default:
      return `${tool === 'edit' ? 'Edited' : 'Wrote'} the file (${rng.int(1, 400)} lines).`;
  }
}

/**
 * Milliseconds per call of `fn`: median and p95 of `runs` runs after two warm-ups. `setup` makes
 * each run's input outside the timing (fresh message objects, so that no cache remembers them).
 */
function time<T>(setup: () => T, fn: (input: T) => void, runs = 15): { p50: number; p95: number } {
  fn(setup());
  fn(setup());
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const input = setup();
    const t0 = performance.now();
    fn(input);
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  return { p50: percentile(ms, 50), p95: percentile(ms, 95) };
}

/** The same conversation as new objects: every per-message cache (ledger, stage 0, assembly) starts cold. */
const fresh = (messages: readonly ChatMessage[]) => () => messages.map((m) => ({ ...m }));

export function measureRuntimeContext(): Figure[] {
  const messages = agentConversation();
  const tokens = new TokenLedger().total(messages);
  const budget = DEFAULT_CONTEXT_BUDGET;
  const same = () => messages;
  const baseline = time(same, (m) => JSON.stringify(m));
  const baseUnit = 'ms (JSON.stringify of the same messages, same run)';
  const figure = (name: string, t: { p50: number; p95: number }, note: string): Figure => ({
    figure: `runtime_context.${name}`,
    value: +t.p50.toFixed(2),
    unit: 'ms',
    p95: +t.p95.toFixed(2),
    baseline: +baseline.p50.toFixed(2),
    baseline_unit: baseUnit,
    ratio: +(t.p50 / baseline.p50).toFixed(2),
    target: '< 50 ms',
    note,
  });
  const about = `${messages.length} messages, ${tokens} tokens (estimated)`;
  // What every cold figure contains: one estimator pass over every message (runtime/metrics/estimate.ts).
  const estimate = time(fresh(messages), (ms) => ms.forEach((m) => estimateMessageTokens(m)));
  // Cold: new message objects and a new ledger, as on a session's first call; warm: the session's
  // ledger and the same objects, one message added per call, as on every later call.
  const cold = time(fresh(messages), (ms) => assembleModelMessages(ms, budget, new TokenLedger()));
  const ledger = new TokenLedger();
  assembleModelMessages(messages, budget, ledger);
  let grown = messages;
  const warm = time(same, () => {
    grown = [...grown, { role: 'user', content: 'continue' }];
    assembleModelMessages(grown, budget, ledger);
  });
  const assembled = assembleModelMessages(messages, budget).stats;
  const compaction = compactMessagesMultiStage(messages, budget);
  const compactCold = time(fresh(messages), (ms) => compactMessagesMultiStage(ms, budget, { ledger: new TokenLedger() }));
  const compactLedger = new TokenLedger();
  compactMessagesMultiStage(messages, budget, { ledger: compactLedger });
  const compactWarm = time(same, (ms) => compactMessagesMultiStage(ms, budget, { ledger: compactLedger }));
  const prepared = time(fresh(messages), (ms) => prepareModelMessages(ms, budget, { ledger: new TokenLedger() }));
  return [
    figure('estimate_all', estimate, `${about}; estimateMessageTokens over every message, the part of each cold figure that is not context code`),
    figure('assembly_cold', cold, `${about}; new objects and ledger each call; ${assembled.compactedResults} results summarised, ${assembled.cappedResults} reads cut`),
    figure('assembly_warm', warm, `${about}; the session's ledger, one new message per call`),
    figure('compaction_cold', compactCold, `${about}; reached stage ${compaction.stage}, ${compaction.tokensBefore} → ${compaction.tokensAfter} tokens`),
    figure('compaction_warm', compactWarm, `${about}; same objects, ledger and stage 0 results remembered`),
    figure('prepare_cold', prepared, `${about}; assembly, compaction of the assembled view, assembly again`),
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(measureRuntimeContext(), null, 2));
}
