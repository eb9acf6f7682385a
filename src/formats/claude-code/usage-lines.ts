// What a usage pass reads of a Claude Code file (Importer.usageLines): the rest of a transcript
// (tool results, user text, hook progress: most of its bytes) cannot change a usage report, so a
// first report reads it as bytes and never decodes it.
//
// Kept, so that the parser meets every line that decides a call, its session or its project:
// - lines holding `"usage"`: assistant messages and the agent_progress lines that mirror a
//   sub-agent's (usage.ts); a line that only mentions the word costs a parse, nothing more;
// - in a session file, inline sidechain lines (`"isSidechain":true`): their chain decides the
//   sidechain's session id (sidechains.ts), so the whole chain is read;
// - lines holding `"cwd"` until one that is the session's own: the first of those names the
//   session's real project path (parser.ts, sendContext).
//
// The kept lines go through the transcript parser's own routing and handlers (parser.ts), but for
// assistant lines: those become their usage event alone (usageOfAssistant below), where a full
// parse makes an event with a summary per content block — most of a full parse's work.

import { createRewindParser, REWIND_LEDGER } from '../rewind-ledger.js';
import type { LineParser, ParserOptions, SourceFile, UsageLines } from '../importer.js';
import { asId, asObj, contentBlocks } from './json-access.js';
import type { LineScope } from './line-scope.js';
import { readMetaDocument } from './meta-document.js';
import { emitUnknown } from './other-lines.js';
import { agentIdOfLedger, createClaudeCodeParser, handle, HANDLERS, layoutOf } from './parser.js';
import { restoreState, snapshotState } from './parser-state.js';
import { rememberToolCalls } from './assistant-line.js';
import { readUsage } from './usage.js';
import { projectHead } from './huge-line.js';

const USAGE = Buffer.from('"usage"');
const SIDECHAIN = Buffer.from('"isSidechain":true');
const CWD = Buffer.from('"cwd"');

/** The next place `needle` occurs at or after a position, searched once across the bytes however often asked. */
function marks(bytes: Buffer, needle: Buffer) {
  let at = -2;
  return {
    from(from: number): number {
      if (at !== -1 && at < from) at = bytes.indexOf(needle, from);
      return at;
    },
    /** Whether the occurrence last found lies in [start, end). */
    within: (start: number, end: number): boolean => at >= start && at < end,
  };
}

/**
 * An assistant line as the usage pass needs it: the event that carries its usage, with the
 * fields the summariser reads of it (assistant-line.ts puts the usage on part 0, whatever block
 * that is), and its tool calls remembered as emitAssistant remembers them (results and inline
 * sidechains are matched to them).
 */
function usageOfAssistant(scope: LineScope): void {
  const { obj, ctx } = scope;
  const message = asObj(obj.message) ?? {};
  const lineUsage = readUsage(message, asId(obj.requestId), `${ctx.file.relPath}#${ctx.lineNumber}`);
  const attrs: Record<string, unknown> = {};
  if (lineUsage?.cacheWrite5m !== undefined) attrs.cacheWrite5m = lineUsage.cacheWrite5m;
  if (lineUsage?.cacheWrite1h !== undefined) attrs.cacheWrite1h = lineUsage.cacheWrite1h;
  scope.emit({ kind: 'llm_call', part: 0, actor: 'assistant', summary: '', attrs, ...(lineUsage && { usage: lineUsage.usage }) });
  rememberToolCalls(scope, Array.isArray(message.content) ? contentBlocks(message.content) : []);
}

/** The transcript parser with assistant lines read for their usage only. */
function usageParser(file: SourceFile, options: ParserOptions): LineParser {
  const state = restoreState(options.resumeState);
  const layout = layoutOf(file);
  return {
    line(obj, ctx) {
      const scope = handle(obj, ctx, state, layout, file);
      (scope.type === 'assistant' ? usageOfAssistant : (HANDLERS[scope.type] ?? emitUnknown))(scope);
    },
    hugeLine(head, ctx) {
      const scope = handle(projectHead(head).obj, ctx, state, layout, file);
      scope.emit({ kind: 'other', timestamp: null, summary: '', attrs: {} });
    },
    document: (doc, ctx) => readMetaDocument(doc, ctx),
    snapshot: () => snapshotState(state),
  };
}

export function usageLines(file: SourceFile, options: ParserOptions): UsageLines | null {
  // Hindsight's rewind ledger holds no calls (its own parser reads nothing then).
  if (file.ledger === REWIND_LEDGER) return { keep: () => false, parser: createRewindParser(file) };
  // Documents (sub-agent .meta files) are parsed whole: the full parser reads them.
  if (file.kind === 'document') return { keep: () => true, parser: createClaudeCodeParser(file, options) };
  const agentFile = agentIdOfLedger(file.ledger) !== undefined;
  let ownCwdSeen = false;
  return {
    keep(line) {
      if (line.includes(USAGE)) return true;
      const sidechain = !agentFile && line.includes(SIDECHAIN);
      if (sidechain) return true;
      if (!ownCwdSeen && line.includes(CWD)) {
        ownCwdSeen = true;
        return true;
      }
      return false;
    },
    // The same rule, each mark searched once across the file: a line holding none is never looked at.
    scan(bytes) {
      const usage = marks(bytes, USAGE);
      const sidechain = agentFile ? null : marks(bytes, SIDECHAIN);
      const cwd = marks(bytes, CWD);
      return {
        next(from) {
          let first = usage.from(from);
          const side = sidechain?.from(from) ?? -1;
          if (side !== -1 && (first === -1 || side < first)) first = side;
          const place = ownCwdSeen ? -1 : cwd.from(from);
          if (place !== -1 && (first === -1 || place < first)) first = place;
          return first;
        },
        keep(start, end) {
          if (usage.within(start, end)) return true;
          if (sidechain?.within(start, end)) return true;
          if (!ownCwdSeen && cwd.within(start, end)) {
            ownCwdSeen = true;
            return true;
          }
          return false;
        },
      };
    },
    parser: usageParser(file, options),
  };
}
