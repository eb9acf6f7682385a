// The usage of one assistant message, counted as ccusage 20 counts OpenCode.
//
// OpenCode writes `tokens: {total?, input, output, reasoning, cache: {read, write}}` on each
// assistant message: `input` already excludes cached input (OpenCode subtracts cache reads and
// writes from the provider's prompt count), `output` excludes reasoning, and newer builds add the
// provider's `total`. ccusage 20.0.24 takes input, output and the cache pair as they are and bills
// the reasoning on top as output, plus whatever `total` holds beyond all five (probed on its
// binary: {input 100, output 10, reasoning 5} → total 115 whatever a smaller `total` says; with
// total 200 → 200; output 0 stays 0 with the reasoning billed beside it). Those extra tokens are in
// its totalTokens and cost but not its outputTokens: Hindsight's `reasoning` kind (output-priced
// tokens not inside output), so output, totals and cost all equal ccusage's.
// A message without a model or provider id, or whose counts are all zero, is no call (ccusage
// skips it too).

import type { EventUsage } from '../../core/model.js';
import { asNumber, asObject, count, nonEmpty, type Obj } from './json.js';

export interface MessageUsage {
  usage: EventUsage;
  /** `tokens.reasoning` as written. */
  reasoning: number;
  /** Reasoning and whatever `total` holds beyond the rest: the call's `reasoning` kind (ccusage's extra total tokens). */
  extraOutput: number;
  /** The cost OpenCode recorded, when it is above zero (often it is 0: priced from the table instead). */
  costUsd?: number;
  provider: string;
}

/** The usage of an assistant message's data, or null when it records no call. */
export function messageUsage(messageId: string, data: Obj): MessageUsage | null {
  const tokens = asObject(data.tokens);
  const model = nonEmpty(data.modelID);
  const provider = nonEmpty(data.providerID);
  if (!tokens || !model || !provider) return null;
  const cache = asObject(tokens.cache);
  const input = count(tokens.input);
  const cacheRead = count(cache?.read);
  const cacheWrite = count(cache?.write);
  const reasoning = count(tokens.reasoning);
  const output = count(tokens.output);
  const extraOutput = reasoning + Math.max(0, count(tokens.total) - (input + output + cacheRead + cacheWrite + reasoning));
  if (input + output + cacheRead + cacheWrite + extraOutput === 0) return null;
  const cost = asNumber(data.cost);
  return {
    usage: { key: messageId, model, input, output, cacheRead, cacheWrite, ...(extraOutput > 0 ? { reasoning: extraOutput } : {}) },
    reasoning,
    extraOutput,
    ...(cost !== undefined && cost > 0 ? { costUsd: cost } : {}),
    provider,
  };
}
