// A transcript's session id, taken from its lines. Claude Code names each transcript after the
// session id its lines carry, so a uuid file name is trusted without reading; any other name (a
// transcript copied out of projects/ and renamed, or a file that is no transcript at all) is
// looked up in the file's first lines. No id there: the file is evidence of no session, its
// garbage counted as bad lines rather than turned into an empty session named after the file.

import { open } from 'node:fs/promises';

const UUID_NAME_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** How much of a file is read to find its session id (a first line is rarely longer). */
const HEAD_BYTES = 64 * 1024;
/** Line types Claude Code writes (a line of another shape does not make a file a transcript). */
const CLAUDE_LINE_TYPES = new Set(['user', 'assistant', 'system', 'summary', 'progress', 'file-history-snapshot', 'queue-operation', 'attachment', 'result']);

/** The first HEAD_BYTES of a file, or '' when it cannot be read. */
async function head(path: string): Promise<string> {
  try {
    const handle = await open(path, 'r');
    try {
      const buffer = Buffer.alloc(HEAD_BYTES);
      const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
      return buffer.subarray(0, bytesRead).toString('utf8');
    } finally {
      await handle.close();
    }
  } catch {
    return '';
  }
}

/** The session id the first lines of `path` name (a Claude Code line with `sessionId`), or undefined. */
export async function sessionIdInLines(path: string): Promise<string | undefined> {
  const lines = (await head(path)).split('\n');
  if (lines.length > 1) lines.pop(); // the last piece may be cut mid-line
  for (const line of lines) {
    let obj: unknown;
    try {
      obj = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) continue;
    const o = obj as Record<string, unknown>;
    if (typeof o.sessionId === 'string' && o.sessionId !== '' && typeof o.type === 'string' && CLAUDE_LINE_TYPES.has(o.type)) return o.sessionId;
  }
  return undefined;
}

/** The session of a transcript file named `stem`.jsonl: the name when it is a uuid, else its lines'. */
export async function transcriptSessionId(path: string, stem: string): Promise<string | undefined> {
  return UUID_NAME_RE.test(stem) ? stem : sessionIdInLines(path);
}
