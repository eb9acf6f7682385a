// The errors sync raises, each defined once (mapped to HTTP statuses in surfaces/http/status-map.ts).

import { defineError } from '../core/errors.js';
import { withoutPassword } from '../store/locations.js';

export const SyncNoRemote = defineError(
  'SYNC_NO_REMOTE',
  (configPath: string) =>
    `No sync remote is configured. Pass --remote postgres://user@host:5432/database?schema=name, set HINDSIGHT_REMOTE, or write {"remote": "postgres://…"} to ${configPath}.`,
);

export const SyncRemoteNotPostgres = defineError(
  'SYNC_REMOTE_INVALID',
  (remote: string) =>
    `The sync remote "${withoutPassword(remote)}" is not a PostgreSQL URL. A remote is a shared PostgreSQL store: postgres://user@host:5432/database?schema=name.`,
);

export const SyncRemoteUnreachable = defineError(
  'SYNC_REMOTE_UNREACHABLE',
  (remote: string, reason: string) =>
    `Cannot reach the sync remote at ${remote} (${reason}). Nothing was changed in the local store; check that the server is running and the URL is right, then run the sync again (it resumes where it stopped).`,
);

export const SyncLocalNotFile = defineError(
  'SYNC_LOCAL_INVALID',
  (location: string) =>
    `Sync works from a local SQLite store, and ${location} is not one. Pass --db FILE (or HINDSIGHT_DB) naming this machine's SQLite store; the PostgreSQL store is the remote (--remote).`,
);

export const SyncFileInvalid = defineError(
  'SYNC_FILE_INVALID',
  (path: string, reason: string) =>
    `${path} cannot be used (${reason}). Fix it, or delete it: machine.json is made again (this machine then counts as a new one), config.json only names the remote.`,
);

export const InvalidMachineId = defineError(
  'SYNC_BAD_MACHINE_ID',
  (id: string) => `HINDSIGHT_MACHINE_ID "${id}" is not usable: use 1–64 letters, digits, '.', '-' or '_'.`,
);
