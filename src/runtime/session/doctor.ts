// `hindsight doctor`: is the runtime ready to run here? The config file reads, the provider
// resolves and its key is present (named by where it comes from, never shown), the provider
// answers and lists the model, the store opens, and sessions can be recorded. Each check says
// what is wrong and what to do.

import { accessSync, constants, existsSync, mkdirSync } from 'node:fs';
import { defaultSessionsRoot } from '../../formats/hindsight/index.js';
import { configPath, loadConfigFile, providerSettingsOf, resolveRuntimeConfig } from '../config/index.js';
import { createModelClient } from '../providers/index.js';
import type { AgentFlagValues } from './build-runtime.js';

export interface DoctorCheck {
  name: string;
  ok: boolean;
  detail: string;
}

export interface DoctorReport {
  ok: boolean;
  checks: DoctorCheck[];
}

/** How long the provider gets to list its models before doctor says it does not answer. */
const PROBE_TIMEOUT_MS = 10_000;

export async function runDoctor(input: { flags: AgentFlagValues; env: NodeJS.ProcessEnv; cwd: string }): Promise<DoctorReport> {
  const checks: DoctorCheck[] = [];
  const add = (name: string, ok: boolean, detail: string) => checks.push({ name, ok, detail });
  const path = configPath(input.env);

  let fileConfig = {};
  try {
    const loaded = loadConfigFile(path);
    fileConfig = loaded.config;
    add('config', true, existsSync(path) ? `${path} reads` : `no ${path}; using flags and defaults`);
  } catch (err) {
    add('config', false, (err as Error).message);
  }

  try {
    const config = resolveRuntimeConfig(fileConfig, input.flags, input.env);
    // The probe answers quickly or not at all: a short timeout, no retries.
    const { client, metadata, normalizedConfig } = createModelClient(
      { ...providerSettingsOf(config), timeoutMs: Math.min(config.timeoutMs, PROBE_TIMEOUT_MS), maxRetries: 0 },
      { env: input.env },
    );
    add('provider', true, `${metadata.displayName} (${metadata.protocol}) at ${metadata.baseUrl}, model ${metadata.model}`);
    add(
      'api key',
      true,
      normalizedConfig.apiKeySource === 'none'
        ? 'none needed (local server)'
        : normalizedConfig.apiKeySource === 'config'
          ? 'present (from the config file)'
          : `present (from ${normalizedConfig.apiKeySource.slice(4)})`,
    );
    if (!client.listModels) add('model', true, `${metadata.displayName} has no model list to check ${metadata.model} against`);
    else {
      try {
        const models = await client.listModels(AbortSignal.timeout(PROBE_TIMEOUT_MS));
        const listed = models.includes(metadata.model);
        add(
          'model',
          listed || models.length === 0,
          listed
            ? `the provider answers and lists ${metadata.model}`
            : models.length === 0
              ? 'the provider answers (its model list is empty)'
              : `the provider answers but does not list ${metadata.model}; it lists ${models.slice(0, 8).join(', ')}${models.length > 8 ? ', …' : ''}`,
        );
      } catch (err) {
        add('model', false, `the provider did not answer: ${(err as Error).message}`);
      }
    }
  } catch (err) {
    add('provider', false, (err as Error).message);
  }

  try {
    const { openStore } = await import('../../store/open.js');
    const store = await openStore({ db: input.flags.db, env: input.env, mustExist: true });
    add('store', true, `${store.location} opens`);
    await store.close();
  } catch (err) {
    add('store', false, `${(err as Error).message} (hindsight ingest creates the store)`);
  }

  const root = defaultSessionsRoot(input.env);
  try {
    mkdirSync(root, { recursive: true });
    accessSync(root, constants.W_OK);
    add('recording', true, `sessions are recorded under ${root}`);
  } catch (err) {
    add('recording', false, `cannot write ${root}: ${(err as Error).message}`);
  }

  return { ok: checks.every((c) => c.ok), checks };
}
