// The shapes every tool-call parser shares: what a parse returns, what a streamer emits, and the
// one definition a model family's parser consists of (docs/parsers.md, "Adding a parser").

/** A parsed call: arguments are a JSON object, or the raw text when no repair could make them JSON. */
export interface ToolCall {
  name: string;
  arguments: Record<string, unknown> | string;
}

export interface ParseError {
  /** A stable code: unrepairable_json, no_call_in_region, truncated_region, bad_call, … */
  code: string;
  message: string;
}

export interface ParseResult {
  calls: ToolCall[];
  /** Text outside the calls; null when there is none (empty or only whitespace). */
  content: string | null;
  /** Text of leaked reasoning blocks (<think>…</think> and the like); null when there were none. */
  reasoning: string | null;
  parse_errors: ParseError[];
}

/** The fixtures' tool shape: a name and a JSON Schema for the arguments. */
export interface ToolSchema {
  name: string;
  parameters?: Record<string, unknown>;
}

export interface ParseOptions {
  /** Declared tools: XML-style string parameters are converted to their declared types. */
  tools?: readonly ToolSchema[];
}

export type ParserFamily = 'xml' | 'json' | 'pythonic' | 'mixed';

/**
 * How a call region ends after its opening marker:
 * - a string: that literal closing marker (or the end of the output, for truncated output);
 * - several strings: whichever of those markers comes first (Harmony ends a message with
 *   <|end|>, <|call|> or <|return|>);
 * - `{ balanced }`: one balanced JSON (or Python literal) value, starting at the opener when
 *   `includeOpen` (the opener is the value's first character, e.g. `[`), else after it;
 * - null: the marker alone is the region (a stray marker, dropped from content).
 */
export type RegionClose = string | readonly string[] | { balanced: 'json' | 'python'; includeOpen: boolean } | null;

export interface RegionRule {
  open: string;
  close: RegionClose;
  /**
   * Inside a region that holds several calls (a "section"), each call ends with this marker; the
   * text up to it is parsed and its calls are emitted at once instead of waiting for the section end.
   */
  callEnd?: string;
  /** The opener counts only at the start of the output (nothing but blanks before it), e.g. a bare `[`. */
  atStartOnly?: boolean;
}

export interface RegionContext {
  rule: RegionRule;
  tools?: readonly ToolSchema[];
  /** The output ended before the region's closing marker. */
  truncated: boolean;
}

export interface RegionParse {
  calls: ToolCall[];
  errors: ParseError[];
  /**
   * For formats whose regions are messages rather than calls (Harmony): the region's text that
   * is content or reasoning. When either is set the region counts as read, even with no call.
   */
  content?: string;
  reasoning?: string;
}

/** One model family's parser: everything the pipeline and the streamer need, defined once. */
export interface ParserDefinition {
  id: string;
  aliases?: readonly string[];
  family: ParserFamily;
  /** The format in one line, for docs and `--help`. */
  format: string;
  /** The markers that open call regions, tried at every position; the earliest match wins. */
  regions: readonly RegionRule[];
  /**
   * Characters dropped between consecutive calls (e.g. " \n;" for `{…}; {…}`) instead of being
   * reported as content.
   */
  betweenCalls?: string;
  /**
   * Parse one region body (the text between the markers, or the piece up to a `callEnd`) into
   * calls. Must not throw: what it cannot read goes into `errors`. A region that yields no call
   * and is not blank is given back to the content.
   */
  parseRegion(body: string, ctx: RegionContext): RegionParse;
}

export type StreamEvent =
  | { type: 'content'; text: string }
  | { type: 'reasoning'; text: string }
  | { type: 'call'; index: number; name: string }
  | { type: 'arguments'; index: number; text: string };

/** A streaming parse: feed deltas, read events as they become certain, then finish. */
export interface ToolCallStreamer {
  push(delta: string): StreamEvent[];
  finish(): StreamEvent[];
  /** The result so far (after finish: the final result, equal to the non-streaming parse). */
  result(): ParseResult;
}
