// Who and where this machine is for sync: a machine id made once and kept in the config folder,
// the user and host name, the remote's URL, and the cache folders that hold staged mirrors.

import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir, hostname, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { InvalidMachineId, SyncFileInvalid } from './errors.js';
import { programName } from '../core/package-info.js';

export interface MachineIdentity {
  machineId: string;
  user: string;
  host: string;
}

function configHome(env: NodeJS.ProcessEnv): string {
  return env.XDG_CONFIG_HOME || join(homedir(), '.config');
}

/** `$XDG_CONFIG_HOME/hindsight/machine.json`: the machine id, made on first use. */
export function machineFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(configHome(env), programName(), 'machine.json');
}

/** `$XDG_CONFIG_HOME/hindsight/config.json`: `{"remote": "postgres://…"}`. */
export function configFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(configHome(env), programName(), 'config.json');
}

/**
 * A small JSON object file: null when it does not exist. A file that exists but cannot be read or
 * is not a JSON object is an error naming it: silently ignoring a damaged machine.json would make
 * this machine a new one, and its own earlier pushes another machine's.
 */
function readJson(path: string): Record<string, unknown> | null {
  if (!existsSync(path)) return null;
  let v: unknown;
  try {
    v = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw SyncFileInvalid(path, err instanceof SyntaxError ? `not JSON: ${err.message}` : (err as Error).message);
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw SyncFileInvalid(path, 'not a JSON object');
  return v as Record<string, unknown>;
}

// Machine ids are short and safe in paths: letters, digits, '-', '_' and '.'.
const ID_RE = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * This machine's identity: HINDSIGHT_MACHINE_ID (tests simulate two machines with it), else the
 * id in machine.json (made once); HINDSIGHT_USER, else the login name; the host name.
 */
export function machineIdentity(env: NodeJS.ProcessEnv = process.env): MachineIdentity {
  let machineId = env.HINDSIGHT_MACHINE_ID;
  if (machineId && !ID_RE.test(machineId)) {
    throw InvalidMachineId(machineId);
  }
  if (!machineId) {
    const file = machineFile(env);
    const json = readJson(file);
    const saved = json?.machine_id;
    if (json && !(typeof saved === 'string' && ID_RE.test(saved))) throw SyncFileInvalid(file, 'its machine_id is missing or not 1–64 letters, digits, ".", "-" or "_"');
    if (typeof saved === 'string') machineId = saved;
    else {
      machineId = randomUUID();
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, `${JSON.stringify({ machine_id: machineId, created: new Date().toISOString() }, null, 2)}\n`);
    }
  }
  let user = env.HINDSIGHT_USER;
  if (!user) {
    try {
      user = userInfo().username;
    } catch {
      user = env.USER || 'unknown';
    }
  }
  return { machineId, user, host: hostname() };
}

/** The remote's URL: the explicit one, else HINDSIGHT_REMOTE, else config.json's `remote`; null when none is configured. */
export function resolveRemote(explicit: string | undefined, env: NodeJS.ProcessEnv = process.env): string | null {
  if (explicit) return explicit;
  if (env.HINDSIGHT_REMOTE) return env.HINDSIGHT_REMOTE;
  const file = configFile(env);
  if (!existsSync(file)) return null;
  const remote = readJson(file)?.remote;
  if (remote !== undefined && (typeof remote !== 'string' || remote === '')) throw SyncFileInvalid(file, '"remote" must be a postgres:// URL');
  return typeof remote === 'string' ? remote : null;
}

/** `$XDG_CACHE_HOME/hindsight`: where staged mirrors live (safe to delete; the next sync rebuilds them). */
export function syncCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), programName());
}
