// The recent-sessions table of `inspect --metrics`: one row per top-level session, newest first.

import type { Format } from '../../core/model.js';
import { redactText } from '../../core/redact.js';
import type { Store } from '../../store/store.js';
import { familyDigest } from './family.js';

const TITLE_CHARS = 80;
const FILES_LISTED = 10;

export interface RecentOptions {
  format?: Format;
  project?: string;
  limit: number;
  offset: number;
  redact: boolean;
}

export async function recentSessions(store: Store, o: RecentOptions) {
  const { total, sessions } = await store.listSessions({ format: o.format, project: o.project, topLevelOnly: true, limit: o.limit, offset: o.offset });
  const rows = [];
  for (const s of sessions) {
    const d = await familyDigest(store, s);
    const title = s.title ?? s.firstUserMessage ?? '';
    const shown = o.redact ? redactText(title) : title;
    rows.push({
      session_id: s.id,
      date: s.startedAt,
      format: s.format,
      // How a runtime session was started (ask, chat, run), as its summariser recorded it; null for other formats.
      mode: typeof s.attrs.mode === 'string' ? s.attrs.mode : null,
      model: d.model,
      steps: d.steps,
      tool_calls: d.toolCalls,
      tool_errors: d.toolErrors,
      status: s.status,
      files_touched: d.files.length,
      files: (o.redact ? d.files.map(redactText) : d.files).slice(0, FILES_LISTED),
      subagents: d.subagents,
      project: s.project,
      title: shown.length > TITLE_CHARS ? `${shown.slice(0, TITLE_CHARS - 1)}…` : shown,
    });
  }
  return { total, rows };
}
