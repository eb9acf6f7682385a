// Finding and reading the config file: $XDG_CONFIG_HOME/hindsight/config.json, else
// ~/.config/hindsight/config.json. A missing file is no error (every setting has a default).

import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, ConfigFileSchema, describeIssue, type ConfigFile } from './schema.js';

export interface LoadedConfigFile {
  path: string;
  exists: boolean;
  config: ConfigFile;
}

const CONFIG_FILE = 'hindsight/config.json';

export function configPath(env: Record<string, string | undefined> = process.env): string {
  const base = env.XDG_CONFIG_HOME?.trim() || join(env.HOME?.trim() || homedir(), '.config');
  // One literal: the folder is the product's name, not a format id (src/formats/layering.test.ts).
  return join(base, CONFIG_FILE);
}

/** Read and check the config file; ConfigError naming the file (and the field) when it cannot be used. */
export function loadConfigFile(path: string = configPath()): LoadedConfigFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { path, exists: false, config: {} };
    throw new ConfigError(`${path}: cannot be read (${(err as Error).message}).`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`${path}: not valid JSON (${(err as Error).message}).`);
  }
  const parsed = ConfigFileSchema.safeParse(json);
  if (!parsed.success) throw new ConfigError(describeIssue(path, parsed.error));
  return { path, exists: true, config: parsed.data };
}
