// The replay's tool summarisation rules (seed session-replay-format): what a reader needs to
// follow a tool call — the path, pattern, query, URL or command, and sizes and counts of what
// came back — never the file contents, search hits or page bodies themselves.

import { asObj, type Obj } from './json-values.js';

export { asObj, type Obj } from './json-values.js';

/** Tool families the seed names; tool names of every format map onto them. */
export type ToolFamily = 'read' | 'write' | 'edit' | 'grep' | 'glob' | 'websearch' | 'webfetch' | 'bash' | 'task' | 'other';

const FAMILIES: Record<string, ToolFamily> = {
  read: 'read', read_file: 'read', view: 'read', readfile: 'read',
  write: 'write', write_file: 'write', create_file: 'write', writefile: 'write',
  edit: 'edit', multiedit: 'edit', edit_file: 'edit', str_replace: 'edit', notebookedit: 'edit', apply_patch: 'edit',
  grep: 'grep', search: 'grep', ripgrep: 'grep', search_files: 'grep',
  glob: 'glob', find_files: 'glob', list_files: 'glob',
  websearch: 'websearch', web_search: 'websearch',
  webfetch: 'webfetch', web_fetch: 'webfetch', fetch: 'webfetch',
  bash: 'bash', shell: 'bash', run_command: 'bash', execute_command: 'bash',
  task: 'task', agent: 'task', delegate: 'task', spawn_agent: 'task',
};

export function toolFamily(name: string): ToolFamily {
  return FAMILIES[name.toLowerCase()] ?? 'other';
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

export const byteLen = (v: unknown): number =>
  v === undefined || v === null ? 0 : Buffer.byteLength(typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));

/** Cut to `max` characters with an ellipsis (short argument values: commands, patterns). */
export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

const COMMAND_CHARS = 500;
const VALUE_CHARS = 200;
const SHORT_CHARS = 80;
const GENERIC_FIELDS = 4;

function firstStr(o: Obj, keys: string[]): string | undefined {
  for (const k of keys) {
    const v = str(o[k]);
    if (v !== undefined) return v;
  }
  return undefined;
}

const FILE_KEYS = ['file_path', 'path', 'notebook_path', 'filename', 'file'];
/** Fields a generic tool is best recognised by, in order of preference. */
const KEY_FIELDS = ['command', ...FILE_KEYS, 'pattern', 'url', 'query', 'description', 'name', 'skill', 'prompt'];

/** The seed's `args` for one tool call: the identifying argument(s) and sizes, never contents. */
export function summariseArgs(name: string, input: unknown): Obj {
  const o = asObj(input);
  if (!o) return input === undefined || input === null ? {} : { size: byteLen(input) };
  const file = firstStr(o, FILE_KEYS);
  const out: Obj = {};
  switch (toolFamily(name)) {
    case 'read':
      if (file) out.file = file;
      for (const k of ['offset', 'limit']) if (num(o[k]) !== undefined) out[k] = o[k];
      return out;
    case 'write':
      if (file) out.file = file;
      out.size = byteLen(o.content ?? o.text);
      return out;
    case 'edit':
      if (file) out.file = file;
      out.size = byteLen(o.new_string ?? o.edits ?? o.new_source ?? o.new_str ?? o.patch ?? o.content);
      if (Array.isArray(o.edits)) out.edits = o.edits.length;
      return out;
    case 'grep':
    case 'glob':
      for (const k of ['pattern', 'path', 'glob', 'type']) if (str(o[k]) !== undefined) out[k] = clip(o[k] as string, VALUE_CHARS);
      return out;
    case 'websearch':
      if (str(o.query)) out.query = clip(o.query as string, VALUE_CHARS);
      return out;
    case 'webfetch':
      if (str(o.url)) out.url = o.url;
      return out;
    case 'bash': {
      const command = firstStr(o, ['command', 'cmd', 'script']);
      if (command) out.command = clip(command, COMMAND_CHARS);
      return out;
    }
    default: {
      // The identifying field first, then a few short scalars (ids, limits, flags); lists and long text by size only.
      const key = KEY_FIELDS.find((k) => str(o[k]) !== undefined);
      if (key) out[key === 'file_path' ? 'file' : key] = clip(o[key] as string, VALUE_CHARS);
      for (const [k, v] of Object.entries(o)) {
        if (Object.keys(out).length >= GENERIC_FIELDS) break;
        if (k === key || k in out) continue;
        if ((typeof v === 'string' && v.length <= SHORT_CHARS) || typeof v === 'number' || typeof v === 'boolean') out[k] = v;
      }
      out.size = byteLen(o);
      return out;
    }
  }
}

