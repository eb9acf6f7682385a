// Test helpers: small Gemini homes written from records, shaped as the CLI writes them.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../../test/helpers.js';
import { projectHashOf } from './project-path.js';

export type Rec = Record<string, unknown>;

export const PROJECT_ROOT = '/home/dev/demo-app';
export const PROJECT_HASH = projectHashOf(PROJECT_ROOT);
export const SESSION = '11111111-2222-4333-8444-555555555555';

export function header(extra: Rec = {}): Rec {
  return { sessionId: SESSION, projectHash: PROJECT_HASH, startTime: '2026-03-01T10:00:00.000Z', lastUpdated: '2026-03-01T10:00:00.000Z', kind: 'main', ...extra };
}

export function user(id: string, text: string, at: string, extra: Rec = {}): Rec {
  return { id, timestamp: at, type: 'user', content: [{ text }], ...extra };
}

export function reply(id: string, at: string, extra: Rec = {}): Rec {
  return { id, timestamp: at, type: 'gemini', content: '', model: 'gemini-2.5-pro', ...extra };
}

export function tokens(input: number, output: number, cached = 0, thoughts = 0, tool = 0): Rec {
  return { input, output, cached, thoughts, tool, total: input + output + thoughts + tool };
}

export function call(id: string, name: string, args: Rec, status = 'success', output = 'ok'): Rec {
  const response = status === 'error' ? { error: output } : { output };
  return { id, name, args, status, timestamp: '2026-03-01T10:00:05.000Z', ...(status === 'executing' ? {} : { result: [{ functionResponse: { id, name, response } }] }) };
}

/** A home `<dir>/tmp/<project>/chats/` ready for files; returns the chats folder and the home. */
export function geminiHome(project = PROJECT_HASH): { home: string; chats: string } {
  const home = tempDir('hs-gemini-');
  const chats = join(home, 'tmp', project, 'chats');
  mkdirSync(chats, { recursive: true });
  return { home, chats };
}

export const jsonl = (records: readonly (Rec | string)[]) => records.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n') + '\n';

export function writeChat(chats: string, name: string, records: readonly (Rec | string)[]): string {
  const path = join(chats, name);
  writeFileSync(path, jsonl(records));
  return path;
}

/** A legacy document chat, pretty-printed as older CLIs wrote it. */
export function writeDocument(chats: string, name: string, messages: readonly Rec[], extra: Rec = {}): string {
  const path = join(chats, name);
  const { kind: _kind, ...head } = header(extra);
  writeFileSync(path, JSON.stringify({ ...head, messages }, null, 2));
  return path;
}
