// A session file's identity from its first bytes: discovery must name each file's session
// before parsing (the file name carries only the first 8 characters of the id), and detection
// must tell a Gemini chat from any other file called session-*.json.
//
// Both layouts put the metadata first: the JSONL header line is {sessionId, projectHash,
// startTime, lastUpdated, kind?}, and the legacy document is JSON.stringify(conversation, null, 2)
// whose first keys are sessionId and projectHash.

import { headOf } from '../shared/fs-entries.js';
import { asObj, nonEmpty } from './json.js';

export interface SessionHead {
  sessionId?: string;
  projectHash?: string;
  /** 'main' or 'subagent' when the header says. */
  kind?: string;
}

const SMALL_HEAD = 4 * 1024;
const LARGE_HEAD = 64 * 1024;

/** A top-level string field of a pretty-printed document, found without parsing the document. */
function documentField(head: string, key: string): string | undefined {
  const m = new RegExp(`"${key}"\\s*:\\s*("(?:[^"\\\\]|\\\\.)*")`).exec(head);
  if (!m) return undefined;
  try {
    return nonEmpty(JSON.parse(m[1]!));
  } catch {
    return undefined;
  }
}

function fromDocument(head: string): SessionHead {
  return { sessionId: documentField(head, 'sessionId'), projectHash: documentField(head, 'projectHash'), kind: documentField(head, 'kind') };
}

function fromLines(head: string): SessionHead {
  const lines = head.split('\n');
  if (lines.length > 1) lines.pop(); // the last piece may be cut mid-line
  for (const line of lines) {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    const o = asObj(value);
    const sessionId = nonEmpty(o?.sessionId);
    if (o && sessionId) return { sessionId, projectHash: nonEmpty(o.projectHash), kind: nonEmpty(o.kind) };
  }
  return {};
}

/** What the first bytes of `path` say about its session (fields absent when they do not say). */
export async function readSessionHead(path: string, layout: 'jsonl' | 'document'): Promise<SessionHead> {
  const read = (bytes: number) => headOf(path, bytes).then((head) => (layout === 'jsonl' ? fromLines(head) : fromDocument(head)));
  const small = await read(SMALL_HEAD);
  return small.sessionId ? small : read(LARGE_HEAD);
}

/** True when the head of `path` reads as a Gemini chat (it names a session and a project hash). */
export async function looksLikeChatFile(path: string): Promise<boolean> {
  const head = await headOf(path, SMALL_HEAD);
  return head.includes('"projectHash"') && head.includes('"sessionId"');
}
