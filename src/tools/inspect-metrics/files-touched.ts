// Files a session changed: the distinct paths its write and edit tool calls named (sub-agents
// included by the caller), read from the calls' evidence lines because event summaries are cut.
// Where a call's input is in its line is the format's to say (its profile's toolCallInput).

import { loadLines, lineKey } from '../../analysis/evidence-lines.js';
import { toolFamily, type Obj } from '../../formats/shared/tool-summary.js';
import type { StoredEvent } from '../../core/events.js';
import type { FormatProfile } from '../../formats/profile.js';
import type { Store } from '../../store/store.js';

const FILE_KEYS = ['file_path', 'path', 'notebook_path', 'filename', 'file'];

function pathOf(input: Obj | undefined): string | undefined {
  if (!input) return undefined;
  for (const k of FILE_KEYS) {
    const v = input[k];
    if (typeof v === 'string' && v.trim() !== '') return v;
  }
  return undefined;
}

/** Distinct paths written or edited by the tool-call events given, sorted. */
export async function filesTouched(store: Store, profile: FormatProfile, events: readonly StoredEvent[]): Promise<string[]> {
  const calls = events.filter((e) => e.kind === 'tool_call' && e.toolName !== null && ['write', 'edit'].includes(toolFamily(profile.toolAliases[e.toolName.toLowerCase()] ?? e.toolName)));
  if (calls.length === 0) return [];
  const lines = await loadLines(store, calls);
  const paths = new Set<string>();
  for (const e of calls) {
    const line = lines.get(lineKey(e));
    if (!line || !('obj' in line)) continue;
    const path = pathOf(profile.toolCallInput(e, line.obj));
    if (path !== undefined) paths.add(path);
  }
  return [...paths].sort();
}
