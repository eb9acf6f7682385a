// Machine identity and the remote's precedence: made once and kept, overridable, refused when unusable.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers.js';
import { configFile, machineFile, machineIdentity, resolveRemote } from './identity.js';

describe('machine identity', () => {
  it('is made once in $XDG_CONFIG_HOME/hindsight/machine.json and kept', () => {
    const env = { XDG_CONFIG_HOME: tempDir(), HINDSIGHT_USER: 'ana' };
    const first = machineIdentity(env);
    expect(first.machineId).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.user).toBe('ana');
    expect(JSON.parse(readFileSync(machineFile(env), 'utf8')).machine_id).toBe(first.machineId);
    expect(machineIdentity(env).machineId).toBe(first.machineId);
  });

  it('takes HINDSIGHT_MACHINE_ID over the file, and refuses an id unsafe in paths', () => {
    const env = { XDG_CONFIG_HOME: tempDir(), HINDSIGHT_MACHINE_ID: 'laptop-2' };
    expect(machineIdentity(env).machineId).toBe('laptop-2');
    expect(() => machineIdentity({ ...env, HINDSIGHT_MACHINE_ID: '../etc' })).toThrow(/HINDSIGHT_MACHINE_ID "\.\.\/etc" is not usable/);
  });
});

describe('the remote', () => {
  it('comes from --remote, else HINDSIGHT_REMOTE, else config.json, else none', () => {
    const env: NodeJS.ProcessEnv = { XDG_CONFIG_HOME: tempDir() };
    expect(resolveRemote(undefined, env)).toBeNull();
    mkdirSync(join(env.XDG_CONFIG_HOME!, 'hindsight'), { recursive: true });
    writeFileSync(configFile(env), JSON.stringify({ remote: 'postgres://cfg@db/h' }));
    expect(resolveRemote(undefined, env)).toBe('postgres://cfg@db/h');
    env.HINDSIGHT_REMOTE = 'postgres://env@db/h';
    expect(resolveRemote(undefined, env)).toBe('postgres://env@db/h');
    expect(resolveRemote('postgres://flag@db/h', env)).toBe('postgres://flag@db/h');
  });
});

describe('damaged files', () => {
  it('a machine.json or config.json that exists but is not usable is an error naming the file, never silently replaced', () => {
    const env: NodeJS.ProcessEnv = { XDG_CONFIG_HOME: tempDir() };
    mkdirSync(join(env.XDG_CONFIG_HOME!, 'hindsight'), { recursive: true });
    for (const body of ['{"machine_id": "abc"', '[]', '{"machine_id": "../x"}', '{}', '']) {
      writeFileSync(machineFile(env), body);
      expect(() => machineIdentity(env), body).toThrow(new RegExp(`${machineFile(env).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} cannot be used`));
      expect(readFileSync(machineFile(env), 'utf8'), body).toBe(body);
    }
    for (const body of ['not json', '"postgres://x@h/db"', '{"remote": 5}', '{"remote": ""}']) {
      writeFileSync(configFile(env), body);
      expect(() => resolveRemote(undefined, env), body).toThrow(/config\.json cannot be used/);
    }
  });
});
