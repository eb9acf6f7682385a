// What a usage pass reads of a runtime session file (Importer.usageLines): the records that decide
// its usage report. A model_call record is one LLM call with its own time, model and tokens
// (parser.ts, modelCall); the session_start record names the session's project, its parent (a
// handoff child) and, when it is repeated, a resume. Messages, tool results, spans and logs — the
// bulk of a file — change no call, so they are never decoded.

import type { SourceFile, UsageLines } from '../importer.js';

// The recorder writes compact JSON (src/runtime/recording/recorder.ts): the type value is quoted
// exactly so; a record that merely mentions one of them is parsed too, and changes nothing.
const MODEL_CALL = Buffer.from('"model_call"');
const SESSION_START = Buffer.from('"session_start"');

export function hindsightUsageLines(_file: SourceFile): UsageLines {
  return { keep: (line) => line.includes(MODEL_CALL) || line.includes(SESSION_START) };
}