/** What a tool returned, as facts the reader can use: status, sizes, counts, exit code. */
export interface ResultFacts {
  /** The result as text (text blocks joined). */
  text: string;
  isError: boolean;
  /** Claude Code's structured `toolUseResult` (counts, exit codes, HTTP code), when present. */
  structured?: Obj | undefined;
}

function countFromText(text: string): number {
  const found = /^Found (\d+)/.exec(text.trim());
  if (found) return Number(found[1]);
  if (/^No (files|matches) found/i.test(text.trim())) return 0;
  return text.split('\n').filter((l) => l.trim() !== '').length;
}

/** The length of the first list a structured result holds (matches, files, results). */
function arrayLength(s: Obj | undefined): number | undefined {
  for (const k of ['matches', 'files', 'filenames', 'results']) if (Array.isArray(s?.[k])) return (s[k] as unknown[]).length;
  return undefined;
}

function webSearchCount(facts: ResultFacts): number | undefined {
  const results = facts.structured?.results;
  if (Array.isArray(results) && results.some((r) => Array.isArray(asObj(r)?.content))) {
    let n = 0;
    for (const r of results) {
      const content = asObj(r)?.content;
      if (Array.isArray(content)) n += content.length;
    }
    return n;
  }
  if (Array.isArray(results)) return results.length;
  const links = /Links: (\[[\s\S]*?\])\n/.exec(facts.text);
  if (links?.[1]) {
    try {
      const parsed: unknown = JSON.parse(links[1]);
      if (Array.isArray(parsed)) return parsed.length;
    } catch {
      // Not JSON after all: fall through to no count.
    }
  }
  return undefined;
}

function exitCode(facts: ResultFacts): number {
  const s = facts.structured;
  const explicit = num(s?.exitCode) ?? num(s?.exit_code) ?? num(s?.returncode);
  if (explicit !== undefined) return explicit;
  const m = /Exit code (\d+)/.exec(facts.text.slice(0, 200));
  if (m) return Number(m[1]);
  return facts.isError ? 1 : 0;
}

/** The seed's tool_result facts for one tool (status is added by the caller). */
export function summariseResult(name: string, facts: ResultFacts): Obj {
  const size = Buffer.byteLength(facts.text);
  const s = facts.structured;
  const out: Obj = {};
  const firstLine = () => clip(facts.text.trim().split('\n')[0] ?? '', VALUE_CHARS);
  switch (toolFamily(name)) {
    case 'grep':
    case 'glob': {
      if (facts.isError) {
        out.msg = firstLine();
        break;
      }
      const mode = str(s?.mode);
      out.count =
        num(s?.numMatches) ??
        (mode === 'content' ? num(s?.numLines) : num(s?.numFiles)) ??
        num(s?.total_matches) ??
        num(s?.count) ??
        arrayLength(s) ??
        countFromText(facts.text);
      break;
    }
    case 'websearch': {
      const count = webSearchCount(facts);
      if (count !== undefined) out.count = count;
      break;
    }
    case 'webfetch': {
      const code = num(s?.code);
      if (code !== undefined) out.code = code;
      out.size = num(s?.bytes) ?? size;
      if (facts.isError) out.msg = firstLine();
      return out;
    }
    case 'bash':
      out.exit = exitCode(facts);
      break;
    case 'write':
    case 'edit':
      out.msg = firstLine();
      break;
    default:
      if (facts.isError) out.msg = firstLine();
  }
  out.size = size;
  return out;
}
