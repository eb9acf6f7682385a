// Tool calls and their results as Codex records them: `function_call` (arguments a JSON string),
// `custom_tool_call` (free-form `input`, apply_patch), `local_shell_call` (an `action`) and their
// `*_output` records paired by `call_id`; `web_search_call` is a call and its outcome in one.

import { asObj, asString, clip, nonEmpty, parseArguments, type Obj } from './json.js';

/** The name a call is known by: MCP tools carry their server as a namespace (`mcp__node_repl__` + `js`). */
export function toolNameOf(payload: Obj): string {
  const name = nonEmpty(payload.name) ?? (payload.type === 'local_shell_call' ? 'local_shell' : payload.type === 'web_search_call' ? 'web_search' : 'unknown');
  const namespace = nonEmpty(payload.namespace);
  if (!namespace) return name;
  return namespace.endsWith('__') || namespace.endsWith('.') ? `${namespace}${name}` : `${namespace}.${name}`;
}

function commandText(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) {
    // ["bash", "-lc", "ls -la"]: the script is what was run.
    const parts = v as string[];
    return parts.length === 3 && /sh$/.test(parts[0]!) && parts[1]!.startsWith('-') ? parts[2] : parts.join(' ');
  }
  return undefined;
}

/** A short description of what a call asked for: the command, the patched files, the query, the arguments. */
export function callPreview(payload: Obj): string {
  if (payload.type === 'custom_tool_call') {
    const input = asString(payload.input) ?? '';
    const files = [...input.slice(0, 8192).matchAll(/^\*\*\* (?:Update|Add|Delete) File: (.+)$/gm)].map((m) => m[1]);
    return files.length > 0 ? files.join(', ') : clip(input.split('\n', 1)[0] ?? '', 200);
  }
  if (payload.type === 'local_shell_call') return clip(commandText(asObj(payload.action)?.command) ?? '', 300);
  if (payload.type === 'web_search_call') {
    const action = asObj(payload.action);
    return clip(asString(action?.query) ?? asString(action?.url) ?? '', 300);
  }
  const args = parseArguments(payload.arguments);
  const command = commandText(args?.cmd) ?? commandText(args?.command);
  if (command !== undefined) return clip(command, 300);
  return clip(asString(payload.arguments) ?? '', 300);
}

/** The paths a call names (files touched): patch headers, `path`/`file_path` arguments. */
export function callPaths(payload: Obj): string[] {
  if (payload.type === 'custom_tool_call') {
    const input = asString(payload.input) ?? '';
    return [...input.matchAll(/^\*\*\* (?:Update|Add|Delete) File: (.+)$/gm)].map((m) => m[1]!.trim());
  }
  const args = parseArguments(payload.arguments);
  const path = nonEmpty(args?.path) ?? nonEmpty(args?.file_path);
  return path ? [path] : [];
}

export interface ToolOutcome {
  status: 'ok' | 'error';
  /** What came back, cut for a summary. */
  preview: string;
  exitCode?: number;
}

const EXIT_LINE = /Process exited with code (-?\d+)/;
const FAILED_HEAD = /^(?:[\w ]+ failed\b|error\b|execution error|aborted\b)/i;

/**
 * Whether a call's output says it failed: an `exit_code` other than 0 (in the JSON envelope older
 * versions write, or the "Process exited with code N" line newer ones print), `success: false`,
 * or an output that opens with a failure ("write_stdin failed: …", "error: …").
 */
export function outcomeOf(output: unknown): ToolOutcome {
  const obj = asObj(output);
  if (obj) {
    const text = asString(obj.content) ?? asString(obj.output) ?? '';
    return { status: obj.success === false ? 'error' : 'ok', preview: clip(text, 300) };
  }
  if (Array.isArray(output)) {
    // Content parts (text, images) from MCP tools.
    const text = output.map((p) => asString(asObj(p)?.text) ?? '').join('\n');
    return { status: 'ok', preview: clip(text, 300) };
  }
  const text = asString(output) ?? '';
  const head = text.slice(0, 4096);
  if (head.startsWith('{')) {
    const parsed = parseArguments(text);
    const meta = asObj(parsed?.metadata);
    const exit = typeof meta?.exit_code === 'number' ? meta.exit_code : undefined;
    if (parsed) {
      const body = asString(parsed.output) ?? '';
      return { status: exit !== undefined && exit !== 0 ? 'error' : 'ok', preview: clip(body, 300), ...(exit !== undefined ? { exitCode: exit } : {}) };
    }
  }
  const exitMatch = EXIT_LINE.exec(head);
  if (exitMatch) {
    const exit = Number(exitMatch[1]);
    return { status: exit === 0 ? 'ok' : 'error', preview: clip(head, 300), exitCode: exit };
  }
  return { status: FAILED_HEAD.test(head.trimStart()) ? 'error' : 'ok', preview: clip(head, 300) };
}
