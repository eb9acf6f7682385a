// The parser pipeline's entry points: a whole output or a stream of deltas, for a parser id.
// Order (seed §5): reasoning sanitizer → format classification → repair → parse. The sanitizer
// runs first inside the streamer; classification and repair run per call region in the parsers.

import { builtInParsers } from './index.js';
import { RegionStreamer } from './region-streamer.js';
import type { ParseOptions, ParseResult, ToolCallStreamer } from './types.js';

/** Parse a whole model output with the parser `parserId` (an id or alias). Never throws for bad output. */
export function parseToolCalls(parserId: string, text: string, options: ParseOptions = {}): ParseResult {
  const streamer = createToolCallStreamer(parserId, options);
  streamer.push(text);
  streamer.finish();
  return streamer.result();
}

/** A streaming parse; feeding all deltas then finish() gives parseToolCalls' result for their concatenation. */
export function createToolCallStreamer(parserId: string, options: ParseOptions = {}): ToolCallStreamer {
  return new RegionStreamer(builtInParsers().get(parserId), options);
}

/** Feed deltas one by one; the final result. */
export function parseToolCallDeltas(parserId: string, deltas: readonly string[], options: ParseOptions = {}): ParseResult {
  const streamer = createToolCallStreamer(parserId, options);
  for (const d of deltas) streamer.push(d);
  streamer.finish();
  return streamer.result();
}
