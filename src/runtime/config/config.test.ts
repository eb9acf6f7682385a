// The config file under a temporary XDG_CONFIG_HOME, and how flags, file and environment combine.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, configPath, loadConfigFile, loadRuntimeConfig, resolveRuntimeConfig, RUNTIME_FLAGS } from './index.js';

let home: string;
let env: Record<string, string | undefined>;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'hindsight-config-'));
  env = { XDG_CONFIG_HOME: home };
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

function writeConfig(content: unknown): string {
  mkdirSync(join(home, 'hindsight'), { recursive: true });
  const path = join(home, 'hindsight', 'config.json');
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

function configFailure(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('runtime config', () => {
  it('lives in $XDG_CONFIG_HOME/hindsight/config.json, else ~/.config/hindsight/config.json', () => {
    expect(configPath(env)).toBe(join(home, 'hindsight', 'config.json'));
    expect(configPath({ HOME: '/home/someone' })).toBe('/home/someone/.config/hindsight/config.json');
  });

  it('uses the defaults when the file is missing', () => {
    expect(loadConfigFile(configPath(env))).toMatchObject({ exists: false, config: {} });
    expect(loadRuntimeConfig({}, env)).toEqual({
      provider: 'ollama',
      headers: {},
      local: false,
      stream: true,
      timeoutMs: 120_000,
      maxRetries: 3,
      budgetUsd: null,
      maxSteps: 50,
      logLevel: 'info',
      toolsAllowed: null,
    });
  });

  it('reads a full file', () => {
    writeConfig({
      provider: 'vllm',
      model: 'qwen3-coder',
      baseUrl: 'http://10.0.0.5:8000/v1',
      apiKeyEnv: 'VLLM_KEY',
      headers: { 'X-Team': 'a' },
      parser: 'qwen3_xml',
      local: true,
      stream: false,
      timeoutMs: 30_000,
      maxRetries: 1,
      budgetUsd: 2.5,
      maxSteps: 12,
      logLevel: 'debug',
      toolsAllowed: ['read', 'bash'],
    });
    expect(loadRuntimeConfig({}, env)).toEqual({
      provider: 'vllm',
      model: 'qwen3-coder',
      baseUrl: 'http://10.0.0.5:8000/v1',
      apiKeyEnv: 'VLLM_KEY',
      headers: { 'X-Team': 'a' },
      parser: 'qwen3_xml',
      local: true,
      stream: false,
      timeoutMs: 30_000,
      maxRetries: 1,
      budgetUsd: 2.5,
      maxSteps: 12,
      logLevel: 'debug',
      toolsAllowed: ['read', 'bash'],
    });
  });

  it('names the file and the field when the file is wrong', () => {
    const path = writeConfig('{"provider": "vllm",');
    expect(configFailure(() => loadConfigFile(path))).toMatch(new RegExp(`^${path}: not valid JSON`));
    writeConfig({ maxSteps: 'ten' });
    expect(configFailure(() => loadRuntimeConfig({}, env))).toMatch(/config\.json: "maxSteps" expected number, received string/);
    writeConfig({ providers: { vllm: { timeoutMs: -1 } } });
    expect(configFailure(() => loadRuntimeConfig({}, env))).toMatch(/config\.json: "providers\.vllm\.timeoutMs"/);
    writeConfig({ modle: 'x' });
    expect(configFailure(() => loadRuntimeConfig({}, env))).toMatch(/config\.json: unknown field "modle"/);
    writeConfig({ baseUrl: 'not a url' });
    expect(configFailure(() => loadRuntimeConfig({}, env))).toMatch(/"baseUrl" invalid url/i);
  });

  it('puts flags over the file over the environment over defaults', () => {
    const file = { provider: 'openrouter', model: 'file-model', budgetUsd: 1, maxSteps: 5, logLevel: 'warn' as const };
    const flagged = resolveRuntimeConfig(file, { model: 'flag-model', budget: '0.25', 'max-steps': '7', 'log-level': 'trace' }, { HINDSIGHT_LOG_LEVEL: 'error' });
    expect(flagged).toMatchObject({ provider: 'openrouter', model: 'flag-model', budgetUsd: 0.25, maxSteps: 7, logLevel: 'trace' });
    expect(resolveRuntimeConfig(file, {}, { HINDSIGHT_LOG_LEVEL: 'error' }).logLevel).toBe('warn');
    expect(resolveRuntimeConfig({}, {}, { HINDSIGHT_LOG_LEVEL: 'DEBUG' }).logLevel).toBe('debug');
    expect(configFailure(() => resolveRuntimeConfig({}, {}, { HINDSIGHT_LOG_LEVEL: 'loud' }))).toMatch(/HINDSIGHT_LOG_LEVEL/);
  });

  it('checks flag values and names the flag', () => {
    expect(configFailure(() => resolveRuntimeConfig({}, { budget: 'lots' }))).toMatch(/^--budget: /);
    expect(configFailure(() => resolveRuntimeConfig({}, { 'max-steps': '2.5' }))).toMatch(/^--max-steps: /);
    expect(configFailure(() => resolveRuntimeConfig({}, { 'base-url': 'nope' }))).toMatch(/^--base-url: /);
    expect(configFailure(() => resolveRuntimeConfig({}, { 'log-level': 'loud' }))).toMatch(/^--log-level: /);
  });

  it('applies providers.<id> overrides, and drops the file server settings when a flag switches provider', () => {
    const file = {
      provider: 'openrouter',
      model: 'anthropic/claude-sonnet-4.5',
      apiKeyEnv: 'OR_KEY',
      timeoutMs: 60_000,
      providers: { vllm: { baseUrl: 'http://gpu:8000/v1', model: 'qwen3', local: true }, openrouter: { model: 'openai/gpt-5' } },
    };
    expect(resolveRuntimeConfig(file, {})).toMatchObject({ provider: 'openrouter', model: 'openai/gpt-5', apiKeyEnv: 'OR_KEY', timeoutMs: 60_000 });
    const switched = resolveRuntimeConfig(file, { provider: 'vllm' });
    expect(switched).toMatchObject({ provider: 'vllm', model: 'qwen3', baseUrl: 'http://gpu:8000/v1', local: true, timeoutMs: 60_000 });
    expect(switched.apiKeyEnv).toBeUndefined();
    expect(resolveRuntimeConfig({}, { 'base-url': 'http://127.0.0.1:1234/v1', model: 'm' }).provider).toBe('custom');
  });

  it('declares each flag once, each naming a config field', () => {
    expect(RUNTIME_FLAGS.map((f) => f.name)).toEqual(['provider', 'model', 'base-url', 'parser', 'budget', 'max-steps', 'log-level']);
    expect(RUNTIME_FLAGS.map((f) => f.field)).toEqual(['provider', 'model', 'baseUrl', 'parser', 'budgetUsd', 'maxSteps', 'logLevel']);
  });
});
