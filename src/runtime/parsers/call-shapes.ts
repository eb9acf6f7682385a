// Helpers the format files share: arguments text → an object or the raw text with an error, and
// JSON call objects ({"name", "arguments" | "parameters"}) → calls.

import { repairJson } from './json-repair.js';
import type { ParseError, RegionParse, ToolCall } from './types.js';

/**
 * Arguments written as JSON text: parsed (after repair when broken); empty text is `{}`; text
 * no repair can save stays the raw string, with a parse error saying which call.
 */
export function argumentsFromText(text: string, callName: string, parserId: string): { arguments: ToolCall['arguments']; error?: ParseError } {
  const trimmed = text.trim();
  if (!trimmed) return { arguments: {} };
  const repaired = repairJson(trimmed);
  if (repaired && !Array.isArray(repaired.value)) {
    const args = repaired.value as Record<string, unknown>;
    return repaired.repaired ? { arguments: args, error: repairedNotice(callName, parserId) } : { arguments: args };
  }
  return {
    arguments: trimmed,
    error: { code: 'unrepairable_json', message: `${parserId}: the arguments of "${callName}" are not JSON and could not be repaired; kept as raw text` },
  };
}

/** Repaired arguments are kept, with a notice: a truncated value may need a look before the call runs. */
export function repairedNotice(callName: string, parserId: string): ParseError {
  return { code: 'repaired_json', message: `${parserId}: the arguments of "${callName}" were broken JSON (truncated or malformed) and were repaired` };
}

export interface JsonCallOptions {
  /** Accept an object without "arguments"/"parameters" as a call with no arguments. */
  argumentsOptional: boolean;
}

/** One JSON value that should be a call object (or a list of them) → calls; others → errors. */
export function callsFromJsonValue(value: unknown, parserId: string, options: JsonCallOptions): RegionParse {
  const items = Array.isArray(value) ? value : [value];
  const out: RegionParse = { calls: [], errors: [] };
  for (const item of items) {
    const call = callFromObject(item, options);
    if (call) {
      out.calls.push(call);
      if (typeof call.arguments === 'string') out.errors.push({ code: 'unrepairable_json', message: `${parserId}: the arguments of "${call.name}" are not a JSON object; kept as raw text` });
    }
    else out.errors.push({ code: 'bad_call', message: `${parserId}: ${describe(item)} is not a call (it needs "name" and "arguments")` });
  }
  return out;
}

function describe(item: unknown): string {
  const text = JSON.stringify(item) ?? String(item);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function callFromObject(item: unknown, options: JsonCallOptions): ToolCall | null {
  if (!item || typeof item !== 'object' || Array.isArray(item)) return null;
  const obj = item as Record<string, unknown>;
  // Some models nest the call: {"function": {"name", "arguments"}}.
  const fn = obj.function && typeof obj.function === 'object' ? (obj.function as Record<string, unknown>) : obj;
  const name = fn.name;
  if (typeof name !== 'string' || !name.trim()) return null;
  const args = 'arguments' in fn ? fn.arguments : 'parameters' in fn ? fn.parameters : undefined;
  if (args === undefined) return options.argumentsOptional ? { name, arguments: {} } : null;
  if (args === null) return { name, arguments: {} };
  if (typeof args === 'string') {
    const inner = repairJson(args);
    return { name, arguments: inner && !Array.isArray(inner.value) ? (inner.value as Record<string, unknown>) : args };
  }
  if (typeof args !== 'object' || Array.isArray(args)) return null;
  return { name, arguments: args as Record<string, unknown> };
}

/** Split text into consecutive top-level JSON values ({…} or […]), skipping what lies between. */
export function topLevelJsonTexts(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') {
      if (depth > 0) inString = true;
    } else if (ch === '{' || ch === '[') {
      if (depth === 0) start = i;
      depth++;
    } else if ((ch === '}' || ch === ']') && depth > 0) {
      depth--;
      if (depth === 0) out.push(text.slice(start, i + 1));
    }
  }
  if (depth > 0 && start >= 0) out.push(text.slice(start));
  return out;
}
