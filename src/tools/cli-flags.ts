// Flags several tools' commands share, declared once here so that `--limit` or `--format` reads,
// types and explains itself the same way on every command. A tool's cli.ts lists the ones it
// takes (with the argument and default that are its own) beside the flags only it has.

import { FORMATS } from '../formats/registry.js';
import type { CliFlag } from './tool.js';

/** --limit N: how many rows; `arg` when the tool calls it something else (max_entries). */
export function limitFlag(options: { default?: number; arg?: string; min?: number; max?: number } = {}): CliFlag {
  const { arg = 'limit', ...rest } = options;
  return { name: 'limit', type: 'integer', value: 'N', help: 'how many rows to show', arg, ...rest };
}

/** --offset N: where a page starts (next-page hints print it). */
export function offsetFlag(options: { min?: number; default?: number } = {}): CliFlag {
  return { name: 'offset', type: 'integer', value: 'N', help: 'how many rows to skip (the next-page hint gives it)', arg: 'offset', ...options };
}

/** --raw: the text as written, secrets included. */
export const rawFlag: CliFlag = { name: 'raw', type: 'boolean', help: 'do not redact secrets in the text shown', arg: 'redact', sets: false };

/** --format F: only sessions of one source format (every report and list). */
export const sourceFormatFlag: CliFlag = {
  name: 'format',
  type: 'string',
  value: 'F',
  help: `only sessions of this source format: ${FORMATS.join(' | ')}`,
  arg: 'format',
  choices: FORMATS,
};

/** --project P: only one project's sessions. */
export const projectFlag: CliFlag = {
  name: 'project',
  type: 'string',
  value: 'P',
  help: 'only sessions of this project (slug folder name, path or plane root)',
  arg: 'project',
};

/** --session ID: only one session's lines or entries. */
export const sessionFilterFlag: CliFlag = {
  name: 'session',
  type: 'string',
  value: 'ID',
  help: 'only this session (id or unique prefix)',
  arg: 'session_id',
};

/** --ledger L: one ledger (ho1m, ho2m, governance, or a Claude Code / Amplifier ledger). */
export const ledgerFlag: CliFlag = { name: 'ledger', type: 'string', value: 'L', help: 'one ledger (e.g. ho2m, governance)', arg: 'ledger' };

/** --root PATH: which ingested Control Plane root a ledger is read from. */
export const rootFlag: CliFlag = { name: 'root', type: 'string', value: 'PATH', help: 'a Control Plane root as ingested', arg: 'root' };

/** --until YYYY-MM-DD: the last day counted. */
export const untilFlag: CliFlag = { name: 'until', type: 'string', value: 'YYYY-MM-DD', help: 'the last day counted', arg: 'until' };
