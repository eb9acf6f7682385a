// Which flags each command takes: the one table main.ts checks every command line against, so a
// flag a command does not use is a usage error (exit 2) instead of being silently ignored
// (`sessions --json` used to print the table). parseArgs itself refuses flags no command knows.

import { UsageError } from './usage-error.js';

/** Flags every command accepts. */
const EVERYWHERE = ['help', 'version', 'no-color'] as const;

/** Per command, the flags it reads (long names, as main.ts's parseArgs declares them). */
export const COMMAND_FLAGS: Record<string, readonly string[]> = {
  ingest: ['db', 'format', 'json', 'wait'],
  sessions: ['db', 'format', 'project', 'top-level', 'limit', 'offset', 'json'],
  session: ['db'],
  show: ['db', 'json', 'raw'],
  timeline: ['db', 'json', 'raw', 'full', 'kind', 'limit', 'offset'],
  grep: ['db', 'json', 'session', 'format', 'project', 'since', 'ignore-case', 'ledger', 'root', 'limit', 'offset'],
  ledger: ['db', 'json', 'raw', 'ledger', 'type', 'session', 'root', 'limit', 'offset'],
  // --format: the old spelling of --as, read with a deprecation notice.
  export: ['db', 'as', 'format', 'out', 'no-subagents', 'raw'],
  search: ['db', 'json', 'raw', 'scope', 'project', 'date-range', 'format', 'limit', 'offset'],
  usage: ['db', 'json', 'since', 'until', 'breakdown', 'mode', 'project', 'format', 'timezone', 'order', 'active', 'now', 'limit', 'offset'],
  inspect: ['db', 'json', 'raw', 'metrics', 'session', 'stats', 'days', 'until', 'format', 'project', 'mode', 'limit', 'offset'],
  rewind: ['db', 'json', 'to-turn', 'to-message', 'before', 'apply', 'force'],
  mcp: ['db', 'root', 'http', 'host', 'port', 'token', 'tools', 'output-schemas'],
  serve: ['db', 'root', 'host', 'port', 'token'],
  token: ['db', 'json', 'user', 'projects', 'read-only'],
  sync: ['db', 'json', 'remote'],
  tools: ['json'],
  'parse-tools': ['parser', 'tools', 'deltas'],
  tool: ['db', 'root'],
};

/**
 * Refuse a flag the command does not take. `given` are the long names of the options on the
 * command line (parseArgs tokens). An unknown command is left to main, which names the commands.
 */
export function checkFlags(command: string, given: Iterable<string>): void {
  const allowed = COMMAND_FLAGS[command];
  if (!allowed) return;
  for (const name of given) {
    if ((EVERYWHERE as readonly string[]).includes(name) || allowed.includes(name)) continue;
    const takes = allowed.length ? `it takes ${allowed.map((f) => `--${f}`).join(', ')}` : 'it takes no options';
    throw new UsageError(`hindsight ${command} does not take --${name}; ${takes} (see hindsight --help)`);
  }
}
