// What the tools need to know about OpenCode beyond parsing. Lines are database rows as
// sqlite-rows.ts writes them (`{"table":…,"id":…,"data":{…}}`) or storage/ documents (the record
// itself), so every hook first finds the record's own JSON.

import type { StoredEvent } from '../../core/events.js';
import { defineProfile, type Obj } from '../profile.js';
import { asObject, asString } from './json.js';
import { userTurns } from './turns.js';

/** The record a line holds: a row's `data` (or `data_text`), else the document itself. */
export function recordData(line: Obj): Obj {
  const data = asObject(line.data);
  if (data && typeof line.table === 'string') return data;
  if (typeof line.data_text === 'string') {
    try {
      return asObject(JSON.parse(line.data_text)) ?? line;
    } catch {
      return line;
    }
  }
  return line;
}

const toolState = (line: Obj): Obj | undefined => asObject(recordData(line).state);

/** A tool part with its input and output replaced by their sizes (full timeline rows without payloads). */
function withoutToolPayload(line: Obj): Obj {
  const data = recordData(line);
  const state = asObject(data.state);
  if (!state) return { ...line };
  const omitted: Obj[] = [];
  const kept: Obj = { ...state };
  for (const key of ['input', 'output', 'metadata', 'attachments']) {
    if (kept[key] === undefined) continue;
    omitted.push({ field: `state.${key}`, bytes: Buffer.byteLength(JSON.stringify(kept[key]) ?? '') });
    delete kept[key];
  }
  const record = { ...data, state: kept };
  return { ...(data === line ? record : { ...line, data: record }), ...(omitted.length ? { omitted } : {}) };
}

const KIND_WORDS: Record<string, string> = { user_message: 'User prompt', assistant_message: 'Assistant text', thinking: 'Reasoning' };

export const openCodeProfile = defineProfile({
  label: 'OpenCode',
  // The OTLP export's gen_ai.agent.name and gen_ai.provider.name (docs/otel.md). OpenCode talks to many providers: each call's provider comes from its model.
  agentIdentity: { agentName: 'OpenCode', providerName: null },
  userTurns,
  messageText: (_ref, line) => asString(recordData(line).text) ?? null,
  eventContent: (e: StoredEvent, line, opts) => (e.toolName !== null && !opts.includeToolPayloads ? withoutToolPayload(line) : { ...line }),
  toolCallInput: (_e, line) => {
    const input = asObject(toolState(line)?.input);
    // OpenCode's tools name their file `filePath`; the tools read the common `file_path`.
    return input && typeof input.filePath === 'string' && input.file_path === undefined ? { ...input, file_path: input.filePath } : input;
  },
  failureText: (_e, line) => asString(toolState(line)?.error),
  textFreeSummary: (e, line) => {
    const text = line ? asString(recordData(line).text) : undefined;
    const words = KIND_WORDS[e.kind] ?? e.summary;
    return text === undefined ? words : `${words} (${text.length} characters)`;
  },
  ledgerEntry: (value, type) => {
    const data = value ? recordData(value) : null;
    const time = asObject(data?.time);
    const ms = typeof value?.time_created === 'number' ? value.time_created : typeof time?.created === 'number' ? time.created : null;
    return {
      id: asString(value?.id) ?? null,
      event_type: type,
      submission_id: null,
      decision: null,
      reason: null,
      timestamp: ms === null ? null : new Date(ms).toISOString(),
      metadata: value,
    };
  },
  isDocumentLedger: (ledger) => ledger.endsWith('.json'),
  rewind: null,
  rewindRefusal:
    'OpenCode keeps its sessions in its own database (opencode.db), which Hindsight only ever opens read-only; cutting a session back would mean writing to it, so rewind is not supported for OpenCode.',
});
