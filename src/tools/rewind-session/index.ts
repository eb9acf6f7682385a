// rewind_session: cut a session's own files back to a turn, a message or a time so the agent can
// resume from there. Dry run by default; apply writes backups first, then truncates. Claude Code
// and Amplifier only: Control Plane ledgers are append-only and hash-chained.

import { z } from 'zod';
import { InvalidArguments } from '../../core/errors.js';
import { defineTool } from '../tool.js';
import { examples } from './examples.js';
import { cli } from './cli.js';
import { applyRewind } from './apply.js';
import type { RewindTarget } from '../../formats/profile.js';
import { planRewind, type RewindPlan } from './plan.js';

const position = (name: string) =>
  z
    .number({ invalid_type_error: `${name} must be a whole number of 1 or more` })
    .int(`${name} must be a whole number of 1 or more`)
    .optional();

const input = z
  .object({
    session_id: z.string().min(1).describe('The session to rewind (see list_sessions).'),
    to_turn: position('to_turn').describe('Keep turns 1..N: cut before the user prompt that starts turn N+1.'),
    to_message: position('to_message').describe(
      'Keep the first N messages. A message is a user prompt or an assistant response (Claude Code: the lines of one API response count once); tool results go with their call.',
    ),
    before_timestamp: z.string().min(1).optional().describe('ISO-8601 time: cut before the first line at or after it.'),
    before: z.string().min(1).optional().describe('Alias of before_timestamp.'),
    dry_run: z
      .boolean()
      .optional()
      .describe('Preview only, change nothing (default true). dry_run: false applies the rewind (the same as apply: true).'),
    apply: z.boolean().optional().describe('Actually rewrite the files: the same as dry_run: false (the CLI spells it --apply).'),
    force: z.boolean().default(false).describe('Apply even when a file changed in the last 60 seconds (probably a running session).'),
  })
  .strict();

const fileShape = z.object({
  ledger: z.string(),
  file: z.string(),
  path: z.string(),
  lines_before: z.number().int(),
  lines_after: z.number().int(),
  bytes_before: z.number().int(),
  bytes_after: z.number().int(),
});

function beforeOf(args: z.infer<typeof input>): string | undefined {
  if (args.before !== undefined && args.before_timestamp !== undefined && args.before !== args.before_timestamp) {
    throw InvalidArguments(`before is an alias of before_timestamp; they differ (${args.before} and ${args.before_timestamp}): pass one.`);
  }
  return args.before_timestamp ?? args.before;
}

function targetOf(args: z.infer<typeof input>): RewindTarget {
  const before = beforeOf(args);
  const given = [args.to_turn !== undefined, args.to_message !== undefined, before !== undefined].filter(Boolean).length;
  if (given !== 1) throw InvalidArguments(`pass exactly one of to_turn, to_message or before_timestamp (alias before) (got ${given}).`);
  if (args.to_turn !== undefined) return { kind: 'turn', n: args.to_turn };
  if (args.to_message !== undefined) return { kind: 'message', n: args.to_message };
  return { kind: 'time', at: before! };
}

/** Whether to apply: dry_run (the seed's name, default true) and apply (the CLI's) must not contradict each other. */
function appliesOf(args: z.infer<typeof input>): boolean {
  if (args.dry_run === true && args.apply === true) throw InvalidArguments('dry_run: true and apply: true contradict each other: pass one.');
  if (args.dry_run === false && args.apply === false) throw InvalidArguments('dry_run: false and apply: false contradict each other: pass one.');
  return args.dry_run === false || args.apply === true;
}

/** The seed's result fields, beside Hindsight's own. */
function seedFields(body: RewindPlan['body'], backupCreated: boolean) {
  return {
    would_remove: { messages: body.removed.messages, events: body.removed.events },
    new_turn_count: body.turn_count_after,
    backup_created: backupCreated,
  };
}

export const rewindSession = defineTool({
  name: 'rewind_session',
  mcpSets: ['admin'],
  examples, cli,
  title: 'Rewind a session',
  // With apply: true it truncates the agent's own log files (backups first).
  destructive: true,
  description:
    "Cut a Claude Code or Amplifier session back to a turn (to_turn), a message (to_message) or a time (before_timestamp, alias before) so the agent can resume from there. dry_run defaults to true: returns would_remove {messages, events}, new_turn_count and backup_created (false on a dry run) as the seed names them, plus the resolved cut (file and line), each file's lines and bytes before and after, removed (messages, events, tool calls) and the turn count before and after. The cut never separates a tool call from its result (it moves before the call). With dry_run: false (or apply: true) it refuses files changed since the last ingest or in the last 60 seconds (unless force), writes `<file>.bak-pre-rewind-<timestamp>` backups, truncates, and appends a REWIND entry to the session's rewind ledger (hindsight-rewinds.jsonl in the session's folder, rewind_ledger); re-ingest afterwards: the store keeps the removed lines as an earlier generation and records the REWIND entry as a `rewind` finding, and sync push carries it to the shared store. Control Plane sessions are refused (REWIND_REFUSED): their ledgers are hash-chained.",
  input,
  output: z.object({
    status: z.literal('ok'),
    would_remove: z.object({ messages: z.number().int(), events: z.number().int() }),
    new_turn_count: z.number().int(),
    backup_created: z.boolean(),
    dry_run: z.boolean(),
    session_id: z.string(),
    format: z.string(),
    target: z.object({
      kind: z.enum(['turn', 'message', 'time']),
      requested: z.union([z.number(), z.string()]),
      ledger: z.string(),
      file: z.string(),
      line_number: z.number().int(),
      timestamp: z.string().nullable(),
      adjusted: z.boolean(),
      moved_before_tool_calls: z.array(z.string()),
    }),
    files: z.array(fileShape),
    removed: z.object({ messages: z.number().int(), events: z.number().int(), tool_calls: z.number().int() }),
    nothing_to_remove: z.boolean(),
    turn_count_before: z.number().int(),
    turn_count_after: z.number().int(),
    message_count_before: z.number().int(),
    message_count_after: z.number().int(),
    subagents_left_in_place: z.array(z.object({ session_id: z.string(), kind: z.string(), files: z.array(z.string()) })),
    metadata: z.object({ file: z.string(), turn_count: z.number().nullable(), stale: z.boolean() }).nullable(),
    warnings: z.array(z.string()),
    applied: z.boolean(),
    backups: z.array(z.object({ file: z.string(), path: z.string(), backup: z.string(), bytes: z.number().int() })).optional(),
    recorded: z.boolean().optional(),
    rewind_ledger: z.string().optional(),
    next: z.string().optional(),
  }),
  async handler(args, { store }) {
    const target = targetOf(args);
    const applies = appliesOf(args);
    const plan = await planRewind(store, args.session_id, target);
    if (!applies || plan.changes.length === 0) return { ...seedFields(plan.body, false), ...plan.body, dry_run: !applies, applied: false };
    const outcome = await applyRewind(store, plan, { force: args.force, now: Date.now() });
    return {
      ...seedFields(plan.body, outcome.backups.length > 0),
      ...plan.body,
      dry_run: false,
      applied: true,
      backups: outcome.backups,
      recorded: true,
      rewind_ledger: outcome.rewindLedger,
      next: `hindsight ingest ${plan.session.root ?? '<root>'}`,
    };
  },
});
