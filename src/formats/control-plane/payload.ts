// What a Control Plane entry's line says about its event: the full content (the LedgerEntry's own
// fields and its metadata dict whole), and the text a failed tool call sent back.

import { Omitter } from '../shared/payload-omitter.js';
import { asObj, type Obj } from '../shared/tool-summary.js';
import type { StoredEvent } from '../../core/events.js';
import type { ContentOptions } from '../profile.js';

/** Metadata keys that hold text assembled for the model. */
const PROMPT_KEYS = ['prompt', 'prompts', 'system_prompt', 'messages'];

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

export function planeContent(e: StoredEvent, entry: Obj, opts: ContentOptions): Obj {
  const o = new Omitter();
  const metadata: Obj = { ...(asObj(entry.metadata) ?? {}) };
  const content: Obj = {
    submission_id: entry.submission_id ?? null,
    decision: entry.decision ?? null,
    reason: entry.reason ?? null,
    prompts_used: entry.prompts_used ?? [],
    timestamp: entry.timestamp ?? null,
    metadata,
  };
  if (!opts.includePrompts) {
    o.take(content, 'prompts_used', 'prompts_used');
    for (const k of PROMPT_KEYS) o.take(metadata, k, `metadata.${k}`);
  }
  if (!opts.includeToolPayloads && e.type === 'TOOL_CALL') {
    o.take(metadata, 'arguments', 'metadata.arguments');
    o.take(metadata, 'result', 'metadata.result');
  }
  return o.finish(content);
}

/** A TOOL_CALL's error: `metadata.tool_error`, else the result's `error`. */
export function planeFailureText(_e: StoredEvent, line: Obj): string | undefined {
  const metadata = asObj(line.metadata);
  return str(metadata?.tool_error) ?? str(asObj(metadata?.result)?.error);
}
