// Which commands refresh the default store before they read it (refresh.ts does it), and the
// flag that skips it: small, because main and the command table load it on every command.

import type { CommandFlag } from '../../tools/catalogue.js';

/** The report commands that refresh the default store before they read it. */
export const REFRESHING_COMMANDS: readonly string[] = ['usage', 'sessions', 'inspect'];

/** Declared once, added to each refreshing command (command-table.ts). */
export const NO_REFRESH_FLAG: CommandFlag = {
  name: 'no-refresh',
  type: 'boolean',
  help: 'read the store as it is, without first ingesting what changed in the default locations (only the default store is refreshed)',
};

/** Whether this command line refreshes: a refreshing command on the default store without --no-refresh. */
export function refreshes(command: string, db: string | undefined, noRefresh: boolean, env: NodeJS.ProcessEnv): boolean {
  return REFRESHING_COMMANDS.includes(command) && !noRefresh && db === undefined && !env.HINDSIGHT_DB;
}
