// One-line previews of tool calls and results for event summaries: the argument a reader looks
// for first (command, path, pattern, url), never the whole input or output.

import { asArr, asObj, asStr, clip, type Json } from './json-access.js';

const PREVIEW_CHARS = 240;

/** Input fields that say what a call does, in order of preference. */
const KEY_FIELDS = ['command', 'file_path', 'notebook_path', 'path', 'pattern', 'url', 'query', 'description', 'prompt', 'skill'];

/** `Bash: npm test`, `Read: /src/a.ts`, or the name and compact JSON of the input. */
export function toolCallPreview(name: string, input: unknown): string {
  const o = asObj(input);
  if (!o) return name;
  for (const field of KEY_FIELDS) {
    const value = asStr(o[field]);
    if (value !== undefined && value !== '') return clip(`${name}: ${value.replace(/\s+/g, ' ')}`, PREVIEW_CHARS);
  }
  let json: string;
  try {
    json = JSON.stringify(o);
  } catch {
    json = '';
  }
  return clip(`${name} ${json}`.trim(), PREVIEW_CHARS);
}

/** The text of a tool result's `content` (a string or text blocks), cut for a preview. */
export function toolResultText(content: unknown): string {
  const s = asStr(content);
  if (s !== undefined) return clip(s, PREVIEW_CHARS * 2);
  const parts: string[] = [];
  for (const block of asArr(content) ?? []) {
    const b = asObj(block);
    if (!b) continue;
    if (b.type === 'text' && typeof b.text === 'string') parts.push(b.text);
    else if (b.type === 'image') parts.push('[image]');
    if (parts.join(' ').length > PREVIEW_CHARS * 2) break;
  }
  return clip(parts.join(' '), PREVIEW_CHARS * 2);
}

/** Task/Agent call fields worth keeping on the call and on a linked child session. */
export function taskFields(input: Json | undefined): { prompt?: string; description?: string; subagentType?: string } {
  if (!input) return {};
  const out: { prompt?: string; description?: string; subagentType?: string } = {};
  const prompt = asStr(input.prompt);
  const description = asStr(input.description);
  const subagentType = asStr(input.subagent_type);
  if (prompt !== undefined && prompt.trim() !== '') out.prompt = prompt;
  if (description !== undefined) out.description = clip(description, 120);
  if (subagentType !== undefined) out.subagentType = clip(subagentType, 80);
  return out;
}
