// The lines of a Claude Code file a usage pass must parse (Importer.usageLines): the rest of a
// transcript (tool results, user text, hook progress: most of its bytes) cannot change a usage
// report, so a first report reads it as bytes and never decodes it.
//
// Kept, so that the parser meets every line that decides a call, its session or its project:
// - lines holding `"usage"`: assistant messages and the agent_progress lines that mirror a
//   sub-agent's (usage.ts); a line that only mentions the word costs a parse, nothing more;
// - in a session file, inline sidechain lines (`"isSidechain":true`): their chain decides the
//   sidechain's session id (sidechains.ts), so the whole chain is read;
// - lines holding `"cwd"` until one that is the session's own: the first of those names the
//   session's real project path (parser.ts, sendContext).

import type { SourceFile } from '../importer.js';
import { REWIND_LEDGER } from '../rewind-ledger.js';
import { agentIdOfLedger } from './parser.js';

const USAGE = Buffer.from('"usage"');
const SIDECHAIN = Buffer.from('"isSidechain":true');
const CWD = Buffer.from('"cwd"');

export function usageLines(file: SourceFile): ((line: Buffer) => boolean) | null {
  // The rewind ledger and documents hold no calls; documents are parsed whole whatever this says.
  if (file.ledger === REWIND_LEDGER) return () => false;
  const agentFile = agentIdOfLedger(file.ledger) !== undefined;
  let ownCwdSeen = false;
  return (line) => {
    if (line.includes(USAGE)) return true;
    const sidechain = !agentFile && line.includes(SIDECHAIN);
    if (sidechain) return true;
    if (!ownCwdSeen && line.includes(CWD)) {
      ownCwdSeen = true;
      return true;
    }
    return false;
  };
}
