// The factory: provider resolution, key resolution and its errors, header merging, metadata and
// pricing, a normalized config without the key — and a real round trip through each protocol.

import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic, startFakeOpenAI, type FakeServer } from '../../../test/fake-providers/index.js';
import { ProviderConfigError } from './errors.js';
import { createModelClient } from './factory.js';
import { PROVIDER_PRESETS } from './presets.js';

const KEY = 'sk-or-v1-secret0123456789abcdef0123456789';
const servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function configError(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(ProviderConfigError);
    return (err as Error).message;
  }
  throw new Error('expected a ProviderConfigError');
}

describe('createModelClient', () => {
  it('has the presets the issue names, hosted ones with their key variable, local ones without', () => {
    const byId = Object.fromEntries(PROVIDER_PRESETS.map((p) => [p.id, p]));
    expect(byId.openai!.apiKeyEnv).toBe('OPENAI_API_KEY');
    expect(byId.anthropic!.apiKeyEnv).toBe('ANTHROPIC_API_KEY');
    expect(byId.openrouter!.apiKeyEnv).toBe('OPENROUTER_API_KEY');
    expect(byId.deepseek!.apiKeyEnv).toBe('DEEPSEEK_API_KEY');
    expect(byId.groq!.apiKeyEnv).toBe('GROQ_API_KEY');
    expect([byId.vllm!.baseUrl, byId.llamacpp!.baseUrl, byId.ollama!.baseUrl]).toEqual([
      'http://127.0.0.1:8000/v1',
      'http://127.0.0.1:8080/v1',
      'http://127.0.0.1:11434/v1',
    ]);
    for (const id of ['vllm', 'llamacpp', 'ollama']) expect([byId[id]!.local, byId[id]!.apiKeyEnv]).toEqual([true, undefined]);
  });

  it('resolves a hosted preset: key from its env var, default model, table pricing, no key in the normalized config', () => {
    const { metadata, normalizedConfig } = createModelClient({ provider: 'anthropic' }, { env: { ANTHROPIC_API_KEY: KEY } });
    expect(metadata).toMatchObject({ providerId: 'anthropic', displayName: 'Anthropic', model: 'claude-sonnet-4-5', protocol: 'anthropic-messages', local: false });
    expect(metadata.pricing).toMatchObject({ kind: 'table', price: { model: 'claude-sonnet-4-5', input: 3, output: 15 } });
    expect(metadata.capabilities).toEqual({ nativeTools: true, streaming: true, structuredOutput: true });
    expect(normalizedConfig.apiKeySource).toBe('env:ANTHROPIC_API_KEY');
    expect(JSON.stringify({ metadata, normalizedConfig })).not.toContain(KEY);
  });

  it('names the env var when a hosted provider has no key', () => {
    expect(configError(() => createModelClient({ provider: 'openrouter', model: 'x/y' }, { env: {} }))).toContain('OPENROUTER_API_KEY');
    expect(configError(() => createModelClient({ provider: 'groq', apiKeyEnv: 'MY_GROQ' }, { env: {} }))).toMatch(/MY_GROQ or GROQ_API_KEY/);
  });

  it('takes apiKey before apiKeyEnv before the preset variable', () => {
    const env = { MY_KEY: 'from-my-key', OPENAI_API_KEY: 'from-openai' };
    expect(createModelClient({ provider: 'openai', apiKey: 'inline', apiKeyEnv: 'MY_KEY' }, { env }).normalizedConfig.apiKeySource).toBe('config');
    expect(createModelClient({ provider: 'openai', apiKeyEnv: 'MY_KEY' }, { env }).normalizedConfig.apiKeySource).toBe('env:MY_KEY');
    expect(createModelClient({ provider: 'openai', apiKeyEnv: 'UNSET' }, { env }).normalizedConfig.apiKeySource).toBe('env:OPENAI_API_KEY');
  });

  it('resolves the provider: explicit, else custom for a bare base URL, else the local default', () => {
    expect(createModelClient({ model: 'm', baseUrl: 'http://127.0.0.1:9/v1' }, { env: {} }).metadata.providerId).toBe('custom');
    const local = createModelClient({ model: 'qwen3' }, { env: {} });
    expect(local.metadata).toMatchObject({ providerId: 'ollama', baseUrl: 'http://127.0.0.1:11434/v1', local: true });
    expect(local.normalizedConfig.apiKeySource).toBe('none');
    expect(configError(() => createModelClient({ provider: 'nosuch' }, { env: {} }))).toMatch(/Unknown provider "nosuch".*openai, anthropic/);
    expect(createModelClient({ provider: 'my-gpu', baseUrl: 'http://10.0.0.2:8000/v1', model: 'm' }, { env: {} }).metadata).toMatchObject({ providerId: 'my-gpu', protocol: 'openai-compatible' });
    expect(configError(() => createModelClient({ provider: 'vllm' }, { env: {} }))).toMatch(/--model/);
    expect(configError(() => createModelClient({ provider: 'custom', model: 'm' }, { env: {} }))).toMatch(/--base-url/);
    expect(configError(() => createModelClient({ provider: 'vllm', model: 'm', parser: 'nope' }, { env: {} }))).toMatch(/Unknown parser "nope".*hermes/);
  });

  it('prices a local server at $0 only when the config marks it local', () => {
    expect(createModelClient({ provider: 'vllm', model: 'Qwen/Qwen3-8B' }, { env: {} }).metadata.pricing).toEqual({ kind: 'unpriced' });
    expect(createModelClient({ provider: 'vllm', model: 'Qwen/Qwen3-8B', local: true }, { env: {} }).metadata.pricing).toEqual({ kind: 'local' });
    expect(createModelClient({ provider: 'custom', baseUrl: 'http://127.0.0.1:9/v1', model: 'gpt-5-mini' }, { env: {} }).metadata.pricing.kind).toBe('table');
    expect(createModelClient({ provider: 'vllm', model: 'm', parser: 'hermes' }, { env: {} }).metadata.capabilities.nativeTools).toBe(false);
  });

  it('merges headers (preset defaults, then custom) and talks to an OpenAI-compatible server', async () => {
    const fake = await startFakeOpenAI([{ content: 'hello from the fake' }]);
    servers.push(fake);
    const { client, normalizedConfig } = createModelClient(
      { provider: 'openrouter', baseUrl: fake.url, model: 'vendor/model', headers: { 'X-Title': 'Mine', 'X-Extra': '1' } },
      { env: { OPENROUTER_API_KEY: KEY } },
    );
    const res = await client.chat({ messages: [{ role: 'user', content: 'hi' }], tools: [] });
    expect(res.content).toBe('hello from the fake');
    const headers = fake.modelRequests[0]!.headers;
    expect(headers['http-referer']).toContain('hindsight');
    expect(headers['x-title']).toBe('Mine');
    expect(headers['x-extra']).toBe('1');
    expect(headers.authorization).toBe(`Bearer ${KEY}`);
    expect(normalizedConfig.headerNames).toEqual(['HTTP-Referer', 'X-Extra', 'X-Title']);
    expect(JSON.stringify(normalizedConfig)).not.toContain(KEY);
  });

  it('routes anthropic to the Messages client, with timeouts and retries from the settings', async () => {
    const fake = await startFakeAnthropic([{ kind: 'raw', status: 500, body: { type: 'error', error: { type: 'api_error', message: 'x' } } }, { content: 'second try' }]);
    servers.push(fake);
    const retries: number[] = [];
    const { client, normalizedConfig } = createModelClient(
      { provider: 'anthropic', baseUrl: fake.url, model: 'claude-haiku-4-5', timeoutMs: 9_000, maxRetries: 1 },
      { env: { ANTHROPIC_API_KEY: KEY }, retry: { baseDelayMs: 1 }, onRetry: (n) => retries.push(n.attempt) },
    );
    expect([normalizedConfig.timeoutMs, normalizedConfig.maxRetries]).toEqual([9_000, 1]);
    const res = await client.chat({ messages: [{ role: 'user', content: 'hi' }], tools: [] });
    expect(res.content).toBe('second try');
    expect(retries).toEqual([1]);
  });
});
