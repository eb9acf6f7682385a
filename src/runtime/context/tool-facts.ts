// What a tool call says in a few words, read from its name and arguments: which files it touched
// and the argument values worth keeping when its result leaves the model's view. Shared by the
// compaction summary and message assembly so that both describe a call the same way.

import { activityOf, type ToolActivity } from '../../analysis/tool-words.js';
import { clipWords, oneLine } from '../../analysis/words.js';
import type { ToolCallRequest } from '../model/chat.js';

/** Argument names that hold one file path, in the spellings tools use. */
const PATH_KEYS = ['path', 'file_path', 'filePath', 'file', 'filename', 'notebook_path', 'target_file'] as const;
/** Argument names that hold several. */
const PATHS_KEYS = ['paths', 'files', 'file_paths'] as const;
/** Arguments worth keeping in a one-line description, most telling first. */
const FACT_KEYS = [...PATH_KEYS, 'command', 'cmd', 'pattern', 'query', 'url', 'offset', 'limit', 'start_line', 'end_line', 'line', 'old_string'] as const;
const FACT_CHARS = 120;
const MAX_FACTS = 3;

/** The activity of a tool by its name (read, edit, write, shell, search…), as the overview words it. */
export function toolActivity(name: string): ToolActivity | undefined {
  return activityOf(name);
}

/** Whether a tool's result is a file's text (the model quotes it exactly in later edits). */
export function isFileReadTool(name: string): boolean {
  return activityOf(name) === 'read';
}

function argsObject(call: Pick<ToolCallRequest, 'arguments'>): Record<string, unknown> | null {
  return typeof call.arguments === 'object' && call.arguments !== null ? call.arguments : null;
}

/** The file paths a call names in its arguments, in argument order, without repeats. */
export function pathsOf(call: Pick<ToolCallRequest, 'arguments'>): string[] {
  const args = argsObject(call);
  if (!args) return [];
  const out: string[] = [];
  for (const key of PATH_KEYS) {
    const v = args[key];
    if (typeof v === 'string' && v !== '') out.push(v);
  }
  for (const key of PATHS_KEYS) {
    const v = args[key];
    if (Array.isArray(v)) for (const p of v) if (typeof p === 'string' && p !== '') out.push(p);
  }
  return [...new Set(out)];
}

function factValue(v: unknown): string | number | boolean | null {
  if (typeof v === 'string') return clipWords(oneLine(v), FACT_CHARS);
  if (typeof v === 'number' || typeof v === 'boolean') return v;
  return null;
}

/**
 * At most three argument values that say what a call did (path, command, pattern…), strings
 * folded to one line and clipped; the first scalar arguments when none of the known ones is there.
 *
 * @example keyFacts({ id: '1', name: 'bash', arguments: { command: 'npm test', timeout: 60 } }) // { command: 'npm test' }
 */
export function keyFacts(call: Pick<ToolCallRequest, 'arguments'>): Record<string, string | number | boolean> {
  if (typeof call.arguments === 'string') {
    return call.arguments.trim() === '' ? {} : { arguments: clipWords(oneLine(call.arguments), FACT_CHARS) };
  }
  const args = argsObject(call) ?? {};
  const out: Record<string, string | number | boolean> = {};
  let n = 0;
  for (const key of FACT_KEYS) {
    if (n >= MAX_FACTS) break;
    const v = factValue(args[key]);
    if (v === null || v === '') continue;
    out[key] = v;
    n++;
  }
  if (n > 0) return out;
  for (const [key, raw] of Object.entries(args)) {
    if (n >= 2) break;
    const v = factValue(raw);
    if (v === null || v === '') continue;
    out[key] = v;
    n++;
  }
  return out;
}

/** A call in a few words for a summary line: `bash npm test`, `read src/a.ts`. */
export function describeCall(call: Pick<ToolCallRequest, 'name' | 'arguments'>): string {
  const facts = Object.values(keyFacts(call)).map(String);
  return facts.length > 0 ? `${call.name} ${facts.join(' ')}` : call.name;
}
