// The text each tool command prints, keyed by command name: the tools say what their commands
// take (src/tools/<tool>/cli.ts); how a result reads at a terminal is the CLI's business.

import type { AnyTool, CliSpec } from '../../tools/tool.js';
import type { Paint } from './colour.js';
import { renderBlocks } from './render-blocks.js';
import { renderMetrics } from './render-metrics.js';
import { renderConversation } from './render-timeline.js';
import { renderGrep, renderLedger, renderOverview, renderRewind, renderSearch, renderUsage } from './render-tools.js';

/** A tool command ready to run: the tool, its command line, and the arguments built from it. */
export interface PreparedCommand {
  tool: AnyTool;
  cli: CliSpec;
  positionals: readonly string[];
  /** The flags as parsed, by long name. */
  given: Readonly<Record<string, unknown>>;
  args: Record<string, unknown>;
}

export interface CommandOutput {
  stdout: string;
  stderr: string;
  code: number;
}

type Render = (result: Record<string, any>, paint: Paint, command: PreparedCommand) => string;

export const RENDERERS: Readonly<Record<string, Render>> = {
  show: (r, paint) => renderOverview(r, paint),
  timeline: (r, paint, c) => renderConversation(r, paint, { full: c.given.full === true, command: `hindsight timeline ${c.positionals[0]}` }),
  grep: (r, paint) => renderGrep(r, paint),
  search: (r, paint) => renderSearch(r, paint),
  usage: (r, paint, c) => (r.group_by === 'blocks' ? renderBlocks(r, paint, { active: c.given.active === true }) : renderUsage(r, paint)),
  rewind: (r, paint) => renderRewind(r, paint),
  inspect: (r, paint) => renderMetrics(r, paint),
  ledger: (r, paint) => renderLedger(r, paint),
};
