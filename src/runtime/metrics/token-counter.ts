// Token accounting for a session (seed §10): the provider's usage when it sends one, else the
// estimate of what was sent and received, summed over the session's model steps.

import type { ChatMessage, ChatResponse, ProviderUsage } from '../model/chat.js';
import { estimateMessagesTokens, estimateTokens } from './estimate.js';

export type UsageSource = 'provider' | 'estimate';

export interface StepUsage {
  usage: ProviderUsage;
  source: UsageSource;
}

export interface CumulativeTokens extends ProviderUsage {
  /** input + output + cache read + cache creation (reasoning is inside output where reported). */
  totalTokens: number;
  /** Model steps recorded, and how many of them were estimated. */
  steps: number;
  estimatedSteps: number;
}

export const ZERO_USAGE: Readonly<ProviderUsage> = Object.freeze({
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheCreationTokens: 0,
  reasoningTokens: 0,
});

type ResponseText = Pick<ChatResponse, 'content' | 'reasoning' | 'toolCalls'>;

export class TokenCounter {
  private readonly sum: ProviderUsage = { ...ZERO_USAGE };
  private steps = 0;
  private estimatedSteps = 0;

  /** Estimated tokens of the messages sent to the model. */
  countInput(messages: readonly ChatMessage[]): number {
    return estimateMessagesTokens(messages);
  }

  /** Estimated tokens of a response: its text, its reasoning and its tool calls as JSON. */
  countOutput(response: ResponseText): number {
    let tokens = estimateTokens(response.content ?? '') + estimateTokens(response.reasoning ?? '');
    for (const call of response.toolCalls) {
      tokens += estimateTokens(call.name + (typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments)));
    }
    return tokens;
  }

  /**
   * The usage of one model step: the provider's when it reported one, else estimated from the
   * request and response. A usage block of all zeros for a response that said something is taken
   * as missing (some local servers send one without counting).
   */
  usageFor(request: readonly ChatMessage[], response: ResponseText & Pick<ChatResponse, 'usage'>): StepUsage {
    const reported = response.usage;
    if (reported && !(isAllZero(reported) && this.countOutput(response) > 0)) return { usage: { ...reported }, source: 'provider' };
    return { usage: { ...ZERO_USAGE, inputTokens: this.countInput(request), outputTokens: this.countOutput(response) }, source: 'estimate' };
  }

  /** Add one model step's usage to the session totals. */
  recordTurn(step: StepUsage): void {
    this.sum.inputTokens += step.usage.inputTokens;
    this.sum.outputTokens += step.usage.outputTokens;
    this.sum.cacheReadTokens += step.usage.cacheReadTokens;
    this.sum.cacheCreationTokens += step.usage.cacheCreationTokens;
    this.sum.reasoningTokens += step.usage.reasoningTokens;
    this.steps++;
    if (step.source === 'estimate') this.estimatedSteps++;
  }

  getCumulative(): CumulativeTokens {
    const s = this.sum;
    return {
      ...s,
      totalTokens: s.inputTokens + s.outputTokens + s.cacheReadTokens + s.cacheCreationTokens,
      steps: this.steps,
      estimatedSteps: this.estimatedSteps,
    };
  }
}

function isAllZero(u: ProviderUsage): boolean {
  return u.inputTokens === 0 && u.outputTokens === 0 && u.cacheReadTokens === 0 && u.cacheCreationTokens === 0;
}
