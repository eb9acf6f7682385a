// Builders for small Claude Code transcripts in temp folders, for tests (shapes copied from the
// real files in ../shared/fixtures/claude-code; only the fields the importer reads). Test-only:
// it imports nothing from test/ so that the production build stays free of test code.

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export const SID = '11111111-2222-4333-8444-555555555555';
export const SLUG = '-work-demo';

export const ts = (second: number): string => `2026-01-01T00:00:${String(second).padStart(2, '0')}.000Z`;

type Line = Record<string, unknown>;

export function userLine(uuid: string, parent: string | null, second: number, content: unknown, extra: Line = {}): Line {
  return { parentUuid: parent, isSidechain: false, cwd: '/work/demo', sessionId: SID, version: '2.1.0', type: 'user', message: { role: 'user', content }, uuid, timestamp: ts(second), ...extra };
}

export function assistantLine(
  uuid: string,
  parent: string | null,
  second: number,
  ids: { msg: string; req: string },
  content: unknown[],
  usage: Partial<Record<'input_tokens' | 'output_tokens' | 'cache_creation_input_tokens' | 'cache_read_input_tokens', number>> | null,
  extra: Line = {},
): Line {
  const message: Line = { model: 'claude-opus-4-6', id: ids.msg, type: 'message', role: 'assistant', content, stop_reason: null };
  if (usage) message.usage = { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, ...usage };
  return { parentUuid: parent, isSidechain: false, cwd: '/work/demo', sessionId: SID, type: 'assistant', message, requestId: ids.req, uuid, timestamp: ts(second), ...extra };
}

export const text = (t: string) => ({ type: 'text', text: t });
export const toolUse = (id: string, name: string, input: Line = {}) => ({ type: 'tool_use', id, name, input });
export const toolResult = (id: string, content: string, isError = false) => ({ type: 'tool_result', tool_use_id: id, content, is_error: isError });

/** A config folder in a fresh temp dir with `projects/<slug>/…` files; returns its path. */
export function makeConfigDir(files: Record<string, Line[] | string>): string {
  const root = mkdtempSync(join(tmpdir(), 'hs-claude-'));
  for (const [rel, content] of Object.entries(files)) {
    const path = join(root, 'projects', rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, typeof content === 'string' ? content : content.map((l) => `${JSON.stringify(l)}\n`).join(''));
  }
  return root;
}
