// Files a session changed: the distinct paths its write and edit tool calls named (sub-agents
// included by the caller), read from the calls' evidence lines because event summaries are cut.

import type { Format } from '../../core/model.js';
import type { StoredEvent } from '../../formats/importer.js';
import type { Store } from '../../store/store.js';
import { toolFamily } from '../export-session/summarise-tool.js';
import { loadLines, lineKey, type Obj } from '../reconstruct-session/evidence.js';
import { amplifierBlockOf, asObj, claudeBlockOf } from '../reconstruct-session/payload.js';

const FILE_KEYS = ['file_path', 'path', 'notebook_path', 'filename', 'file'];

/** Tool arguments are sometimes a JSON string (OpenAI-style `arguments`). */
function objectOf(v: unknown): Obj | undefined {
  if (typeof v === 'string') {
    try {
      return asObj(JSON.parse(v));
    } catch {
      return undefined;
    }
  }
  return asObj(v);
}

/** The input a tool call was given, from its evidence line, for every format's shape. */
export function toolCallInput(format: Format, e: StoredEvent, line: Obj): Obj | undefined {
  if (format === 'claude-code') return objectOf(claudeBlockOf(e, line)?.input);
  if (format === 'amplifier') {
    const data = asObj(line.data);
    if (data) return objectOf(data.tool_input ?? data.arguments ?? data.input);
    const block = asObj(amplifierBlockOf(e, line));
    return objectOf(block?.input ?? block?.arguments);
  }
  const metadata = asObj(line.metadata);
  return objectOf(metadata?.arguments ?? metadata?.tool_input ?? line.arguments ?? line.input);
}

function pathOf(input: Obj | undefined): string | undefined {
  if (!input) return undefined;
  for (const k of FILE_KEYS) {
    const v = input[k];
    if (typeof v === 'string' && v.trim() !== '') return v;
  }
  return undefined;
}

/** Distinct paths written or edited by the tool-call events given, sorted. */
export async function filesTouched(store: Store, format: Format, events: readonly StoredEvent[]): Promise<string[]> {
  const calls = events.filter((e) => e.kind === 'tool_call' && e.toolName !== null && ['write', 'edit'].includes(toolFamily(e.toolName)));
  if (calls.length === 0) return [];
  const lines = await loadLines(store, calls);
  const paths = new Set<string>();
  for (const e of calls) {
    const line = lines.get(lineKey(e));
    if (!line || !('obj' in line)) continue;
    const path = pathOf(toolCallInput(format, e, line.obj));
    if (path !== undefined) paths.add(path);
  }
  return [...paths].sort();
}
