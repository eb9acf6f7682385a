import * as incubating from '@opentelemetry/semantic-conventions/incubating';
import { describe, expect, it } from 'vitest';
import { GEN_AI, GENERAL, OPERATION } from './semconv.js';
import { providerOfModel } from './provider-of-model.js';

describe('the names the trace export writes', () => {
  it('are the GenAI conventions\' names as @opentelemetry/semantic-conventions ships them', () => {
    const shipped = new Set(Object.values(incubating).filter((v) => typeof v === 'string'));
    for (const name of [...Object.values(GEN_AI), ...Object.values(GENERAL)]) expect(shipped.has(name), name).toBe(true);
    expect(incubating.GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT).toBe(OPERATION.invokeAgent);
    expect(incubating.GEN_AI_OPERATION_NAME_VALUE_CHAT).toBe(OPERATION.chat);
    expect(incubating.GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL).toBe(OPERATION.executeTool);
  });

  it('names a call\'s provider from its model with the conventions\' well-known values', () => {
    const known = new Set<string>(Object.entries(incubating as Record<string, unknown>).filter(([k]) => k.startsWith('GEN_AI_PROVIDER_NAME_VALUE_')).map(([, v]) => String(v)));
    const cases: [string, string][] = [
      ['claude-opus-4-6', 'anthropic'],
      ['anthropic/claude-sonnet-4', 'anthropic'],
      ['gpt-5-codex', 'openai'],
      ['o3-mini', 'openai'],
      ['gemini-2.5-pro', 'gcp.gemini'],
      ['deepseek-chat', 'deepseek'],
      ['mistral-large', 'mistral_ai'],
    ];
    for (const [model, provider] of cases) {
      expect(providerOfModel(model), model).toBe(provider);
      expect(known.has(provider)).toBe(true);
    }
    expect(providerOfModel('qwen3-coder')).toBeNull();
    expect(providerOfModel(null)).toBeNull();
  });
});
